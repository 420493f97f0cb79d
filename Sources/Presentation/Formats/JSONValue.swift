/// A JSON value with keys kept in the order they are given, written the same way on every
/// run (no dictionary order, no locale): esmsim's outputs must be byte-identical for the same
/// scenario and seed.
public indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral,
  ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral
{
  case null
  case bool(Bool)
  case int(Int)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int) { self = .int(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }

  /// A number, or `null` when it is not finite (JSON has no NaN).
  public static func finite(_ x: Double) -> JSONValue { x.isFinite ? .number(x) : .null }

  public static func == (a: JSONValue, b: JSONValue) -> Bool { a.text() == b.text() }

  /// The JSON text; `indent` > 0 pretty-prints.
  public func text(indent: Int = 0) -> String {
    var out = ""
    write(into: &out, indent: indent, level: 0)
    return out
  }

  func write(into out: inout String, indent: Int, level: Int) {
    // A container's line break and indent at `depth` (made only for containers: most values
    // are scalars).
    func lineBreak(_ depth: Int) -> String { indent > 0 ? "\n" + String(repeating: " ", count: indent * depth) : "" }
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .number(let x): out += JSONValue.format(x)
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      if items.isEmpty { out += "[]"; return }
      out += "["
      let pad = lineBreak(level + 1)
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        out += pad
        item.write(into: &out, indent: indent, level: level + 1)
      }
      out += lineBreak(level) + "]"
    case .object(let members):
      if members.isEmpty { out += "{}"; return }
      out += "{"
      let pad = lineBreak(level + 1)
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        out += pad
        JSONValue.quote(key, into: &out)
        out += indent > 0 ? ": " : ":"
        value.write(into: &out, indent: indent, level: level + 1)
      }
      out += lineBreak(level) + "}"
    }
  }

  /// A finite number as the shortest text that reads back to the same value.
  static func format(_ x: Double) -> String {
    guard x.isFinite else { return "null" }
    if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
    return "\(x)"
  }

  /// A JSON string literal; control characters, quotes and backslashes escaped.
  static func quote(_ s: String, into out: inout String) {
    out += "\""
    // Most strings need no escape: appended whole (scalar by scalar cost 6 M instructions of a
    // run's summary.json and manifest). 0xE2 leads U+2028 and U+2029: such text takes the
    // scalar-by-scalar way.
    if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0xE2 }) {
      out += s
      out += "\""
      return
    }
    for u in s.unicodeScalars {
      switch u {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{2028}": out += "\\u2028"
      case "\u{2029}": out += "\\u2029"
      default:
        if u.value < 0x20 {
          let hex = String(u.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(u)
        }
      }
    }
    out += "\""
  }
}
