import Foundation

/// A parameter sweep (`sweep.yaml`): a base scenario, parameter points given as a grid or a
/// list of key-path values, and a number of replications.
///
/// Work units are (point, replication) pairs, numbered point by point:
/// unit = point × replications + replication. A unit's random numbers come from the
/// scenario's seed and the replication (never from the shard that runs it), so every point
/// sees the same simulated people (common random numbers) and results do not depend on how
/// units are split between machines.
///
/// ```yaml
/// name: Schedulers
/// scenario: quickstart.yaml        # relative to this file
/// replications: 10
/// set: {population.size: 100}      # applied to every point
/// grid:                            # every combination, the last key varying fastest
///   protocol.schedule.per_day: [2, 4, 6]
///   protocol.expiry: [15m, 60m, until_next]
/// # or: points: [{protocol.expiry: 15m}, {protocol.expiry: 60m}]
/// ```
public struct SweepSpec: Sendable {
  /// One parameter point: its values, in the order of ``parameters``, and the scenario.
  public struct Point: Sendable {
    /// The values, as text (`3`, `15m`, `{ideal: 0.5, heavy: 0.5}`).
    public var values: [String]
    /// The base scenario with the point's values, resolved.
    public var scenario: Scenario
  }

  /// A point as the sweep file gives it: each parameter's value and where it was written.
  struct Setting: Sendable {
    var key: String
    var value: ScenarioValue
    var at: ScenarioValue.Location?
  }

  /// The most points of a sweep, and the most work units (points × replications).
  public static let maxPoints = 100_000
  public static let maxUnits = 10_000_000

  /// The sweep file.
  public var file: String
  /// The sweep's name.
  public var name: String
  /// The key paths that vary, in order.
  public var parameters: [String]
  /// Each point's settings, in order; a point's scenario is resolved when it is asked for
  /// (``point(_:)``), so a shard resolves only the points it runs.
  let settings: [[Setting]]
  /// A grid's number of values of each parameter (nil: a list of points).
  let valueCounts: [Int]?
  /// The base scenario's tree (with the sweep's `set` and `seed`) and its file.
  let tree: ScenarioValue
  let base: String
  /// The base scenario file as the sweep file names it.
  let scenarioPath: String
  /// Replications of every point.
  public var replications: Int
  /// SHA-256 of everything that decides the results (the resolved base scenario, the
  /// parameters, every point's values and the replication count): unit results and merges
  /// must carry the same.
  public var hash: String

  /// Points in all.
  public var pointCount: Int { settings.count }
  /// Work units in all.
  public var unitCount: Int { settings.count * replications }

  /// The point and replication of a unit.
  public func unit(_ u: Int) -> (point: Int, replication: Int) { (u / replications, u % replications) }

  /// The contiguous block of units of shard `i` of `k`: `[i·N/k, (i+1)·N/k)`.
  public func units(shard i: Int, of k: Int) -> Range<Int> {
    // i·n/k in double width: a shard count from the command line can be any Int.
    let n = unitCount
    func bound(_ j: Int) -> Int { k.dividingFullWidth(j.multipliedFullWidth(by: n)).quotient }
    return bound(i)..<bound(i + 1)
  }

  /// Point `p`'s values, as text.
  public func values(_ p: Int) -> [String] { settings[p].map(\.value.flowText) }

  /// Point `p`, its scenario resolved; a bad key or value is located in the sweep file.
  public func point(_ p: Int) throws(ScenarioError) -> Point {
    let combo = settings[p]
    var t = tree
    for s in combo {
      t = try Self.overlay(t, key: s.key, value: s.value, sweepFile: file, sweepKey: "grid.\(s.key)", at: s.at)
      t = try Self.overlayingVariants(t, s, sweepFile: file)
    }
    let scenario: Scenario
    do {
      scenario = try ScenarioResolver.resolve(t, file: base)
    } catch {
      let values = combo.map { "\($0.key) = \($0.value.flowText)" }.joined(separator: ", ")
      // A value the sweep file set is located there (its key in the grid, its line), not in
      // the base scenario the error's file names.
      if let s = combo.first(where: { error.key == $0.key || error.key.hasPrefix($0.key + ".") || error.key.hasPrefix($0.key + "[") }) {
        throw ScenarioError(file: file, key: "grid.\(s.key)", at: error.location ?? s.at, "at the point \(values): \(error.key): \(error.message)")
      }
      throw ScenarioError(file: file, key: "", at: nil, "at the point \(values): \(error)")
    }
    // A key that resolves to nothing was never part of the study.
    for s in combo where scenario.resolved.value(atPath: s.key) == nil {
      throw ScenarioError(
        file: file, key: "grid.\(s.key)", at: s.at,
        "the scenario has no key \(s.key) (set to \(s.value.flowText)); `esmsim show \(scenarioPath)` lists its keys")
    }
    return Point(values: values(p), scenario: scenario)
  }

  /// The points that vary one parameter from the first point (a grid, whose parameters
  /// have `valueCounts` values, the last varying fastest: each value with the others at their
  /// first), or a list's first 100.
  func axisPoints() -> [Int] {
    guard let counts = valueCounts else { return Array(0..<min(settings.count, 100)) }
    var out: [Int] = [0]
    var stride = settings.count
    for n in counts {
      stride /= n
      for v in 1..<n { out.append(v * stride) }
    }
    return out
  }

  /// Reads and resolves a sweep file: its first point's scenario is resolved, so that a bad
  /// key or value of the base is reported before anything runs (``checkPoints()`` resolves
  /// every point).
  public static func load(path: String) throws(ScenarioError) -> SweepSpec {
    try read(ScenarioLoader.load(path: path), file: path)
  }

  /// Resolves every point in turn (keeping none), so that a bad value anywhere in the grid is
  /// reported; returns the participant-days of one replication of every point.
  public func checkPoints() throws(ScenarioError) -> Int {
    var days = 0
    for p in settings.indices {
      days += try point(p).scenario.variants.reduce(0) { $0 + $1.plan.participants * $1.plan.days }
    }
    return days
  }

  /// Reads a sweep file's tree; `path` names it in errors and locates the base scenario.
  public static func read(_ root: ScenarioValue, file path: String) throws(ScenarioError) -> SweepSpec {
    let r = try Reader(file: path, path: "", node: root)
    guard let (scenarioPath, at) = try r.scalar("scenario") else {
      throw r.error("scenario", nil, "name the base scenario file, for example scenario: quickstart.yaml")
    }
    let dir = (path as NSString).deletingLastPathComponent
    let base = scenarioPath.hasPrefix("/") || dir.isEmpty ? scenarioPath : (dir as NSString).appendingPathComponent(scenarioPath)
    guard FileManager.default.fileExists(atPath: base) else {
      throw r.error("scenario", at, "no such file: \(base)")
    }
    var tree = try ScenarioLoader.load(path: base)
    let replications = try r.integer("replications", default: 10, range: 1...100_000)
    if r.has("seed") {
      let seed = try r.integer("seed", default: 1, range: 0...Int(Int64.max))
      tree = tree.overlaid(with: .mapping([("seed", .scalar(String(seed), nil), nil)], nil))
    }
    // Fixed overrides for every point.
    if let set = r.raw("set") {
      guard case .mapping(let pairs, _) = set else { throw r.error("set", set.location, "expected a mapping of key paths to values") }
      for (key, value, kat) in pairs {
        tree = try overlay(tree, key: key, value: value, sweepFile: path, sweepKey: "set.\(key)", at: kat)
      }
      _ = r.raw("set")
    }
    // The points: a grid or a list.
    let (parameters, combos, valueCounts) = try points(r)
    // A parameter's value replaces what is below it: a key set, or varied before it, under it
    // would change nothing while the points are labelled with it.
    let setKeys: [String] = { if case .mapping(let pairs, _)? = root["set"] { return pairs.map(\.key) } else { return [] } }()
    let pointsKey = valueCounts == nil ? "points" : "grid"
    for (i, key) in parameters.enumerated() {
      if let parent = parameters[(i + 1)...].first(where: { key.hasPrefix($0 + ".") }) {
        throw r.error(
          "\(pointsKey).\(key)", root[pointsKey]?.location, "comes before \(parent), whose values replace it: list it after \(parent)")
      }
      if let inner = setKeys.first(where: { $0.hasPrefix(key + ".") }) {
        throw r.error("set.\(inner)", root["set"]?.location, "\(key) is varied and its values replace it: put it into \(key)'s values")
      }
    }
    guard combos.count * replications <= maxUnits else {
      throw r.error(
        "replications", nil,
        "\(combos.count) points × \(replications) replications is \(combos.count * replications) work units; a sweep has at most \(maxUnits)")
    }
    let name = try r.string("name", default: "", maxLength: 200)
    try r.finish()

    // The hash: the base tree, the first point resolved (every default, as this esmsim fills
    // them in) and every point's values.
    var spec = SweepSpec(
      file: path, name: name, parameters: parameters, settings: combos, valueCounts: valueCounts, tree: tree, base: base,
      scenarioPath: scenarioPath,
      replications: replications, hash: "")
    let first = try spec.point(0)
    if spec.name.isEmpty { spec.name = first.scenario.name }
    // Checked before anything runs, without resolving the whole grid: every value of each
    // parameter with the first values of the others (points of the grid: every combination
    // is one), or a list's first points. `checkPoints()` checks them all.
    // The files they import are hashed too, so that a shard run against an edited file of any
    // point (not only the first's) is refused.
    var imports = Set(first.scenario.imports.map { "import \($0.name) \($0.sha256)\n" })
    for p in spec.axisPoints() where p != 0 {
      imports.formUnion(try spec.point(p).scenario.imports.map { "import \($0.name) \($0.sha256)\n" })
    }
    var hashText = "esmsim sweep 2\nreplications \(replications)\nparameters \(parameters.joined(separator: " "))\n"
    hashText += "base\n\(tree.yaml())first point\n\(first.scenario.hashedText)"
    hashText += imports.subtracting(first.scenario.imports.map { "import \($0.name) \($0.sha256)\n" }).sorted().joined()
    for combo in combos { hashText += "point " + combo.map(\.value.flowText).joined(separator: "\u{1F}") + "\n" }
    spec.hash = SHA256.hex(Array(hashText.utf8))
    return spec
  }

  /// The sweep's points: every combination of a grid's values, or a list's points; their
  /// parameters (key paths) and, for a grid, how many values each has.
  static func points(_ r: Reader) throws(ScenarioError) -> (parameters: [String], combos: [[Setting]], valueCounts: [Int]?) {
    var parameters: [String] = []
    var combos: [[Setting]] = []
    var valueCounts: [Int]?
    switch (r.raw("grid"), r.raw("points")) {
    case (.some, .some):
      throw r.error("points", r.raw("points")?.location, "give either grid or points, not both")
    case (.some(let grid), nil):
      guard case .mapping(let pairs, _) = grid, !pairs.isEmpty else {
        throw r.error("grid", grid.location, "the grid is empty: give key paths with lists of values")
      }
      var count = 1
      for (key, value, kat) in pairs {
        guard case .sequence(let values, _) = value, !values.isEmpty else {
          throw r.error("grid.\(key)", kat, "expected a non-empty list of values")
        }
        count = count.multipliedReportingOverflow(by: values.count).overflow ? Int.max : count * values.count
        guard count <= maxPoints else {
          throw r.error("grid", grid.location, "the grid has more than \(maxPoints) points (every combination of its values); a sweep has at most \(maxPoints)")
        }
      }
      combos = [[]]
      valueCounts = []
      for (key, value, kat) in pairs {
        guard case .sequence(let values, _) = value else { continue }
        parameters.append(key)
        valueCounts!.append(values.count)
        combos = combos.flatMap { c in values.map { c + [Setting(key: key, value: $0, at: kat)] } }
      }
    case (nil, .some(let list)):
      guard case .sequence(let items, _) = list, !items.isEmpty else {
        throw r.error("points", list.location, "the list of points is empty")
      }
      guard items.count <= maxPoints else {
        throw r.error("points", list.location, "\(items.count) points; a sweep has at most \(maxPoints)")
      }
      for (i, item) in items.enumerated() {
        guard case .mapping(let pairs, let at) = item, !pairs.isEmpty else {
          throw r.error("points[\(i)]", item.location, "a point is a mapping of key paths to values")
        }
        if i == 0 { parameters = pairs.map(\.key) }
        guard pairs.map(\.key) == parameters else {
          throw r.error("points[\(i)]", at, "every point sets the same keys, in the same order (\(parameters.joined(separator: ", ")))")
        }
        combos.append(pairs.map { Setting(key: $0.key, value: $0.value, at: $0.at) })
      }
    case (nil, nil):
      throw r.error("grid", nil, "give a grid (key paths with lists of values) or a list of points")
    }
    return (parameters, combos, valueCounts)
  }

  /// The tree whose variants that set the point's key themselves (it, a key under it, or a
  /// mapping above it that a variant replaces whole, such as `protocol.schedule`) get the
  /// point's value over their own: every variant runs at every point.
  static func overlayingVariants(_ tree: ScenarioValue, _ s: Setting, sweepFile: String) throws(ScenarioError) -> ScenarioValue {
    guard case .mapping(var top, let at) = tree, let i = top.firstIndex(where: { $0.key == "variants" }),
      case .sequence(var list, let lat) = top[i].value
    else { return tree }
    let parts = s.key.split(separator: ".").map(String.init)
    func setsIt(_ variant: ScenarioValue) -> Bool {
      var node: ScenarioValue? = variant
      for (k, part) in parts.enumerated() {
        node = node?[part]
        guard let n = node else { return false }
        let path = parts[...k].joined(separator: ".")
        if k == parts.count - 1 || ScenarioResolver.replacedWhole.contains(path) { return true }
        if case .mapping = n { continue }
        return true
      }
      return false
    }
    for (v, variant) in list.enumerated() where setsIt(variant) {
      list[v] = try overlay(variant, key: s.key, value: s.value, sweepFile: sweepFile, sweepKey: "grid.\(s.key)", at: s.at)
    }
    top[i].value = .sequence(list, lat)
    return .mapping(top, at)
  }

  /// The tree with `value` at the key path `key` (dots separate keys): mappings on the way
  /// merge key by key, and a mapping value replaces whatever was at the key (so that
  /// `protocol.schedule: {algorithm: …}` or `population.devices: {…}` set the whole thing).
  static func overlay(
    _ tree: ScenarioValue, key: String, value: ScenarioValue, sweepFile: String, sweepKey: String, at: ScenarioValue.Location?
  ) throws(ScenarioError) -> ScenarioValue {
    let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty }) else {
      throw ScenarioError(file: sweepFile, key: sweepKey, at: at, "expected a key path such as protocol.schedule.per_day")
    }
    guard !["name", "variants", "outputs", "replications"].contains(parts[0]) else {
      throw ScenarioError(file: sweepFile, key: sweepKey, at: at, "a sweep varies the study (duration, population, protocol, seed, start_date), not \(parts[0])")
    }
    var overlay = value
    for p in parts.reversed() { overlay = .mapping([(p, overlay, at)], at) }
    return tree.overlaid(with: overlay, wholes: [key])
  }
}

extension ScenarioValue {
  /// The value at a dotted key path, if the tree has one.
  public func value(atPath path: String) -> ScenarioValue? {
    var node: ScenarioValue? = self
    for part in path.split(separator: ".") { node = node?[String(part)] }
    return node
  }

  /// One-line text of a value: scalars as they are, lists and mappings in YAML flow style.
  public var flowText: String {
    switch self {
    case .scalar(let s, _): return s
    case .sequence(let items, _): return "[" + items.map(\.flowText).joined(separator: ", ") + "]"
    case .mapping(let pairs, _): return "{" + pairs.map { "\($0.key): \($0.value.flowText)" }.joined(separator: ", ") + "}"
    }
  }
}
