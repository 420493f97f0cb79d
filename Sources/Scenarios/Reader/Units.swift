import SimKernel

/// Numbers, durations and their text in scenario files.
enum Units {
  /// A finite decimal number ("1", "0.5", "1e-3"), as JSON writes numbers; NaN, infinities
  /// and Swift's hexadecimal forms ("0x10", read as 16 before) are refused.
  static func number(_ s: String) -> Double? {
    let t = s.trimmingCharacters(in: .whitespaces)
    guard !t.isEmpty, t.utf8.allSatisfy({ (48...57).contains($0) || "+-.eE".utf8.contains($0) }), let x = Double(t), x.isFinite
    else { return nil }
    return x
  }

  /// A duration with a unit: ms, s, m (or min), h, d; a bare 0 (none) needs none.
  static func duration(_ s: String) -> SimTime? {
    let t = s.trimmingCharacters(in: .whitespaces).lowercased()
    if t == "0" { return 0 }
    let units: [(String, Double)] = [("ms", 1), ("min", 60_000), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
    for (u, scale) in units where t.hasSuffix(u) {
      let n = String(t.dropLast(u.count)).trimmingCharacters(in: .whitespaces)
      guard let x = number(n), x >= 0, x * scale < 1e15 else { return nil }
      return SimTime((x * scale).rounded())
    }
    return nil
  }

  /// A duration in the largest unit that divides it.
  static func formatDuration(_ t: SimTime) -> String {
    for (u, scale) in [("d", Tick.day), ("h", Tick.hour), ("m", Tick.minute), ("s", Tick.second)] where t != 0 && t % scale == 0 {
      return "\(t / scale)\(u)"
    }
    if t == 0 { return "0s" }
    return "\(t)ms"
  }

  /// A number as short text ("1", "0.25").
  static func format(_ x: Double) -> String {
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
  }

  /// The known key closest to a misspelt one (edit distance ≤ 3).
  static func closest(_ key: String, in known: [String]) -> String? {
    var best: (String, Int)?
    for k in Set(known) {
      let d = distance(key, k)
      if d <= 3, d < (best?.1 ?? .max) || (d == best?.1 && k < best!.0) { best = (k, d) }
    }
    return best?.0
  }

  static func distance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var row = Array(0...b.count)
    for i in 1...a.count {
      var previous = row[0]
      row[0] = i
      for j in 1...b.count {
        let temp = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = temp
      }
    }
    return row[b.count]
  }
}

extension String {
  func trimmingCharacters(in set: Set<Character>) -> String {
    var s = Substring(self)
    while let f = s.first, set.contains(f) { s = s.dropFirst() }
    while let l = s.last, set.contains(l) { s = s.dropLast() }
    return String(s)
  }
}

extension Set where Element == Character {
  static let whitespaces: Set<Character> = [" ", "\t"]
}
