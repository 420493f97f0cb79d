import Foundation
import Schedules
import SimKernel
import StudyModel

/// Reads an AWARE iOS ESM schedule file (`awareframework/com.awareframework.ios.sensor.esm`
/// README, "Schedule JSON"): an array of schedules with `schedule_id`, `hours` (fire at
/// HH:00), `randomize` (± whole minutes, redrawn per pre-scheduled day), `expiration`
/// (minutes; 0: no expiry), `start_date` and `end_date` (MM-dd-yyyy), optional `weekdays`
/// (names), `notification_title`, and `esms[].esm` items of types 1–16.
///
/// The schedule becomes `fixed-times` at the hours with the jitter, active on the study days
/// inside the date range, delivered through AWARE's iOS planner (56 pending), in a window from
/// the earliest hour − jitter to the latest hour + jitter (past midnight where it reaches it;
/// a jitter reaching before the first hour's midnight is refused by name).
enum AWAREScheduleImport {
  /// The weekday names the plugin's `ESMSchedule.allowedWeekdays` matches, exactly (Monday = 0).
  static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  /// The fields the plugin's schedule model requires: without one, its decoder refuses the file.
  static let requiredFields = [
    "schedule_id", "start_date", "end_date", "expiration", "randomize", "notification_title", "notification_body", "esms",
  ]

  static func load(data: Data, file path: String, startDate: CalendarDate, days: Int, pick: Int? = nil) throws(ScenarioError)
    -> ImportedProtocol
  {
    let root = try ScenarioLoader.parse(data, file: path, nullAsText: true)
    try checkTypes(data, file: path)
    return try read(root, file: path, startDate: startDate, days: days, pick: pick)
  }

  /// The fields the plugin's `Codable` schedule model decodes as numbers, and the item fields.
  static let numericFields = ["randomize", "expiration", "interface"]
  static let numericItemFields = [
    "esm_type", "esm_likert_max", "esm_likert_step", "esm_scale_min", "esm_scale_max", "esm_scale_start",
    "esm_scale_step", "esm_expiration_threshold", "esm_na", "esm_camera",
  ]
  /// The fields of the plugin's item model (`ESMItem`); it ignores any other.
  static let itemFields = [
    "esm_type", "esm_title", "esm_instructions", "esm_submit", "esm_back", "esm_trigger", "esm_expiration_threshold",
    "esm_na", "esm_radios", "esm_checkboxes", "esm_likert_max", "esm_likert_max_label", "esm_likert_min_label",
    "esm_likert_step", "esm_quick_answers", "esm_scale_max", "esm_scale_min", "esm_scale_start", "esm_scale_max_label",
    "esm_scale_min_label", "esm_scale_step", "esm_url", "esm_camera",
  ]

  /// Refuses what the plugin's model would not decode: a string where it wants a number
  /// (`"hours": ["9", "17"]`). The JSON is read as JSON here, where numbers and strings differ.
  static func checkTypes(_ data: Data, file path: String) throws(ScenarioError) {
    guard let schedules = try? JSONSerialization.jsonObject(with: data) as? [Any] else { return }
    func isNumber(_ v: Any) -> Bool { !(v is String) && (v as? NSNumber) != nil }
    func refuse(_ key: String, _ v: Any) -> ScenarioError {
      ScenarioError(file: path, key: key, at: nil, "the AWARE plugin reads this as a number; found \(v is String ? "the text \"\(v)\"" : "\(v)")")
    }
    for (i, item) in schedules.enumerated() {
      guard let s = item as? [String: Any] else { continue }
      if let hours = s["hours"] as? [Any] {
        for h in hours where !isNumber(h) { throw refuse("[\(i)].hours", h) }
      }
      for k in numericFields { if let v = s[k], !isNumber(v) { throw refuse("[\(i)].\(k)", v) } }
      for (j, wrapper) in ((s["esms"] as? [Any]) ?? []).enumerated() {
        guard let esm = (wrapper as? [String: Any])?["esm"] as? [String: Any] else { continue }
        for k in numericItemFields { if let v = esm[k], !isNumber(v) { throw refuse("[\(i)].esms[\(j)].esm.\(k)", v) } }
      }
    }
  }

  /// Reads a schedule file's tree (`file` names it in errors): every schedule, as the plugin's
  /// `activateSchedules` activates every one in the array, or only schedule `pick`. Each keeps
  /// its own expiration and items (its prompts open its questionnaire, `schedule_id` its id).
  static func read(_ root: ScenarioValue, file path: String, startDate: CalendarDate, days: Int, pick: Int? = nil)
    throws(ScenarioError) -> ImportedProtocol
  {
    guard case .sequence(let schedules, let rootAt) = root, !schedules.isEmpty else {
      throw ScenarioError(file: path, key: "", at: root.location, "an AWARE schedule file is a list of schedules")
    }
    if let pick, pick >= schedules.count {
      throw ScenarioError(file: path, key: "", at: rootAt, "has no schedule number \(pick)")
    }
    if pick == nil && schedules.count > ScenarioLimits.schedules {
      throw ScenarioError(
        file: path, key: "", at: rootAt,
        "holds \(schedules.count) schedules; esmsim simulates at most \(ScenarioLimits.schedules) in one protocol (aware_schedule_id picks one)")
    }
    var parts: [SchedulePart] = []
    var warnings: [ScenarioWarning] = []
    let ids = scheduleIDs(schedules)
    for k in pick.map({ [$0] }) ?? Array(schedules.indices) {
      let one = try readOne(root, file: path, startDate: startDate, days: days, pick: k, ids: ids)
      var part = one.parts[0]
      part.expiry = one.expiry
      part.survey = one.survey
      parts.append(part)
      warnings += one.warnings
    }
    let first = parts[0]
    return ImportedProtocol(
      parts: parts, survey: first.survey!, channelPreset: "aware_ios", expiry: first.expiry!, reminders: Reminders(),
      alternatives: ids, warnings: warnings)
  }

  /// Each schedule's `schedule_id`, or `#i` where it has none.
  static func scheduleIDs(_ schedules: [ScenarioValue]) -> [String] {
    schedules.enumerated().map { i, s in
      if case .scalar(let id, _)? = s["schedule_id"] { return id }
      return "#\(i)"
    }
  }

  /// Reads schedule `pick` of a schedule file's tree (`ids`: every schedule's id).
  static func readOne(
    _ root: ScenarioValue, file path: String, startDate: CalendarDate, days: Int, pick: Int, ids: [String]
  ) throws(ScenarioError) -> ImportedProtocol {
    guard case .sequence(let schedules, let rootAt) = root, !schedules.isEmpty else {
      throw ScenarioError(file: path, key: "", at: root.location, "an AWARE schedule file is a list of schedules")
    }
    guard pick < schedules.count else { throw ScenarioError(file: path, key: "", at: rootAt, "has no schedule number \(pick)") }
    let f = try AWAREScheduleFields(schedules[pick], base: "[\(pick)]", file: path)
    var (hours, hoursAt) = try f.hours()
    let randomize = try f.int("randomize", default: 0, range: 0...720)
    // An hour given twice fires once without randomize: the plugin's notification id is the
    // schedule's id and the fire time, so the second replaces the first.
    var fireWarnings: [ScenarioWarning] = []
    if randomize == 0 && Set(hours).count < hours.count {
      hours = Array(Set(hours)).sorted()
      fireWarnings.append(
        ScenarioWarning(
          file: path, key: "\(f.base).hours",
          message: "an hour given twice fires once (the plugin's second notification at the same time replaces the first)"))
    }
    let expiration = try f.int("expiration", default: 0, range: 0...(60 * 24 * 30))
    let active = try f.activeDays(startDate: startDate, days: days)
    let (weekdays, weekdayWarnings) = try f.weekdays()
    var warnings = fireWarnings + weekdayWarnings + f.missingRequired()
    if active == nil {
      warnings.append(
        ScenarioWarning(
          file: path, key: "\(f.base).start_date",
          message: "signals on none of the study's \(days) days (from \(startDate)): its start_date–end_date lies outside them; set the study's start_date inside its dates"))
    }
    // The window: from the first hour − jitter to the last hour + jitter (and a minute), past
    // midnight where the last hour's jitter reaches it (the plugin fires across midnight).
    let startMinute = hours.first! * 60 - randomize
    guard startMinute >= 0 else {
      throw f.fail(
        "randomize", f.s["randomize"]?.location,
        "hour \(hours.first!) ± \(randomize) minutes fires before midnight, on the day before its own: not simulated (esmsim keeps a day's signals after its midnight); give a later first hour or a smaller randomize")
    }
    let length = (hours.last! - hours.first!) * 60 + 2 * randomize + 1
    guard length <= 24 * 60, let window = try? Window(start: ClockTime(minutes: Double(startMinute)), length: Double(length)) else {
      throw f.fail("hours", hoursAt, "the hours and randomize do not fit in one day")
    }
    let choice = ScheduleChoice(
      .fixedTimes, ScheduleParameters(times: hours.map { ClockTime(minutes: Double($0 * 60)) }, jitter: randomize))
    do {
      _ = try AnyScheduler(.fixedTimes, choice.parameters, window: window)
    } catch {
      throw f.fail("randomize", f.s["randomize"]?.location, error.message)
    }
    var part = SchedulePart(choice, window: .fixed(weekday: window, weekend: window), weekdays: weekdays, days: active)
    if active == nil { part.weekdays = [] }  // outside the study: no signal on any day
    var (items, itemWarnings) = try f.items(id: ids[pick])
    itemWarnings = warnings + itemWarnings
    if items.isEmpty { items = SurveyPlan().items }
    var title = ""
    if let (t, _) = try f.scalar("notification_title") { title = t }
    return ImportedProtocol(
      parts: [part], survey: SurveyPlan(id: ids[pick], title: title, items: items), channelPreset: "aware_ios",
      expiry: expiration == 0 ? .never : .after(SimTime(expiration) * Tick.minute), reminders: Reminders(),
      alternatives: ids, warnings: itemWarnings)
  }
}

/// One schedule of an AWARE schedule file, its fields read with errors naming them.
private struct AWAREScheduleFields {
  let s: ScenarioValue
  let base: String
  let path: String
  let at: ScenarioValue.Location?

  init(_ s: ScenarioValue, base: String, file path: String) throws(ScenarioError) {
    (self.s, self.base, self.path) = (s, base, path)
    guard case .mapping(let fields, let at) = s else {
      throw ScenarioError(file: path, key: base, at: s.location, "a schedule is a mapping of fields")
    }
    self.at = at
    let known = [
      "schedule_id", "hours", "randomize", "expiration", "start_date", "end_date", "weekdays", "notification_title",
      "notification_body", "interface", "esms",
    ]
    for f in fields where !known.contains(f.key) {
      throw ScenarioError(file: path, key: "\(base).\(f.key)", at: f.at, "unknown field of an AWARE schedule")
    }
  }

  func fail(_ k: String, _ at: ScenarioValue.Location?, _ message: String) -> ScenarioError {
    ScenarioError(file: path, key: "\(base).\(k)", at: at, message)
  }

  func scalar(_ k: String) throws(ScenarioError) -> (String, ScenarioValue.Location?)? {
    guard let v = s[k] else { return nil }
    guard case .scalar(let text, let l) = v else { throw fail(k, v.location, "expected a single value") }
    return (text, l)
  }

  func int(_ k: String, default d: Int, range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    guard let (text, l) = try scalar(k) else { return d }
    guard let x = Units.number(text), x == x.rounded(), abs(x) < 1e15, range.contains(Int(x)) else {
      throw fail(k, l, "expected a whole number in \(range.lowerBound)…\(range.upperBound), found '\(text)'")
    }
    return Int(x)
  }

  /// The hours, in order, and where they are.
  func hours() throws(ScenarioError) -> ([Int], ScenarioValue.Location?) {
    guard case .sequence(let hourValues, let hoursAt)? = s["hours"], !hourValues.isEmpty else {
      throw fail("hours", at, "a schedule needs hours, for example [9, 17]")
    }
    var hours: [Int] = []
    for h in hourValues {
      guard case .scalar(let text, _) = h, let x = Units.number(text), x == x.rounded(), (0...23).contains(x) else {
        throw fail("hours", h.location ?? hoursAt, "hours are whole numbers from 0 to 23")
      }
      hours.append(Int(x))
    }
    return (hours.sorted(), hoursAt)
  }

  func date(_ k: String) throws(ScenarioError) -> CalendarDate? {
    guard let (text, l) = try scalar(k) else { return nil }
    guard let d = CalendarDate(aware: text) else { throw fail(k, l, "expected a date MM-dd-yyyy, found '\(text)'") }
    return d
  }

  /// The study days between `start_date` and `end_date` (nil: none of the study's).
  func activeDays(startDate: CalendarDate, days: Int) throws(ScenarioError) -> ClosedRange<Int>? {
    let start = try date("start_date")
    let end = try date("end_date")
    if let start, let end, end.daysSinceEpoch < start.daysSinceEpoch {
      throw fail("end_date", s["end_date"]?.location, "the end date is before the start date")
    }
    let first = start.map { $0.daysSinceEpoch - startDate.daysSinceEpoch } ?? 0
    let last = end.map { $0.daysSinceEpoch - startDate.daysSinceEpoch } ?? days - 1
    let range = max(first, 0)...max(min(last, days - 1), max(first, 0))
    return first <= days - 1 && last >= 0 ? range : nil
  }

  /// The weekdays the schedule fires on (nil: every day), as the plugin's `allowedWeekdays`
  /// reads them: no list, null or an empty one is every day; names match exactly ("Monday"),
  /// others are dropped (warned about), and a list of which none matches is every day too.
  func weekdays() throws(ScenarioError) -> (Set<Int>?, [ScenarioWarning]) {
    guard let w = s["weekdays"] else { return (nil, []) }
    if case .scalar(let text, _) = w, ["null", "~", ""].contains(text) { return (nil, []) }
    guard case .sequence(let names, _) = w else { throw fail("weekdays", w.location, "expected a list of weekday names") }
    var set = Set<Int>()
    var dropped: [String] = []
    for n in names {
      guard case .scalar(let text, _) = n else { throw fail("weekdays", n.location, "expected weekday names such as Monday") }
      if let i = AWAREScheduleImport.weekdayNames.firstIndex(of: text) { set.insert(i) } else { dropped.append(text) }
    }
    var warnings: [ScenarioWarning] = []
    if !dropped.isEmpty {
      let quoted = dropped.prefix(5).map { "'\($0.prefix(40))'" }.joined(separator: ", ")
      warnings.append(
        ScenarioWarning(
          file: path, key: "\(base).weekdays",
          message: "\(quoted) \(dropped.count == 1 ? "is not a name" : "are not names") the plugin knows (Monday … Sunday, written so): dropped, as the plugin drops \(dropped.count == 1 ? "it" : "them")"
            + (set.isEmpty ? "; with none left the schedule fires every day" : "")))
    }
    return (set.isEmpty ? nil : set, warnings)
  }

  /// Warnings for the fields the plugin's decoder requires and the schedule leaves out: the
  /// app would refuse the file; esmsim simulates it with the field's default.
  func missingRequired() -> [ScenarioWarning] {
    AWAREScheduleImport.requiredFields.filter { s[$0] == nil }.map { k in
      ScenarioWarning(
        file: path, key: "\(base).\(k)",
        message: "missing: the AWARE plugin's schedule model requires it and would not load this file; simulated with "
          + (k == "start_date" || k == "end_date" ? "the study's days" : k == "esms" ? "a default item" : "its default"))
    }
  }

  /// The survey's items (ids from `id` where an item has no trigger) and the warnings of
  /// what an item sets that is not simulated.
  func items(id: String) throws(ScenarioError) -> ([SurveyItem], [ScenarioWarning]) {
    var items: [SurveyItem] = []
    var itemWarnings: [ScenarioWarning] = []
    guard let esms = s["esms"] else { return (items, itemWarnings) }
    guard case .sequence(let list, _) = esms else { throw fail("esms", esms.location, "expected a list of {esm: …}") }
    for (i, wrapper) in list.enumerated() {
      guard let esm = wrapper["esm"], case .mapping = esm else {
        throw fail("esms[\(i)]", wrapper.location, "expected {esm: {…}}")
      }
      func text(_ k: String) -> String {
        if case .scalar(let t, _)? = esm[k] { return t }
        return ""
      }
      guard let type = Units.number(text("esm_type")), type == type.rounded(), (1...16).contains(type) else {
        throw fail("esms[\(i)].esm.esm_type", esm["esm_type"]?.location ?? esm.location, "esm_type is a whole number from 1 to 16")
      }
      var options: [String] = []
      for k in ["esm_radios", "esm_checkboxes", "esm_quick_answers"] {
        if case .sequence(let o, _)? = esm[k] {
          options += o.compactMap { if case .scalar(let t, _) = $0 { return t } else { return nil } }
        }
      }
      let trigger = text("esm_trigger")
      if case .mapping(let fields, _) = esm {
        for field in fields where !AWAREScheduleImport.itemFields.contains(field.key) {
          itemWarnings.append(
            ScenarioWarning(
              file: path, key: "\(base).esms[\(i)].esm.\(field.key)",
              message: "not a field of the AWARE plugin's items: the plugin ignores it (a misspelling?)"))
        }
      }
      // The numeric range as the plugin's views draw it: likert 1…esm_likert_max (5 when not
      // given), scale esm_scale_min…esm_scale_max (0 and 100), each in its step (at least 1).
      var scale: ClosedRange<Int>?
      var step = 1
      // Bounds beyond ±10⁹ are not scales a participant answers on: they are refused.
      func bounded(_ key: String, _ d: Int) throws(ScenarioError) -> Int {
        guard let v = esm[key] else { return d }
        guard let x = Units.number(text(key)), x == x.rounded(), abs(x) < 1e9 else {
          throw fail("esms[\(i)].esm.\(key)", v.location, "expected a whole number under 10⁹ in size")
        }
        return Int(x)
      }
      if Int(type) == 4 {
        let m = try bounded("esm_likert_max", 5)
        guard m >= 1 else { throw fail("esms[\(i)].esm.esm_likert_max", esm["esm_likert_max"]?.location, "a likert item has at least 1 point") }
        scale = 1...m
        step = max(1, try bounded("esm_likert_step", 1))
      }
      if Int(type) == 6 {
        let lo = try bounded("esm_scale_min", 0)
        let hi = try bounded("esm_scale_max", 100)
        guard hi > lo else {
          throw fail("esms[\(i)].esm.esm_scale_max", esm["esm_scale_max"]?.location ?? esm.location, "the scale's maximum (\(hi)) is not above its minimum (\(lo)); the plugin's slider needs min < max")
        }
        scale = lo...hi
        step = max(1, try bounded("esm_scale_step", 1))
      }
      if let threshold = esm["esm_expiration_threshold"], case .scalar(let t, _) = threshold, (Units.number(t) ?? 0) > 0 {
        itemWarnings.append(
          ScenarioWarning(
            file: path, key: "\(base).esms[\(i)].esm.esm_expiration_threshold",
            message: "an item's own expiration is not simulated: the schedule's expiration applies to the whole survey"))
      }
      var item = SurveyItem(
        id: trigger.isEmpty ? "\(id)_\(i)" : trigger, type: Int(type), title: text("esm_title"),
        instructions: text("esm_instructions"), options: options, scale: scale)
      item.step = step
      items.append(item)
    }
    return (items, itemWarnings)
  }
}
