import Schedules
import SimKernel

/// Reads typed values out of one mapping of a scenario tree, key by key: fills defaults,
/// checks types and ranges, records the resolved value of every key (what `esmsim show`
/// prints), and refuses keys it was not asked for, naming them with their key path.
final class Reader {
  let file: String
  let path: String
  let context: String
  let pairs: [(key: String, value: ScenarioValue, at: ScenarioValue.Location?)]
  let at: ScenarioValue.Location?
  private(set) var known: [String] = []
  private(set) var resolved: [(key: String, value: ScenarioValue, at: ScenarioValue.Location?)] = []

  /// A reader of `node` (a mapping, or nil for an absent section) at key path `path`.
  /// `context` prefixes messages (for example the variant's name).
  init(file: String, path: String, node: ScenarioValue?, context: String = "") throws(ScenarioError) {
    self.file = file
    self.path = path
    self.context = context
    switch node {
    case nil:
      pairs = []
      at = nil
    case .mapping(let p, let l)?:
      pairs = p
      at = l
    case let other?:
      throw ScenarioError(file: file, key: path, at: other.location, context + "expected a mapping of keys, found \(other.kind)")
    }
  }

  func keyPath(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

  /// An error at `key`: at `at`, else where the file gives the key's value, else at this
  /// mapping (a key the file lacks).
  func error(_ key: String, _ at: ScenarioValue.Location?, _ message: String) -> ScenarioError {
    ScenarioError(file: file, key: keyPath(key), at: at ?? pairs.first { $0.key == key }?.value.location ?? self.at, context + message)
  }

  /// The raw value of `key`, marking the key as known.
  func raw(_ key: String) -> ScenarioValue? {
    known.append(key)
    return pairs.first { $0.key == key }?.value
  }

  /// Whether the file sets `key` (does not mark it known).
  func has(_ key: String) -> Bool { pairs.contains { $0.key == key } }

  func record(_ key: String, _ value: ScenarioValue) {
    resolved.removeAll { $0.key == key }
    resolved.append((key, value, nil))
  }

  /// A scalar's text.
  func scalar(_ key: String) throws(ScenarioError) -> (String, ScenarioValue.Location?)? {
    guard let v = raw(key) else { return nil }
    guard case .scalar(let s, let l) = v else {
      throw error(key, v.location, "expected a single value, found \(v.kind)")
    }
    return (s, l)
  }

  // MARK: Values

  func string(_ key: String, default d: String? = nil, maxLength: Int = 10_000) throws(ScenarioError) -> String {
    guard let (s, l) = try scalar(key) else {
      guard let d else { throw error(key, nil, "is required") }
      record(key, .scalar(d, nil))
      return d
    }
    guard s.count <= maxLength else { throw error(key, l, "at most \(maxLength) characters") }
    record(key, .scalar(s, l))
    return s
  }

  func number(_ key: String, default d: Double, range: ClosedRange<Double>) throws(ScenarioError) -> Double {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(Units.format(d), nil))
      return d
    }
    guard let x = Units.number(s) else { throw error(key, l, "expected a number, found '\(s)'") }
    guard range.contains(x) else {
      throw error(key, l, "must be between \(Units.format(range.lowerBound)) and \(Units.format(range.upperBound)), not \(s)")
    }
    record(key, .scalar(Units.format(x), l))
    return x
  }

  func integer(_ key: String, default d: Int, range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(String(d), nil))
      return d
    }
    // Digits are read exactly (a seed up to 2^63 - 1); other forms (1e3) as numbers, which
    // are exact below 10^15.
    let x: Int
    if let exact = Int(s.trimmingCharacters(in: .whitespaces)) {
      x = exact
    } else {
      guard let d = Units.number(s), d == d.rounded(), abs(d) < 1e15 else {
        // Digits too many for a whole number of 64 bits: said as the range's bound.
        let digits = s.trimmingCharacters(in: .whitespaces).drop { $0 == "-" || $0 == "+" }
        if !digits.isEmpty && digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
          throw error(key, l, "must be between \(range.lowerBound) and \(range.upperBound), not \(s.prefix(40))")
        }
        throw error(key, l, "expected a whole number, found '\(s)'")
      }
      x = Int(d)
    }
    guard range.contains(x) else {
      throw error(key, l, "must be between \(range.lowerBound) and \(range.upperBound), not \(s)")
    }
    record(key, .scalar(String(x), l))
    return x
  }

  func share(_ key: String, default d: Double) throws(ScenarioError) -> Double {
    try number(key, default: d, range: 0...1)
  }

  func bool(_ key: String, default d: Bool) throws(ScenarioError) -> Bool {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(d ? "true" : "false", nil))
      return d
    }
    switch s.lowercased() {
    case "true", "yes", "on": record(key, .scalar("true", l)); return true
    case "false", "no", "off": record(key, .scalar("false", l)); return false
    default: throw error(key, l, "expected true or false, found '\(s)'")
    }
  }

  /// A duration with its unit (`500ms`, `30s`, `10m`, `3h`, `28d`), in milliseconds.
  func duration(_ key: String, default d: SimTime, range: ClosedRange<SimTime> = 0...(3_650 * Tick.day)) throws(ScenarioError)
    -> SimTime
  {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(Units.formatDuration(d), nil))
      return d
    }
    guard let t = Units.duration(s) else {
      throw error(key, l, "expected a duration with a unit (500ms, 30s, 10m, 3h, 28d), found '\(s)'")
    }
    guard range.contains(t) else {
      throw error(key, l, "must be between \(Units.formatDuration(range.lowerBound)) and \(Units.formatDuration(range.upperBound)), not \(s)")
    }
    record(key, .scalar(Units.formatDuration(t), l))
    return t
  }

  func clock(_ key: String, default d: ClockTime) throws(ScenarioError) -> ClockTime {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(d.description, nil))
      return d
    }
    guard let c = ClockTime(s) else { throw error(key, l, "expected a clock time HH:MM, found '\(s)'") }
    record(key, .scalar(c.description, l))
    return c
  }

  func choice<T: CaseIterable & RawRepresentable>(_ key: String, default d: T) throws(ScenarioError) -> T
  where T.RawValue == String {
    guard let (s, l) = try scalar(key) else {
      record(key, .scalar(d.rawValue, nil))
      return d
    }
    guard let v = T(rawValue: s) else {
      throw error(key, l, "expected one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), found '\(s)'")
    }
    record(key, .scalar(s, l))
    return v
  }

  /// A mapping of names to shares that sum to 1; names must be among `names`, and come back
  /// in their order.
  func shares(_ key: String, names: [String], default d: [(String, Double)]) throws(ScenarioError) -> [(String, Double)] {
    try shares(key, default: d, example: names[0], accepts: names.contains, rank: { names.firstIndex(of: $0)! }) {
      "unknown name; expected one of \(names.joined(separator: ", "))"
    }
  }

  /// A mapping of names to shares that sum to 1; `accepts` says which names are valid,
  /// `unknown` what to say of another. With a `rank`, the shares come back (and are recorded)
  /// in its order, whatever the file's: participants are drawn over them in that order, so a
  /// file that lists them otherwise, or a variant that repeats them in another order, draws
  /// the same people; without one, in the file's order.
  func shares(
    _ key: String, default d: [(String, Double)], example: String, accepts: (String) -> Bool,
    rank: ((String) -> Int)? = nil, unknown: () -> String
  ) throws(ScenarioError) -> [(String, Double)] {
    guard let v = raw(key) else {
      record(key, .mapping(d.map { ($0.0, .scalar(Units.format($0.1), nil), nil) }, nil))
      return d
    }
    guard case .mapping(let pairs, let l) = v, !pairs.isEmpty else {
      throw error(key, v.location, "expected shares by name, for example {\(example): 1}")
    }
    var out: [(String, Double)] = []
    for (name, value, at) in pairs {
      guard accepts(name) else {
        throw ScenarioError(file: file, key: keyPath(key) + "." + name, at: at, context + unknown())
      }
      guard case .scalar(let s, _) = value, let x = Units.number(s), x >= 0, x <= 1 else {
        throw ScenarioError(
          file: file, key: keyPath(key) + "." + name, at: value.location ?? at, context + "expected a share between 0 and 1")
      }
      out.append((name, x))
    }
    if let rank { out.sort { rank($0.0) < rank($1.0) } }
    let total = out.reduce(0) { $0 + $1.1 }
    guard abs(total - 1) < 1e-9 else {
      throw error(key, l, "shares must sum to 1, they sum to \(Units.format(total))")
    }
    record(key, .mapping(out.map { ($0.0, .scalar(Units.format($0.1), nil), nil) }, l))
    return out
  }

  /// A list of scalars; a single value is a list of one.
  func list(_ key: String) throws(ScenarioError) -> [(String, ScenarioValue.Location?)]? {
    guard let v = raw(key) else { return nil }
    if case .scalar(let s, let l) = v {
      // A single value is a list of one (R's JSON writes c("sat") as "sat"; `times: 09:00`).
      record(key, .sequence([v], l))
      return [(s, l)]
    }
    guard case .sequence(let items, _) = v else { throw error(key, v.location, "expected a list, found \(v.kind)") }
    var out: [(String, ScenarioValue.Location?)] = []
    for item in items {
      guard case .scalar(let s, let l) = item else { throw error(key, item.location, "expected a list of single values") }
      out.append((s, l))
    }
    record(key, .sequence(items, v.location))
    return out
  }

  /// A child section.
  func section(_ key: String) throws(ScenarioError) -> Reader {
    try Reader(file: file, path: keyPath(key), node: raw(key), context: context)
  }

  /// Attaches a finished child's resolved values under `key`.
  func attach(_ key: String, _ child: Reader) {
    record(key, child.resolvedValue)
  }

  /// The resolved mapping.
  var resolvedValue: ScenarioValue { .mapping(resolved, at) }

  /// Refuses any key that was not read, naming the closest known key.
  func finish() throws(ScenarioError) {
    for (key, _, at) in pairs where !known.contains(key) {
      let hint = Units.closest(key, in: known).map { " (did you mean \($0)?)" } ?? ""
      throw ScenarioError(file: file, key: keyPath(key), at: at, context + "unknown key" + hint)
    }
  }
}
