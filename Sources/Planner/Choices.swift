import Presentation
import Schedules
import Scenarios
import StudyModel

extension Planner {
  /// What the page's form offers, from esmsim's own lists (`GET /api/choices`): the
  /// schedulers, the gap rules, the device kinds, the platform presets and the people presets,
  /// each with its plain label; a preset with the form fields its protocol sets (the rest come from the
  /// preset when the scenario is run).
  public static func choices() -> JSONValue {
    func named(_ names: [(String, String)]) -> JSONValue {
      .array(names.map { .object([("name", .string($0.0)), ("label", .string($0.1))]) })
    }
    let presets: [JSONValue] = ScenarioPresets.protocolNames.map { name in
      .object([("name", .string(name)), ("label", .string(Labels.platform(name))), ("form", .object(presetForm(name)))])
    }
    return .object([
      ("algorithms", named(AnyScheduler.Name.allCases.map { ($0.rawValue, $0.label) })),
      ("gap_methods", named(GapMethod.allCases.map { ($0.rawValue, $0.label) })),
      ("devices", named(DeviceProfile.builtIn.map { ($0.name, Labels.device($0.name)) })),
      ("presets", .array(presets)),
      ("people", named(ScenarioPresets.peopleNames.map { ($0, ScenarioPresets.peopleLabel($0)) })),
      ("start", start),
    ])
  }

  /// The form's starting study: the quickstart's (`scenarios/quickstart.yaml`, held equal
  /// by a test), its second variant (fixed blocks an hour apart) as the protocol to compare;
  /// by the form's field names, a protocol's under its prefix (`a_`, `b_`).
  static var start: JSONValue {
    func protocolFields(_ algorithm: String) -> JSONValue {
      .object([
        ("algorithm", .string(algorithm)), ("per_day", .int(5)), ("min_gap", .int(60)), ("gap_method", .string("truncation")),
        ("times", .string("09:00, 13:00, 17:00, 21:00")), ("weekdays", .string("")), ("start", .string("08:00")),
        ("end", .string("22:00")), ("expiry", .int(30)), ("until_next", .bool(false)), ("rem_count", .int(0)),
        ("rem_interval", .int(10)),
      ])
    }
    return .object([
      ("participants", .int(200)), ("days", .int(14)), ("seed", .int(1)),
      ("answers_target", .int(ProtocolPlan.defaultAnswersTarget)), ("ios", .int(60)),
      ("devices", .object([("ideal", .number(0.25)), ("non_controlled", .number(0.45)), ("heavy", .number(0.15)), ("low_power", .number(0.15))])),
      ("sensor_location", .bool(true)), ("sensor_accelerometer", .bool(false)), ("sensor_battery", .bool(false)),
      ("a_", protocolFields("mappiness")), ("b_", protocolFields("fixed-blocks")),
    ])
  }

  /// The form fields a protocol preset sets: its schedule, window, weekdays and expiry.
  static func presetForm(_ name: String) -> [(String, JSONValue)] {
    guard let p = ScenarioPresets.protocolTree(name) else { return [] }
    var form: [(String, JSONValue)] = []
    func text(_ v: ScenarioValue?) -> String? { if case .scalar(let s, _)? = v { s } else { nil } }
    func minutes(_ v: ScenarioValue?) -> JSONValue? { text(v).flatMap { Int($0.dropLast()) }.map { .int($0) } }
    let schedule = p["schedule"]
    if let a = text(schedule?["algorithm"]) { form.append(("algorithm", .string(a))) }
    if let n = text(schedule?["per_day"]).flatMap(Int.init) { form.append(("per_day", .int(n))) }
    if let g = minutes(schedule?["min_gap"]) { form.append(("min_gap", g)) }
    if let m = text(schedule?["gap_method"]) { form.append(("gap_method", .string(m))) }
    if case .sequence(let days, _)? = schedule?["weekdays"] {
      form.append(("weekdays", .string(days.compactMap(text).joined(separator: ", "))))
    }
    if let w = text(p["window"]), let dash = w.firstIndex(of: "-") {
      form += [("start", .string(String(w[..<dash]))), ("end", .string(String(w[w.index(after: dash)...])))]
    }
    // `imported`: each imported schedule's own, which the form cannot show.
    if let e = text(p["expiry"]), e != "imported" {
      form.append(e == "until_next" ? ("until_next", .bool(true)) : ("expiry", minutes(p["expiry"]) ?? .null))
    }
    return form
  }
}
