import Foundation
import Schedules
import SimKernel
import StudyModel

/// Turns a scenario file into a ``Scenario``: applies defaults, validates every key with its
/// key path, rejects unknown keys, expands variants (overlays of the base) and reads imported
/// protocols. The schema is documented key by key in `docs/scenario-reference.md`.
public struct ScenarioResolver {
  let file: String
  var startDate: CalendarDate
  /// The files an import key may name when the scenario came with its files (`esmsim serve`);
  /// nil: they are read from disk.
  var uploads: [String: Data]?
  /// What the readers of imported protocols could not simulate (``ScenarioWarning``).
  var warnings: [ScenarioWarning] = []
  /// The names of `protocol.questionnaires`, in order, while they are read (a follow-up's
  /// `after` names them).
  var questionnaireNames: [String] = []
  /// The imported files read, by name as given, with the SHA-256 of their bytes
  /// (``Scenario/imports``).
  var imports: [String: String] = [:]

  /// Keys a variant may change: everything that describes the study, nothing about the run.
  static let variantKeys = ["duration", "population", "protocol"]
  /// Mappings a variant replaces whole rather than key by key: a schedule's keys depend on
  /// its algorithm, a channel's on its kind, and shares must sum to 1 on their own.
  public static let replacedWhole: Set<String> = [
    "protocol.schedule", "protocol.window", "protocol.channel", "protocol.survey", "population.devices", "population.os",
    "population.time_zones", "population.phones.ios_location", "population.phones.android_location",
    "population.phones.manufacturers",
  ]

  /// The protocol's forms exclude one another: a schedule (with its survey), questionnaires,
  /// or an imported file. A variant that gives one leaves out the scenario's others, so a
  /// variant may change the form (and `esmsim show`'s output, which writes the scenario's
  /// default schedule and survey, reads back with such variants).
  static func yieldingProtocolForm(of base: ScenarioValue, to overlay: ScenarioValue) -> ScenarioValue {
    let importKeys = ["aware_schedule", "esmira_study", "paco_experiment", "beiwe_study"]
    guard let own = overlay["protocol"], case .mapping(var pairs, let at) = base,
      let i = pairs.firstIndex(where: { $0.key == "protocol" }), case .mapping(var proto, let pat) = pairs[i].value
    else { return base }
    var dropped = Set(importKeys + ["aware_schedule_id"])
    if own["questionnaires"] != nil {
      dropped.formUnion(["schedule", "survey"])
    } else if importKeys.contains(where: { own[$0] != nil }) {
      // The file's schedules keep their own hours: the window is not used.
      dropped.formUnion(["schedule", "survey", "questionnaires", "window"])
    } else if own["schedule"] != nil {
      dropped.insert("questionnaires")
    } else {
      return base
    }
    proto.removeAll { dropped.contains($0.key) }
    pairs[i].value = .mapping(proto, pat)
    return .mapping(pairs, at)
  }

  /// Reads and resolves a scenario file.
  public static func resolve(path: String) throws(ScenarioError) -> Scenario {
    let root = try ScenarioLoader.load(path: path)
    return try resolve(root, file: path)
  }

  /// Resolves a scenario tree read from `file`; with `uploads`, the files its import keys
  /// name are those, by name, and nothing is read from disk.
  public static func resolve(_ root: ScenarioValue, file: String, uploads: [String: Data]? = nil) throws(ScenarioError)
    -> Scenario
  {
    if let base = root["scenario"], root["grid"] != nil || root["points"] != nil {
      // A sweep file (`scenario:` with `grid:` or `points:`) given where a scenario goes.
      throw ScenarioError(
        file: file, key: "scenario", at: base.location,
        "this is a sweep file (a base scenario with grid or points), not a scenario: esmsim sweep plan \(file) shows its points, esmsim sweep run \(file) --output DIR runs them")
    }
    let top = try Reader(file: file, path: "", node: root)
    let name = try top.string("name", maxLength: 200)
    guard !name.isEmpty else { throw top.error("name", root["name"]?.location, "must not be empty") }
    let description = try top.string("description", default: "", maxLength: 20_000)
    let seed = try top.integer("seed", default: 1, range: 0...Int(Int64.max))
    let replications = try top.integer("replications", default: 1, range: 1...100_000)
    let dateText = try top.string("start_date", default: CalendarDate.defaultStart.description)
    guard let startDate = CalendarDate(iso: dateText) else {
      throw top.error("start_date", root["start_date"]?.location, "expected a date YYYY-MM-DD, found '\(dateText)'")
    }
    var resolver = ScenarioResolver(file: file, startDate: startDate, uploads: uploads)

    // The base study, then each variant as an overlay of it.
    var base = root
    if case .mapping(let pairs, let at) = root {
      base = .mapping(pairs.filter { Self.variantKeys.contains($0.key) }, at)
    }
    let (basePlan, baseResolved) = try resolver.plan(base, context: "")
    for key in Self.variantKeys { _ = top.raw(key) }
    for (k, v, _) in baseResolved.pairs { top.record(k, v) }

    let variants = try variantPlans(top, base: base, basePlan: basePlan, resolver: &resolver)

    let o = try top.section("outputs")
    let outputs = try outputSettings(o, answers: variants.contains { $0.plan.answers.isOn })
    top.attach("outputs", o)
    try top.finish()
    resolver.startDate = startDate
    var order = ["name", "description", "seed", "replications", "start_date"] + Self.variantKeys + ["outputs", "variants"]
    order = order.filter { k in top.resolved.contains { $0.key == k } }
    let resolved = ScenarioValue.mapping(order.map { k in (k, top.resolved.first { $0.key == k }!.value, nil) }, nil)
    var scenario = Scenario(
      file: file, name: name, description: description, seed: UInt64(seed), replications: replications,
      startDate: startDate, variants: variants, outputs: outputs, resolved: resolved)
    scenario.imports = resolver.imports.keys.sorted().map { ($0, resolver.imports[$0]!) }
    let named = variants.count > 1 || variants.first?.name != "base"
    scenario.warnings =
      resolver.warnings
      + variants.flatMap { ScenarioWarning.check($0.plan, file: file, variant: named ? $0.name : nil) }
    scenario.warnings += ScenarioWarning.check(root, outputs: outputs, variants: variants, file: file)
    return scenario
  }

  /// Each variant's plan, the base overlaid with the keys it changes (one `base` variant when
  /// the scenario has none); the resolved variants recorded.
  static func variantPlans(
    _ top: Reader, base: ScenarioValue, basePlan: StudyPlan, resolver: inout ScenarioResolver
  ) throws(ScenarioError) -> [(name: String, plan: StudyPlan)] {
    var variants: [(name: String, plan: StudyPlan)] = []
    var resolvedVariants: [ScenarioValue] = []
    if let v = top.raw("variants") {
      guard case .sequence(let list, _) = v, !list.isEmpty else {
        throw top.error("variants", v.location, "expected a list of variants, each {name: …, and the keys it changes}")
      }
      guard list.count <= ScenarioLimits.variants else {
        throw top.error("variants", v.location, "\(list.count) variants; a scenario has at most \(ScenarioLimits.variants)")
      }
      for (i, item) in list.enumerated() {
        guard case .mapping(let pairs, let at) = item else {
          throw top.error("variants[\(i)]", item.location, "a variant is a mapping: {name: …, and the keys it changes}")
        }
        guard let nameEntry = pairs.first(where: { $0.key == "name" }), case .scalar(let vname, _) = nameEntry.value,
          !vname.isEmpty, vname.count <= 100
        else {
          throw top.error("variants[\(i)].name", at, "every variant needs a name (1 to 100 characters)")
        }
        if variants.contains(where: { $0.name == vname }) {
          throw top.error("variants[\(i)].name", nameEntry.value.location, "two variants are named '\(vname)'")
        }
        for (k, _, kat) in pairs where k != "name" && !Self.variantKeys.contains(k) {
          let known = ["name", "description", "seed", "replications", "start_date", "outputs", "variants"]
          throw top.error(
            "variants[\(i)].\(k)", kat,
            known.contains(k) ? "cannot differ between variants (set it once for the scenario)" : "unknown key; a variant may change \(Self.variantKeys.joined(separator: ", "))")
        }
        let overlay = ScenarioValue.mapping(pairs.filter { $0.key != "name" }, at)
        // A variant that names people (a preset) replaces the scenario's people whole.
        let people = overlay["population"]?["compliance"]?["preset"] != nil
        let wholes = people ? Self.replacedWhole.union([PeoplePresets.section]) : Self.replacedWhole
        let (plan, resolved) = try resolver.plan(
          Self.yieldingProtocolForm(of: base, to: overlay).overlaid(with: overlay, wholes: wholes), context: "in variant '\(vname)': ")
        variants.append((vname, plan))
        resolvedVariants.append(.mapping([("name", .scalar(vname, nil), nil)] + resolved.pairs, nil))
      }
      // answers.csv has one column a name: a name is one thing (predictor, variable or item) in
      // every variant that has it.
      var roles: [String: String] = [:]
      for (i, (vname, plan)) in variants.enumerated() {
        let a = plan.answers
        let named = a.predictors.map { ($0.name, "predictor") } + a.variables.map { ($0.name, "variable") } + a.items.map { ($0.name, "item") }
        for (name, role) in named {
          if let other = roles[name], other != role {
            throw top.error(
              "variants[\(i)]", list[i].location,
              "in variant '\(vname)': '\(name)' is a \(role), but a \(other) in another variant; answers.csv has one column a name, so give it another name")
          }
          roles[name] = role
        }
      }
      top.record("variants", .sequence(resolvedVariants, v.location))
    } else {
      variants = [("base", basePlan)]
    }
    return variants
  }

  /// The `outputs` section: which files a run writes.
  /// `answers`: the scenario declares variables (default on then; refused otherwise).
  static func outputSettings(_ o: Reader, answers: Bool = false) throws(ScenarioError) -> OutputSettings {
    var outputs = OutputSettings()
    outputs.prompts = try o.bool("prompts", default: outputs.prompts)
    if answers || o.has("answers") {
      outputs.answers = try o.bool("answers", default: answers)
      if outputs.answers && !answers {
        throw o.error("answers", o.raw("answers")?.location, "answers.csv needs population.variables (what the answers measure)")
      }
    }
    outputs.coverage = try o.bool("coverage", default: outputs.coverage)
    outputs.participants = try o.bool("participants", default: outputs.participants)
    outputs.days = try o.bool("days", default: outputs.days)
    outputs.awareESM = try o.bool("aware_esm", default: outputs.awareESM)
    outputs.esmira = try o.bool("esmira", default: outputs.esmira)
    outputs.esmiraMissed = try o.bool("esmira_missed", default: outputs.esmiraMissed)
    if outputs.esmiraMissed && !outputs.esmira {
      throw o.error("esmira_missed", o.raw("esmira_missed")?.location, "adds invitation_missed events to ESMira's export; it needs esmira: true")
    }
    outputs.mpath = try o.bool("mpath", default: outputs.mpath)
    outputs.beiwe = try o.bool("beiwe", default: outputs.beiwe)
    outputs.beiweSensors = try o.bool("beiwe_sensors", default: outputs.beiweSensors)
    outputs.sqlite = try o.bool("sqlite", default: outputs.sqlite)
    outputs.report = try o.bool("report", default: outputs.report)
    outputs.heatHours = try o.integer("heat_hours", default: outputs.heatHours, range: 0...(24 * 60))
    try o.finish()
    return outputs
  }

  /// Resolves the study keys (duration, population, protocol) of a tree.
  mutating func plan(_ given: ScenarioValue, context: String) throws(ScenarioError) -> (StudyPlan, ScenarioValue) {
    let top = try Reader(file: file, path: "", node: given, context: context)
    let populated = try Presets.expand(
      ProtocolPresets.expand(given, reader: top), section: "population", texts: PopulationPresets.text, reader: top)
    let tree = try PeoplePresets.expand(populated, reader: top)
    let r = try Reader(file: file, path: "", node: tree, context: context)
    let duration = try r.duration("duration", default: 14 * Tick.day, range: Tick.day...(3_650 * Tick.day))
    guard duration % Tick.day == 0 else {
      throw r.error("duration", tree["duration"]?.location, "a study lasts whole days (for example 14d)")
    }
    var plan = StudyPlan(
      days: Int(duration / Tick.day), startWeekday: startDate.weekday, participants: 1,
      protocolPlan: ProtocolPlan(schedules: []))
    let pop = try r.section("population")
    try population(pop, into: &plan)
    try answers(pop, into: &plan)
    try pop.finish()
    r.attach("population", pop)
    let proto = try r.section("protocol")
    try protocolSection(proto, into: &plan)
    try items(proto, into: &plan)
    warnItemsBeyondSurvey(proto, plan)
    warnCarelessWithoutScale(pop, plan.answers)
    try proto.finish()
    r.attach("protocol", proto)
    try r.finish()
    return (plan, r.resolvedValue)
  }
}

extension ScenarioValue {
  /// The entries of a mapping (empty otherwise).
  var pairs: [(key: String, value: ScenarioValue, at: Location?)] {
    if case .mapping(let p, _) = self { return p }
    return []
  }
}
