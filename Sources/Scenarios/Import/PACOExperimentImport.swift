import Foundation
import Schedules
import SimKernel
import StudyModel

/// Reads a PACO experiment (`ExperimentDAO` JSON; PACO's `Shared/.../model2`: `ExperimentGroup`,
/// `ScheduleTrigger`, `Schedule`, `SignalTime`, `InterruptTrigger`, `InterruptCue`,
/// `PacoNotificationAction`, `Input2`; [@PACO]).
///
/// Each group with prompts becomes a questionnaire (its `name`, its `inputs[]` as items), each
/// schedule of its `scheduleTrigger`s one schedule part:
/// - `scheduleType` 4 (ESM) with `esmPeriodInDays` 0 (a day): `esmFrequency` signals in
///   `esmStartHour`–`esmEndHour` (ms after midnight) by `EsmGenerator2`'s rule (equal blocks,
///   a random time in each, redrawn while closer than `minimumBuffer` minutes to an earlier
///   one: fixed blocks with sequential rejection), every day with `esmWeekends`, Monday to Friday without;
/// - `scheduleType` 0 (daily, every `repeatRate` days), 1 (weekdays) and 2 (weekly on the
///   `weekDaysScheduled` bitmask, Sunday = 1 … Saturday = 64, every week): fixed times from
///   `signalTimes[]` (`fixedTimeMillisFromMidnight`).
/// The trigger's first notification action (`actionCode` 1) sets the expiry (`timeout`
/// minutes, PACO's ESM default 59) and reminders (`snoozeCount` every `snoozeTime` ms). An
/// `interruptTrigger` whose cue is `USER_PRESENT` (code 2, the phone unlocked) becomes an
/// event schedule (its `minimumBuffer` as the gap, its `timeWindow`, `weekends`, and the
/// action's `delay`). What PACO runs that esmsim does not (weekly and monthly ESM periods,
/// monthly and advanced schedules, offset signal times, repeating weeks) is refused by key;
/// what it sets that does not change prompts as simulated (other cues, end-of-day groups,
/// a notification delay on a schedule) is warned about by key.
enum PACOExperimentImport {
  static func load(data: Data, file path: String, startDate: CalendarDate, days: Int) throws(ScenarioError) -> ImportedProtocol {
    try read(ScenarioLoader.parse(data, file: path, nullAsText: true), file: path, startDate: startDate, days: days)
  }

  /// PACO's defaults ([@PACO], `Schedule`, `PacoNotificationAction`, `Input2`).
  static let esmTimeout = 59.0
  static let snoozeTime = 600_000.0
  static let likertSteps = 5

  /// Group fields esmsim reads, and those that do not change when or how prompts come.
  static let groupFields: Set<String> = [
    "name", "groupType", "inputs", "actionTriggers", "fixedDuration", "startDate", "endDate", "endOfDayGroup",
    "endOfDayReferredGroupName", "customRendering", "customRenderingCode", "feedback", "feedbackType", "logActions",
    "logShutdown", "backgroundListen", "backgroundListenSourceIdentifier", "accessibilityListen", "rawDataAccess",
    "logNotificationEvents", "id",
  ]

  /// The keys of PACO's triggers, actions, schedules, signal times and cues: every property of
  /// its model classes (Jackson writes each getter, `nameOfClass` too; [@PACO] `model2`), read
  /// or not; a key outside them (misspelt, or from another tool) is warned about by name.
  static let modelFields: [String: Set<String>] = [
    "trigger": [
      "type", "actions", "id", "schedules", "cues", "minimumBuffer", "defaultMinimumBuffer", "timeWindow", "startTimeMillis",
      "endTimeMillis", "weekends", "nameOfClass", "onlyEditableOnJoin", "userEditable",
    ],
    "action": [
      "type", "actionCode", "id", "snoozeCount", "snoozeTime", "snoozeTimeInMinutes", "timeout", "delay", "color", "dismissible",
      "msgText", "customScript", "nameOfClass",
    ],
    "schedule": [
      "scheduleType", "esmFrequency", "esmPeriodInDays", "esmStartHour", "esmEndHour", "signalTimes", "repeatRate",
      "weekDaysScheduled", "nthOfMonth", "byDayOfMonth", "dayOfMonth", "esmWeekends", "minimumBuffer", "defaultMinimumBuffer",
      "joinDateMillis", "beginDate", "id", "onlyEditableOnJoin", "userEditable", "byDayOfWeek", "nameOfClass",
    ],
    "signal time": ["type", "fixedTimeMillisFromMidnight", "basis", "offsetTimeMillis", "missedBasisBehavior", "label", "nameOfClass"],
    "cue": ["id", "cueKey", "cueCode", "cueSource", "cueAEClassName", "cueAEEventType", "cueAEContentDescription", "nameOfClass"],
  ]

  /// Warns about each key of `node` that is not one of PACO's `kind` (``modelFields``).
  static func warnUnknown(_ node: ScenarioValue, _ k: String, _ kind: String, _ json: inout JSONFields) {
    guard case .mapping(let pairs, _) = node, let known = modelFields[kind] else { return }
    for (key, _, _) in pairs where !known.contains(key) {
      json.warn("\(k).\(key)", "not a key of PACO's \(kind) (misspelt?): not read, its default used")
    }
  }

  /// Reads an experiment's tree (`file` names it in errors) for a study of `days` days from
  /// `startDate`.
  static func read(_ root: ScenarioValue, file path: String, startDate: CalendarDate, days: Int) throws(ScenarioError)
    -> ImportedProtocol
  {
    var json = JSONFields(file: path)
    guard case .mapping = root else { throw json.fail("", root.location, "a PACO experiment is a JSON object") }
    var parts: [SchedulePart] = []
    var first: (expiry: ExpiryPolicy, reminders: Reminders, survey: SurveyPlan)?
    for (gi, group) in try json.list(root["groups"], "groups").enumerated() {
      let gk = "groups[\(gi)]"
      guard case .mapping = group else { throw json.fail(gk, group.location, "a group is a JSON object") }
      if json.text(group["groupType"]) == "SYSTEM" { continue }  // PACO's own logging group: no prompts
      for (key, _, _) in group.pairs where !Self.groupFields.contains(key) {
        json.warn("\(gk).\(key)", "not read by esmsim: not simulated")
      }
      if json.flag(group["endOfDayGroup"]) {
        json.warn("\(gk).endOfDayGroup", "an end-of-day group (answers about another group's day) is prompted on its own schedule only")
      }
      let name = json.text(group["name"]).flatMap { $0.isEmpty ? nil : $0 } ?? "group\(gi)"
      let survey = SurveyPlan(id: name, title: name, items: try items(group["inputs"], gk, &json))
      let active = try activeDays(group, gk, startDate: startDate, days: days, &json)
      for (ti, trigger) in try json.list(group["actionTriggers"], "\(gk).actionTriggers").enumerated() {
        let tk = "\(gk).actionTriggers[\(ti)]"
        warnUnknown(trigger, tk, "trigger", &json)
        let (expiry, reminders, delay) = try action(trigger, tk, &json)
        var triggerParts: [SchedulePart]
        switch json.text(trigger["type"]) {
        case "scheduleTrigger":
          if delay != 5000 && delay != 0 {
            json.warn("\(tk).actions.delay", "a notification delay on a schedule is not simulated (PACO's default is 5 s)")
          }
          triggerParts = []
          for (si, schedule) in try json.list(trigger["schedules"], "\(tk).schedules").enumerated() {
            triggerParts += try Self.schedule(schedule, "\(tk).schedules[\(si)]", &json)
          }
        case "interruptTrigger":
          triggerParts = try interrupt(trigger, tk, delay: delay, &json)
        default:
          throw json.fail("\(tk).type", trigger["type"]?.location, "expected scheduleTrigger or interruptTrigger")
        }
        for var part in triggerParts {
          part.expiry = expiry
          part.reminders = reminders
          part.survey = survey
          part.days = active.range
          if active.never { part.weekdays = [] }  // outside the study: no signal on any day
          parts.append(part)
          if first == nil { first = (expiry, reminders, survey) }
        }
      }
    }
    guard let first else { throw json.fail("groups", root.location, "the experiment has no scheduled or unlock-triggered prompts to simulate") }
    return ImportedProtocol(
      parts: parts, survey: first.survey, channelPreset: "ios_local", expiry: first.expiry, reminders: first.reminders,
      warnings: json.warnings)
  }

  /// One schedule of a schedule trigger.
  static func schedule(_ s: ScenarioValue, _ k: String, _ json: inout JSONFields) throws(ScenarioError) -> [SchedulePart] {
    let type = try json.whole(s["scheduleType"], k + ".scheduleType", default: 0, range: 0...6)
    warnUnknown(s, k, "schedule", &json)
    if json.text(s["beginDate"]).map({ !["", "null", "0"].contains($0) }) ?? false {
      json.warn(k + ".beginDate", "a schedule's own begin date is not simulated: it runs from the study's (or its group's) first day")
    }
    if json.flag(s["userEditable"]) {
      json.warn(k + ".userEditable", "participants may change this schedule's times in PACO; esmsim keeps them (protocol.own_times simulates moved times)")
    }
    switch type {
    case 4:
      let period = try json.number(s["esmPeriodInDays"], k + ".esmPeriodInDays", default: 0, range: 0...2)
      guard period == 0 else {
        throw json.fail(k + ".esmPeriodInDays", s["esmPeriodInDays"]?.location, "ESM signals spread over a \(period == 1 ? "week" : "month") are not simulated; esmsim runs a day's (esmPeriodInDays 0)")
      }
      let frequency = try json.number(s["esmFrequency"], k + ".esmFrequency", default: 3, range: 0...100)
      let startMs = try json.number(s["esmStartHour"], k + ".esmStartHour", default: 9 * 3_600_000, range: 0...86_400_000)
      let endMs = try json.number(s["esmEndHour"], k + ".esmEndHour", default: 17 * 3_600_000, range: 0...86_400_000)
      let buffer = try json.number(s["minimumBuffer"], k + ".minimumBuffer", default: esmTimeout, range: 0...1440)
      guard frequency > 0 else { return [] }
      guard frequency == frequency.rounded() else { throw json.fail(k + ".esmFrequency", s["esmFrequency"]?.location, "a whole number") }
      guard endMs > startMs else { throw json.fail(k + ".esmEndHour", s["esmEndHour"]?.location, "the end hour must be after the start hour") }
      let window = try! Window(start: ClockTime(minutes: startMs / 60_000), length: (endMs - startMs) / 60_000)
      let p = ScheduleParameters(perDay: frequency, minGap: buffer, gapMethod: .sequentialRejection)
      do { _ = try AnyScheduler(.fixedBlocks, p, window: window) } catch {
        throw json.fail(k + ".minimumBuffer", s["minimumBuffer"]?.location, error.message)
      }
      let weekends = json.flag(s["esmWeekends"])
      return [
        SchedulePart(
          ScheduleChoice(.fixedBlocks, p), window: .fixed(weekday: window, weekend: window), weekdays: weekends ? nil : Weekdays.workdays)
      ]
    case 0, 1, 2:
      var times: [ClockTime] = []
      for (i, signal) in try json.list(s["signalTimes"], k + ".signalTimes").enumerated() {
        let sk = "\(k).signalTimes[\(i)]"
        warnUnknown(signal, sk, "signal time", &json)
        let kind = try json.number(signal["type"], sk + ".type", default: 0, range: 0...1)
        guard kind == 0 else {
          throw json.fail(sk + ".type", signal["type"]?.location, "an offset signal time (after the previous signal or response) is not simulated; give fixed times")
        }
        let ms = try json.number(signal["fixedTimeMillisFromMidnight"], sk + ".fixedTimeMillisFromMidnight", default: -1, range: 0...86_399_999)
        times.append(ClockTime(minutes: (ms / 60_000).rounded(.down)))
      }
      guard !times.isEmpty else { throw json.fail(k + ".signalTimes", s.location, "a fixed schedule needs signal times") }
      let repeatRate = try json.whole(s["repeatRate"], k + ".repeatRate", default: 1, range: 1...365)
      var weekdays: Set<Int>?
      var every = 1
      switch type {
      case 0: every = repeatRate
      case 1: weekdays = Weekdays.workdays
      default:
        guard repeatRate == 1 else {
          throw json.fail(k + ".repeatRate", s["repeatRate"]?.location, "a weekly schedule repeating every \(repeatRate) weeks is not simulated")
        }
        let mask = try json.whole(s["weekDaysScheduled"], k + ".weekDaysScheduled", default: 0, range: 1...127)
        weekdays = Weekdays.fromSundayFirstMask(mask)
      }
      let window = try! Window(start: ClockTime(minutes: 0), length: 1440)
      return [
        SchedulePart(
          ScheduleChoice(.fixedTimes, ScheduleParameters(times: times.sorted { $0.minutes < $1.minutes })),
          window: .fixed(weekday: window, weekend: window), everyDays: every, weekdays: weekdays)
      ]
    default:
      let names = [3: "monthly", 5: "self-report (no signals)", 6: "advanced"]
      if type == 5 { return [] }
      throw json.fail(k + ".scheduleType", s["scheduleType"]?.location, "a \(names[type] ?? "") schedule is not simulated")
    }
  }

  /// An interrupt trigger: its unlock cue as an event schedule; other cues are warned about.
  static func interrupt(_ t: ScenarioValue, _ k: String, delay: Double, _ json: inout JSONFields) throws(ScenarioError)
    -> [SchedulePart]
  {
    var unlock = false
    for (ci, cue) in try json.list(t["cues"], k + ".cues").enumerated() {
      warnUnknown(cue, "\(k).cues[\(ci)]", "cue", &json)
      let code = try json.number(cue["cueCode"], "\(k).cues[\(ci)].cueCode", default: 0, range: 0...100)
      if code == 2 { unlock = true } else {
        json.warn("\(k).cues[\(ci)].cueCode", "cue \(Int(code)) is not an event esmsim simulates (only 2, USER_PRESENT: the phone unlocked)")
      }
    }
    guard unlock else { return [] }
    let gap = try json.number(t["minimumBuffer"], k + ".minimumBuffer", default: 0, range: 0...1440)
    var window = try! Window(start: ClockTime(minutes: 0), length: 1440)
    if json.flag(t["timeWindow"]) {
      let s = try json.number(t["startTimeMillis"], k + ".startTimeMillis", default: 0, range: 0...86_400_000)
      let e = try json.number(t["endTimeMillis"], k + ".endTimeMillis", default: 86_400_000, range: 0...86_400_000)
      do { window = try Window(start: ClockTime(minutes: s / 60_000), end: ClockTime(minutes: e / 60_000)) } catch {
        throw json.fail(k + ".endTimeMillis", t["endTimeMillis"]?.location, error.message)
      }
    }
    // `weekends` defaults to true in PACO's InterruptTrigger.
    let weekends = t["weekends"] == nil || json.flag(t["weekends"])
    let trigger = EventTrigger(
      event: .phoneUnlock, delay: SimTime(delay), minGap: Tick.minutes(gap), maxPerDay: 200)
    return [SchedulePart(.events(trigger), window: .fixed(weekday: window, weekend: window), weekdays: weekends ? nil : Weekdays.workdays)]
  }

  /// The trigger's first notification to participate: expiry, reminders, and its delay (ms).
  static func action(_ t: ScenarioValue, _ k: String, _ json: inout JSONFields) throws(ScenarioError)
    -> (ExpiryPolicy, Reminders, Double)
  {
    for (ai, a) in try json.list(t["actions"], k + ".actions").enumerated() {
      let ak = "\(k).actions[\(ai)]"
      warnUnknown(a, ak, "action", &json)
      let code = try json.number(a["actionCode"], ak + ".actionCode", default: 1, range: 1...4)
      guard code == 1 else {
        json.warn(ak + ".actionCode", "action \(Int(code)) (not a notification to participate) is not simulated")
        continue
      }
      let timeout = try json.number(a["timeout"], ak + ".timeout", default: esmTimeout, range: 0...(60 * 24 * 30))
      let count = try json.number(a["snoozeCount"], ak + ".snoozeCount", default: 0, range: 0...20)
      let snooze = try json.number(a["snoozeTime"], ak + ".snoozeTime", default: snoozeTime, range: 60_000...86_400_000)
      let delay = try json.number(a["delay"], ak + ".delay", default: 5000, range: 0...(12 * 3_600_000))
      return (timeout == 0 ? .never : .after(Tick.minutes(timeout)), Reminders(count: Int(count), interval: SimTime(snooze)), delay)
    }
    return (.after(Tick.minutes(esmTimeout)), Reminders(), 5000)
  }

  /// The group's inputs as items: likert as AWARE likert 1…steps, lists as radio (checkbox when
  /// multiselect), text and numbers as text and number; other kinds answered as text (warned).
  static func items(_ v: ScenarioValue?, _ gk: String, _ json: inout JSONFields) throws(ScenarioError) -> [SurveyItem] {
    var out: [SurveyItem] = []
    for (i, input) in try json.list(v, gk + ".inputs").enumerated() {
      let k = "\(gk).inputs[\(i)]"
      let id = json.text(input["name"]) ?? "input\(i)"
      let title = json.text(input["text"]) ?? ""
      let options = try json.list(input["listChoices"], k + ".listChoices").compactMap { json.text($0) }
      if json.flag(input["conditional"]) || !(json.text(input["conditionExpression"]) ?? "").isEmpty {
        json.warn(k + ".conditional", "shown by a condition in PACO (conditionExpression); esmsim asks it every time")
      }
      switch json.text(input["responseType"]) ?? "likert" {
      case "likert", "likert_smileys":
        let steps = try json.whole(input["likertSteps"], k + ".likertSteps", default: likertSteps, range: 2...100)
        out.append(SurveyItem(id: id, type: 4, title: title, instructions: "", scale: 1...steps))
      case "list":
        out.append(SurveyItem(id: id, type: json.flag(input["multiselect"]) ? 3 : 2, title: title, instructions: "", options: options))
      case "number":
        out.append(SurveyItem(id: id, type: 9, title: title, instructions: ""))
      case "open text":
        out.append(SurveyItem(id: id, type: 1, title: title, instructions: ""))
      case let other:
        json.warn(k + ".responseType", "a '\(other)' input is answered as text")
        out.append(SurveyItem(id: id, type: 1, title: title, instructions: ""))
      }
    }
    return out.isEmpty ? SurveyPlan().items : out
  }

  /// The study days a group with `fixedDuration` runs on (`startDate`, `endDate`:
  /// `yyyy/MM/dd`), counted from the study's first day.
  static func activeDays(
    _ g: ScenarioValue, _ gk: String, startDate: CalendarDate, days: Int, _ json: inout JSONFields
  ) throws(ScenarioError) -> (range: ClosedRange<Int>?, never: Bool) {
    guard json.flag(g["fixedDuration"]) else { return (nil, false) }
    func date(_ key: String) throws(ScenarioError) -> Int? {
      guard let text = json.text(g[key]) else { return nil }
      guard let d = CalendarDate(iso: text.replacingOccurrences(of: "/", with: "-")) else {
        throw json.fail("\(gk).\(key)", g[key]?.location, "expected a date yyyy/MM/dd, found '\(text)'")
      }
      return d.daysSinceEpoch - startDate.daysSinceEpoch
    }
    let first = max(try date("startDate") ?? 0, 0)
    let last = min(try date("endDate") ?? days - 1, days - 1)
    return first <= last ? (first...last, false) : (nil, true)
  }
}

/// Typed access to the fields of an imported JSON file, with errors and warnings named by key.
struct JSONFields {
  let file: String
  private(set) var warnings: [ScenarioWarning] = []

  init(file: String) { self.file = file }

  func fail(_ k: String, _ at: ScenarioValue.Location?, _ message: String) -> ScenarioError {
    ScenarioError(file: file, key: k, at: at, message)
  }

  mutating func warn(_ k: String, _ message: String) {
    let w = ScenarioWarning(file: file, key: k, message: message)
    if !warnings.contains(w) { warnings.append(w) }
  }

  /// A list (empty when absent).
  func list(_ v: ScenarioValue?, _ k: String) throws(ScenarioError) -> [ScenarioValue] {
    guard let v else { return [] }
    guard case .sequence(let items, _) = v else { throw fail(k, v.location, "expected a list") }
    return items
  }

  /// A number in `range` (`d` when absent).
  func number(_ v: ScenarioValue?, _ k: String, default d: Double, range: ClosedRange<Double>) throws(ScenarioError) -> Double {
    guard let v else {
      guard range.contains(d) else { throw fail(k, nil, "is required") }
      return d
    }
    guard case .scalar(let text, _) = v, let x = Units.number(text), range.contains(x) else {
      throw fail(k, v.location, "expected a number from \(Units.format(range.lowerBound)) to \(Units.format(range.upperBound))")
    }
    return x
  }

  /// A whole number in `range` (`default` when absent): a fraction is refused, not truncated
  /// (a `dailyRepeatRate` of 1.5 ran as 1).
  func whole(_ v: ScenarioValue?, _ k: String, default d: Int, range: ClosedRange<Int>) throws(ScenarioError) -> Int {
    let x = try number(v, k, default: Double(d), range: Double(range.lowerBound)...Double(range.upperBound))
    guard x == x.rounded() else { throw fail(k, v?.location, "expected a whole number from \(range.lowerBound) to \(range.upperBound)") }
    return Int(x)
  }

  /// A true/false field (absent: `default`); any other value is refused ("random": "yes" ran
  /// as false).
  func boolean(_ v: ScenarioValue?, _ k: String, default d: Bool = false) throws(ScenarioError) -> Bool {
    guard let v else { return d }
    guard case .scalar(let t, _) = v, ["true", "false", "1", "0"].contains(t) else {
      throw fail(k, v.location, "expected true or false")
    }
    return t == "true" || t == "1"
  }

  /// A scalar's text (nil when absent or not a scalar).
  func text(_ v: ScenarioValue?) -> String? {
    if case .scalar(let t, _)? = v { return t }
    return nil
  }

  /// Whether a field is true.
  func flag(_ v: ScenarioValue?) -> Bool {
    if case .scalar(let t, _)? = v { return t == "true" || t == "1" }
    return false
  }
}
