import Foundation
internal import Yams

/// Reads scenario text (YAML, or JSON, which YAML reads too) into a ``ScenarioValue`` tree,
/// within limits that keep hostile files from exhausting the machine.
public enum ScenarioLoader {
  /// Limits on what a scenario file may hold.
  public struct Limits: Sendable {
    /// Largest file, bytes.
    public var bytes = 4 << 20
    /// Deepest nesting of mappings and lists.
    public var depth = 64
    /// Most values in the tree after aliases are expanded ("billion laughs").
    public var nodes = 200_000
    /// Longest single value or key, characters.
    public var scalarLength = 65_536

    public init() {}
  }

  /// Reads a file.
  ///
  /// - Throws: ``ScenarioError`` naming the file (missing, unreadable, not UTF-8, malformed
  ///   with line and column, or over a limit).
  public static func load(path: String, limits: Limits = Limits()) throws(ScenarioError) -> ScenarioValue {
    let lower = path.lowercased()
    if lower.hasSuffix(".csv") || lower.hasSuffix(".tsv") {
      // A table given where a scenario goes (a pilot's records are calibrate's).
      throw ScenarioError(file: path, "is a table, not a scenario (a YAML or JSON file); a pilot's records are read by esmsim calibrate")
    }
    return try parse(contents(path: path, limits: limits), file: path, limits: limits)
  }

  /// A file's bytes, refused (naming the file) when missing, unreadable, a folder or over the
  /// size limit.
  public static func contents(path: String, limits: Limits = Limits()) throws(ScenarioError) -> Data {
    let data: Data
    do {
      let attributes = try FileManager.default.attributesOfItem(atPath: path)
      if let size = attributes[.size] as? Int, size > limits.bytes {
        throw ScenarioError(file: path, "the file is \(size) bytes; scenario files are at most \(limits.bytes)")
      }
      if (attributes[.type] as? FileAttributeType) == .typeDirectory {
        throw ScenarioError(file: path, "is a folder, not a scenario file")
      }
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch let e as ScenarioError {
      throw e
    } catch {
      let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read" : "does not exist"
      throw ScenarioError(file: path, reason)
    }
    return data
  }

  /// Reads text.
  ///
  /// - Parameter nullAsText: a platform's file (JSON's `null` read as the text `null`, as its
  ///   readers expect); otherwise YAML's null (`~`, `null` or nothing after a key's colon) is
  ///   refused by key, since esmsim has no value for "none given" but leaving the key out.
  public static func parse(_ data: Data, file: String, limits: Limits = Limits(), nullAsText: Bool = false)
    throws(ScenarioError) -> ScenarioValue
  {
    guard data.count <= limits.bytes else {
      throw ScenarioError(file: file, "the text is \(data.count) bytes; scenario files are at most \(limits.bytes)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ScenarioError(file: file, "is not UTF-8 text")
    }
    if text.contains("\u{0}") { throw ScenarioError(file: file, "contains a NUL byte; not a text file") }
    // Yams builds its tree recursively: refuse very deep nesting before it does.
    if let line = Self.tooDeep(text, limit: limits.depth) {
      throw ScenarioError(file: file, at: ScenarioValue.Location(line: line, column: 1), "nesting deeper than \(limits.depth) levels")
    }
    let node: Node?
    do {
      // The basic resolver: `convert` reads every scalar as its text, so the default resolver (its
      // regular expressions, 9 M instructions to compile once a process) is never needed.
      node = try Yams.compose(yaml: text, .basic)
    } catch let error as YamlError {
      var (location, message) = Self.describe(error)
      // A JSON file (a platform's protocol) is read as YAML, JSON's superset: its syntax said as JSON's.
      if file.lowercased().hasSuffix(".json"), message.hasPrefix("YAML syntax: ") {
        message = "JSON syntax (read as YAML): " + message.dropFirst("YAML syntax: ".count)
      }
      throw ScenarioError(file: file, at: location, message)
    } catch {
      throw ScenarioError(file: file, "\(error)")
    }
    guard let node else { throw ScenarioError(file: file, "is empty") }
    var budget = limits.nodes
    do {
      return try convert(node, file: file, depth: 0, limits: limits, budget: &budget, nullAsText: nullAsText)
    } catch where budget < 0 {
      // Over the count: say whether aliases multiplied the values or the file simply has that many.
      let aliases = text.range(of: #"(^|[\s,\[{:-])\*[^\s,\]}]"#, options: .regularExpression) != nil
      throw ScenarioError(
        file: file, at: error.location,
        aliases
          ? "more than \(limits.nodes) values once its aliases are expanded (are aliases expanding without end?)"
          : "more than \(limits.nodes) values (keys, entries and scalars); a scenario holds at most \(limits.nodes)")
    }
  }

  static func convert(_ node: Node, file: String, depth: Int, limits: Limits, budget: inout Int, nullAsText: Bool)
    throws(ScenarioError) -> ScenarioValue
  {
    budget -= 1
    let at = location(node)
    guard budget >= 0 else { throw ScenarioError(file: file, at: at, "more than \(limits.nodes) values") }
    guard depth <= limits.depth else {
      throw ScenarioError(file: file, at: at, "nesting deeper than \(limits.depth) levels")
    }
    switch node {
    case .scalar(let s):
      guard s.string.count <= limits.scalarLength else {
        throw ScenarioError(file: file, at: at, "a value of \(s.string.count) characters; at most \(limits.scalarLength)")
      }
      return .scalar(s.string, at)
    case .sequence(let seq):
      var items: [ScenarioValue] = []
      for (i, n) in seq.enumerated() {
        items.append(try child(n, "[\(i)]", at: location(n), file: file, depth: depth, limits: limits, budget: &budget, nullAsText: nullAsText))
      }
      return .sequence(items, at)
    case .mapping(let map):
      var pairs: [(key: String, value: ScenarioValue, at: ScenarioValue.Location?)] = []
      for (k, v) in map {
        let keyAt = k.mark.map { ScenarioValue.Location(line: $0.line, column: $0.column) }
        guard case .scalar(let key) = k else {
          throw ScenarioError(file: file, at: keyAt, "a key must be a plain word, not a list or mapping")
        }
        guard key.string.count <= limits.scalarLength else {
          throw ScenarioError(file: file, at: keyAt, "a key of \(key.string.count) characters; at most \(limits.scalarLength)")
        }
        // YAML's merge key: not read (it was an "unknown key" with no word of why).
        guard key.string != "<<" else {
          throw ScenarioError(
            file: file, at: keyAt,
            "a YAML merge key (<<) is not read: write the keys out (variants already share the scenario's keys)")
        }
        let value = try child(v, key.string, at: keyAt, file: file, depth: depth, limits: limits, budget: &budget, nullAsText: nullAsText)
        pairs.append((key.string, value, keyAt))
      }
      return .mapping(pairs, at)
    case .alias:
      throw ScenarioError(file: file, at: at, "an unresolved alias")
    }
  }

  /// A mapping's value or a list's entry, named `name` (a key, or `[i]`): YAML's null refused
  /// there, and an error about a key within it put under `name`.
  static func child(
    _ node: Node, _ name: String, at: ScenarioValue.Location?, file: String, depth: Int, limits: Limits, budget: inout Int,
    nullAsText: Bool
  ) throws(ScenarioError) -> ScenarioValue {
    if !nullAsText, let null = nullWord(node) { throw nullError(null, file: file, key: name, at: at) }
    do {
      return try convert(node, file: file, depth: depth + 1, limits: limits, budget: &budget, nullAsText: nullAsText)
    } catch where !error.key.isEmpty {
      throw error.under(name)
    }
  }

  static func location(_ node: Node) -> ScenarioValue.Location? {
    node.mark.map { ScenarioValue.Location(line: $0.line, column: $0.column) }
  }

  /// YAML's null written plainly (`~`, `null`, nothing after the colon; quoted, it is text),
  /// as written, or nil for any other value.
  static func nullWord(_ node: Node) -> String? {
    guard case .scalar(let s) = node, s.style == .plain, ["", "~", "null", "Null", "NULL"].contains(s.string) else {
      return nil
    }
    return s.string
  }

  static func nullError(_ word: String, file: String, key: String, at: ScenarioValue.Location?) -> ScenarioError {
    let written = word.isEmpty ? "nothing is written after the colon" : "'\(word)' is YAML's null"
    return ScenarioError(
      file: file, key: key, at: at,
      "no value (\(written)); give one, write {} for an empty section, or leave the key out for its default")
  }

  /// The first line at which brackets or indentation nest deeper than `limit`, if any.
  static func tooDeep(_ text: String, limit: Int) -> Int? {
    var depth = 0
    var line = 1
    var inQuote: Character?
    var atLineStart = true
    var indent = 0
    for c in text {
      if c == "\n" {
        line += 1
        atLineStart = true
        indent = 0
        inQuote = nil
        continue
      }
      if atLineStart {
        if c == " " || c == "-" {
          indent += 1
          // Two spaces (or "- ") per level in block style.
          if indent / 2 > limit * 2 { return line }
          continue
        }
        atLineStart = false
      }
      if let q = inQuote {
        if c == q { inQuote = nil }
        continue
      }
      switch c {
      case "\"", "'": inQuote = c
      case "[", "{":
        depth += 1
        if depth > limit { return line }
      case "]", "}": depth = max(depth - 1, 0)
      case "#": break
      default: break
      }
    }
    return nil
  }

  /// Yams' problem and where it is, as one line.
  static func describe(_ error: YamlError) -> (ScenarioValue.Location?, String) {
    func at(_ m: Mark) -> ScenarioValue.Location { ScenarioValue.Location(line: m.line, column: m.column) }
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      var message = problem
      if problem.contains("could not find expected ':'") && context?.text.contains("simple key") == true {
        message = "a key longer than 1024 characters, or a key without ':'"
      } else if let context {
        message = "\(problem) (\(context.text) at line \(context.mark.line))"
      }
      return (at(mark), "YAML syntax: " + message)
    case .duplicatedKeysInMapping(let duplicates, let context):
      return (at(context.mark), "duplicate key\(duplicates.count == 1 ? "" : "s") \(duplicates.map { "'\($0)'" }.joined(separator: ", ")) in one mapping")
    case .reader(let problem, let offset, _, _):
      return (nil, "cannot read the text: \(problem)\(offset.map { " at byte \($0)" } ?? "")")
    default:
      let text = "\(error)"
      return (nil, text.split(separator: "\n").first.map(String.init) ?? text)
    }
  }
}
