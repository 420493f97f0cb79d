import Foundation
import StudyModel

/// One design of a study: how many take part, for how many days, with how many prompts a day.
public struct DesignPoint: Sendable, Hashable, Comparable, CustomStringConvertible {
  public var participants: Int
  public var days: Int
  public var perDay: Int

  public init(participants: Int, days: Int, perDay: Int) {
    self.participants = participants
    self.days = days
    self.perDay = perDay
  }

  /// Participant-days.
  public var participantDays: Int { participants * days }
  /// Prompts scheduled in all.
  public var prompts: Int { participants * days * perDay }

  public static func < (a: DesignPoint, b: DesignPoint) -> Bool {
    (a.participants, a.perDay, a.days) < (b.participants, b.perDay, b.days)
  }

  public var description: String { "\(participants) participants × \(days) days × \(perDay) a day" }
}

/// The designs `esmsim design` may try: a scenario (one of its variants) with its
/// participants (`population.size`), days (`duration`) and prompts a day
/// (`protocol.schedule.per_day`) set, everything else as the scenario says.
public struct DesignSpace: Sendable {
  /// The scenario file, for errors.
  public var file: String
  /// The variant designed (the scenario's only one is `base`).
  public var variant: String
  /// The scenario's own design.
  public var base: DesignPoint
  /// The scenario's seed: every design runs with it (participant i is the same person in every
  /// design: common random numbers).
  public var seed: UInt64
  /// Whether the variant's people are esmsim's default people (``BetweenStudies/defaultPeople(_:)``):
  /// the answered shares then carry the spread between real studies, which the design says.
  public var defaultPeople = false
  /// The variant's tree, alone (its overrides applied, no `variants`).
  let tree: ScenarioValue

  /// Reads `path` and picks `variant` (nil: the first).
  public static func load(path: String, variant: String?) throws(ScenarioError) -> DesignSpace {
    let root = try ScenarioLoader.load(path: path)
    let scenario = try ScenarioResolver.resolve(root, file: path)
    let names = scenario.variants.map(\.name)
    let chosen = variant ?? names[0]
    guard let index = names.firstIndex(of: chosen) else {
      throw ScenarioError(
        file: path, key: "variants", at: nil, "no variant named '\(chosen.prefix(100))'; the scenario's: \(names.joined(separator: ", "))")
    }
    // The variant alone: the base with the variant's keys over it, as the resolver does.
    var tree = root
    if case .mapping(let pairs, let at) = root, let list = root["variants"], case .sequence(let items, _) = list,
      case .mapping(let vpairs, let vat) = items[index]
    {
      let base = ScenarioValue.mapping(pairs.filter { $0.key != "variants" && $0.key != "replications" }, at)
      tree = base.overlaid(with: .mapping(vpairs.filter { $0.key != "name" }, vat), wholes: ScenarioResolver.replacedWhole)
    } else if case .mapping(let pairs, let at) = root {
      tree = .mapping(pairs.filter { $0.key != "replications" }, at)
    }
    let plan = scenario.variants[index].plan
    guard tree.value(atPath: "protocol.questionnaires") == nil, plan.protocolPlan.schedules.count == 1 else {
      throw ScenarioError(
        file: path, key: "protocol.questionnaires", at: nil,
        "a design varies one schedule's prompts a day (protocol.schedule.per_day); this variant has \(plan.protocolPlan.schedules.count) schedules")
    }
    // Prompts a day as the resolved scenario has them (defaults filled in).
    var resolved = scenario.resolved
    if case .sequence(let items, _)? = resolved["variants"], index < items.count { resolved = items[index] }
    guard case .scalar(let text, _)? = resolved.value(atPath: "protocol.schedule.per_day"), let value = Double(text),
      value >= 1, value == value.rounded()
    else {
      throw ScenarioError(
        file: path, key: "protocol.schedule.per_day", at: nil,
        "a design varies the schedule's prompts a day: this variant's schedule has no whole per_day (fixed times or events)")
    }
    let perDay = Int(value)
    return DesignSpace(
      file: path, variant: chosen, base: DesignPoint(participants: plan.participants, days: plan.days, perDay: perDay),
      seed: scenario.seed, defaultPeople: BetweenStudies.defaultPeople(plan), tree: tree)
  }

  /// The variant's plan at `point`; a value the scenario refuses (prompts a day its window
  /// cannot hold) is refused naming the design.
  public func plan(_ point: DesignPoint) throws(ScenarioError) -> StudyPlan {
    var t = tree
    let settings: [(String, String)] = [
      ("population.size", String(point.participants)), ("duration", "\(point.days)d"),
      ("protocol.schedule.per_day", String(point.perDay)),
    ]
    for (key, value) in settings {
      t = try SweepSpec.overlay(t, key: key, value: .scalar(value, nil), sweepFile: file, sweepKey: key, at: nil)
    }
    do {
      return try ScenarioResolver.resolve(t, file: file).variants[0].plan
    } catch {
      var e = error
      e.message = "at the design \(point): \(e.message)"
      throw e
    }
  }
}
