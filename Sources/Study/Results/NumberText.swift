/// Numbers as text for tables and CSV files: fixed decimals, no locale, no exponent.
public enum NumberText {
  /// `x` with `digits` decimals ("nan" and "inf" spelled out; CSV readers accept both).
  public static func fixed(_ x: Double, _ digits: Int) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let r = (abs(x) * scale).rounded()
    guard r < 9e15 else { return "\(x)" }
    let whole = Int64(r / scale)
    let frac = Int64(r - Double(whole) * scale)
    let sign = x < 0 && r > 0 ? "-" : ""
    if digits == 0 { return "\(sign)\(whole)" }
    let f = String(frac)
    return "\(sign)\(whole)." + String(repeating: "0", count: digits - f.count) + f
  }

  /// The shortest text that reads back to `x` (CSV cells that must round-trip).
  public static func exact(_ x: Double) -> String {
    guard x.isFinite else { return x.isNaN ? "nan" : (x > 0 ? "inf" : "-inf") }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
  }
}
