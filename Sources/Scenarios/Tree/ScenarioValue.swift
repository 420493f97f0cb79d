/// A scenario file's contents as a tree, with where each value was written (line and
/// column), so that every error can point at its place.
public indirect enum ScenarioValue: Sendable, Equatable {
  case scalar(String, Location?)
  case mapping([(key: String, value: ScenarioValue, at: Location?)], Location?)
  case sequence([ScenarioValue], Location?)

  /// A place in a file: line and column, from 1.
  public struct Location: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public init(line: Int, column: Int) {
      self.line = line
      self.column = column
    }
    public var description: String { line == 0 ? "given on the command line" : "line \(line), column \(column)" }
    /// A value given on the command line (`--duration`, `--participants` …), not in the file.
    public static let commandLine = Location(line: 0, column: 0)
  }

  public static func == (a: ScenarioValue, b: ScenarioValue) -> Bool {
    switch (a, b) {
    case (.scalar(let x, _), .scalar(let y, _)): return x == y
    case (.sequence(let x, _), .sequence(let y, _)): return x == y
    case (.mapping(let x, _), .mapping(let y, _)):
      return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: return false
    }
  }

  /// Where the value was written.
  public var location: Location? {
    switch self {
    case .scalar(_, let l), .mapping(_, let l), .sequence(_, let l): return l
    }
  }

  /// The value of `key` in a mapping.
  public subscript(key: String) -> ScenarioValue? {
    if case .mapping(let pairs, _) = self { return pairs.first { $0.key == key }?.value }
    return nil
  }

  /// A short description of the kind of value, for messages.
  var kind: String {
    switch self {
    case .scalar: "a single value"
    case .mapping: "a mapping of keys"
    case .sequence: "a list"
    }
  }

  /// Overlays `other` on `self`: mappings merge key by key (recursively), anything else is
  /// replaced; so are the mappings at `wholes` (key paths such as `protocol.schedule`, which
  /// only make sense whole). Variants of a scenario are overlays of the base.
  public func overlaid(with other: ScenarioValue, wholes: Set<String> = [], path: String = "") -> ScenarioValue {
    guard !wholes.contains(path), case .mapping(var base, let at) = self, case .mapping(let over, _) = other else {
      return other
    }
    for entry in over {
      let childPath = path.isEmpty ? entry.key : path + "." + entry.key
      if let i = base.firstIndex(where: { $0.key == entry.key }) {
        base[i] = (entry.key, base[i].value.overlaid(with: entry.value, wholes: wholes, path: childPath), entry.at)
      } else {
        base.append(entry)
      }
    }
    return .mapping(base, at)
  }

  /// The value as YAML text (block style, two-space indent), for `esmsim show`.
  public func yaml(indent: Int = 0) -> String {
    var out = ""
    write(&out, indent: indent, inList: false)
    return out
  }

  func write(_ out: inout String, indent: Int, inList: Bool) {
    let pad = String(repeating: " ", count: indent)
    switch self {
    case .scalar(let s, _):
      out += Self.yamlScalar(s) + "\n"
    case .sequence(let items, _):
      if items.isEmpty {
        out += "[]\n"
        return
      }
      if items.allSatisfy({ if case .scalar = $0 { return true } else { return false } }) {
        out += "[" + items.map { if case .scalar(let s, _) = $0 { return Self.yamlScalar(s) } else { return "" } }.joined(separator: ", ") + "]\n"
        return
      }
      for item in items {
        out += pad + "- "
        if case .mapping(let pairs, _) = item, !pairs.isEmpty {
          var first = true
          for (k, v, _) in pairs {
            if !first { out += pad + "  " }
            first = false
            out += Self.yamlScalar(k) + ":"
            v.writeValue(&out, indent: indent + 4)
          }
        } else {
          item.write(&out, indent: indent + 2, inList: true)
        }
      }
    case .mapping(let pairs, _):
      if pairs.isEmpty {
        out += "{}\n"
        return
      }
      if inList { out += "\n" }
      for (k, v, _) in pairs {
        out += pad + Self.yamlScalar(k) + ":"
        v.writeValue(&out, indent: indent + 2)
      }
    }
  }

  func writeValue(_ out: inout String, indent: Int) {
    switch self {
    case .scalar:
      out += " "
      write(&out, indent: indent, inList: false)
    case .sequence(let items, _) where items.isEmpty || items.allSatisfy({ if case .scalar = $0 { return true } else { return false } }):
      out += " "
      write(&out, indent: indent, inList: false)
    case .mapping(let pairs, _) where pairs.isEmpty:
      out += " {}\n"
    default:
      out += "\n"
      if case .sequence = self {
        write(&out, indent: indent, inList: false)
      } else {
        write(&out, indent: indent, inList: false)
      }
    }
  }

  /// A minus and a number (`-0.8`): YAML reads it as that number, as a reader of `esmsim show`
  /// expects (a dash and a space would be a list's item; a dash and a letter is text).
  static func isNegativeNumber(_ s: String) -> Bool {
    let second = s.dropFirst().first
    return s.hasPrefix("-") && (second?.isNumber == true || second == ".") && Double(s)?.isFinite == true
  }

  /// A scalar quoted when YAML would read it otherwise.
  static func yamlScalar(_ s: String) -> String {
    let plain = !s.isEmpty && s.unicodeScalars.allSatisfy { c in
      (c.value >= 0x30 && c.value <= 0x39) || (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x61 && c.value <= 0x7A)
        || "._-/ ".unicodeScalars.contains(c)
    } && s.first != " " && s.last != " " && (!s.hasPrefix("-") || Self.isNegativeNumber(s))
      // YAML's null written plainly is refused on reading: the text "null" is quoted.
      && !["null", "Null", "NULL"].contains(s)
    if plain { return s }
    var q = "\""
    for u in s.unicodeScalars {
      switch u {
      case "\"": q += "\\\""
      case "\\": q += "\\\\"
      case "\n": q += "\\n"
      case "\t": q += "\\t"
      default:
        // Control characters (C0, DEL, C1: YAML reads a raw NEL as a line break), as two hex digits.
        if u.value < 0x20 || (u.value >= 0x7F && u.value <= 0x9F) {
          q += "\\x" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16)
        } else {
          q.unicodeScalars.append(u)
        }
      }
    }
    return q + "\""
  }
}
