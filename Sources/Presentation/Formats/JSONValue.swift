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
    let pad = indent > 0 ? "\n" + String(repeating: " ", count: indent * (level + 1)) : ""
    let close = indent > 0 ? "\n" + String(repeating: " ", count: indent * level) : ""
    switch self {
    case .null: out += "null"
    case .bool(let b): out += b ? "true" : "false"
    case .int(let i): out += String(i)
    case .number(let x): out += JSONValue.format(x)
    case .string(let s): JSONValue.quote(s, into: &out)
    case .array(let items):
      if items.isEmpty { out += "[]"; return }
      out += "["
      for (i, item) in items.enumerated() {
        if i > 0 { out += "," }
        out += pad
        item.write(into: &out, indent: indent, level: level + 1)
      }
      out += close + "]"
    case .object(let members):
      if members.isEmpty { out += "{}"; return }
      out += "{"
      for (i, (key, value)) in members.enumerated() {
        if i > 0 { out += "," }
        out += pad
        JSONValue.quote(key, into: &out)
        out += indent > 0 ? ": " : ":"
        value.write(into: &out, indent: indent, level: level + 1)
      }
      out += close + "}"
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
