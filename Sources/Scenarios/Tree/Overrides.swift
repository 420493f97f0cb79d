import Foundation

/// Settings given on the command line that override a scenario's own, applied to its tree
/// before it is resolved (so that every check and default applies to them as to the file).
public struct ScenarioOverrides: Sendable {
  public var replications: Int?
  public var seed: UInt64?
  /// Participants per variant, variants that set their own size included.
  public var participants: Int?
  public var duration: String?
  /// An AWARE schedule file (absolute path) that replaces the scenario's schedule.
  public var awareSchedule: String?

  public init(
    replications: Int? = nil, seed: UInt64? = nil, participants: Int? = nil, duration: String? = nil,
    awareSchedule: String? = nil
  ) {
    self.replications = replications
    self.seed = seed
    self.participants = participants
    self.duration = duration
    self.awareSchedule = awareSchedule
  }

  /// `tree` with each variant that `sets` the key overlaid with `pairs` (an override reaches a
  /// variant's own value of it too).
  static func overlayingVariants(
    of tree: ScenarioValue, setting sets: (ScenarioValue) -> Bool,
    with pairs: [(key: String, value: ScenarioValue, at: ScenarioValue.Location?)]
  ) -> ScenarioValue {
    guard case .mapping(var top, let at) = tree, let i = top.firstIndex(where: { $0.key == "variants" }),
      case .sequence(let list, let lat) = top[i].value
    else { return tree }
    let overlay: ScenarioValue = .mapping(pairs, nil)
    top[i].value = .sequence(list.map { sets($0) ? $0.overlaid(with: overlay) : $0 }, lat)
    return .mapping(top, at)
  }

  /// `tree` with these overrides laid over it.
  public func applied(to tree: ScenarioValue) -> ScenarioValue {
    var tree = tree
    var overlay: [(key: String, value: ScenarioValue, at: ScenarioValue.Location?)] = []
    // Located as given on the command line, so that an error names the option, not the file.
    let here = ScenarioValue.Location.commandLine
    if let r = replications { overlay.append(("replications", .scalar(String(r), here), here)) }
    if let s = seed { overlay.append(("seed", .scalar(String(s), here), here)) }
    if let d = duration {
      overlay.append(("duration", .scalar(d, here), here))
      // Variants that set their own duration get it too.
      tree = Self.overlayingVariants(of: tree, setting: { $0["duration"] != nil }, with: [("duration", .scalar(d, here), here)])
    }
    if let n = participants {
      let population: ScenarioValue = .mapping([("size", .scalar(String(n), here), here)], nil)
      overlay.append(("population", population, nil))
      // Variants that set their own size get it too.
      tree = Self.overlayingVariants(of: tree, setting: { $0["population"]?["size"] != nil }, with: [("population", population, nil)])
    }
    if let a = awareSchedule {
      // The schedule replaces the scenario's own.
      if case .mapping(var pairs, let at) = tree, let i = pairs.firstIndex(where: { $0.key == "protocol" }),
        case .mapping(var proto, let pat) = pairs[i].value
      {
        proto.removeAll { $0.key == "schedule" }
        pairs[i].value = .mapping(proto, pat)
        tree = .mapping(pairs, at)
      }
      // Located on the command line: read from the working directory, not the scenario's
      // folder, and named as typed (the scenario's hash does not depend on where it runs).
      overlay.append(("protocol", .mapping([("aware_schedule", .scalar(a, here), here)], nil), nil))
    }
    return overlay.isEmpty ? tree : tree.overlaid(with: .mapping(overlay, nil))
  }
}
