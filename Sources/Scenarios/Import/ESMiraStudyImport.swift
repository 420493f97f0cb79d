import Foundation
import Schedules
import SimKernel
import StudyModel

/// Reads the schedules of an ESMira study file (`ESMira-apps` `Study.kt`, `Schedule.kt`,
/// `SignalTime.kt`, `ActionTrigger.kt`; [@ESMiraNotes]):
/// `questionnaires[].actionTriggers[]` with `schedules[]` (`dailyRepeatRate`, `weekdays`
/// bitmask Sun = 1 … Sat = 64, 0 = every day, `signalTimes[]`) and `actions[]` (`type` 1 =
/// invitation, `timeout` minutes, `reminder_count`, `reminder_delay_minu`, default 5).
///
/// Each signal time becomes one schedule part: `random` with `frequency` n and
/// `minutesBetween` g is ESMira's own algorithm (fixed blocks, truncation gap method) in its
/// window `startTimeOfDay`–`endTimeOfDay` (milliseconds after midnight; an end before the
/// start crosses midnight); a fixed one fires at `startTimeOfDay`. `randomFixed` (a time
/// drawn once and kept) is refused: esmsim draws every day. Each questionnaire keeps its own
/// items, and each trigger's first invitation action sets its prompts' timeout and reminders
/// (ESMira counts a prompt missed after timeout + reminders × delay); a trigger without an
/// invitation action (only messages) sends no prompt, and is warned about. The days each schedule signals on are
/// the app's chain (``ESMiraDays``: `startDayOne`, `skipFirstInLoop`, `dailyRepeatRate`,
/// `dayOfMonth`, `weekdays`, the questionnaire's `durationStartingAfterDays` and
/// `durationPeriodDays`), from the study's start date. What else a questionnaire sets and
/// esmsim does not simulate (groups, absolute dates, completion limits) is warned about by
/// key. Delivered through ESMira's iOS planner.
enum ESMiraStudyImport {
  /// Reads a study file; `timesMoved`: the scenario simulates participants moving their times
  /// (`protocol.own_times`), so editable times are not warned about.
  static func load(
    data: Data, file path: String, startDate: CalendarDate = .defaultStart, days: Int = 3650, timesMoved: Bool = false
  ) throws(ScenarioError) -> ImportedProtocol {
    try read(ScenarioLoader.parse(data, file: path, nullAsText: true), file: path, startDate: startDate, days: days, timesMoved: timesMoved)
  }

  /// A questionnaire's fields esmsim reads.
  static let read: Set<String> = ["title", "internalId", "pages", "actionTriggers", "durationPeriodDays", "durationStartingAfterDays"]
  /// Fields that change what is simulated when set, with the value that means "not set".
  static let notSimulated: [(key: String, unset: String, what: String)] = [
    ("limitToGroup", "0", "a questionnaire for one group: every simulated participant gets it"),
    ("durationStart", "0", "an absolute start date: not simulated, the questionnaire runs from the study's first day"),
    ("durationEnd", "0", "an absolute end date: not simulated, the questionnaire runs to the study's end"),
    ("completableOnce", "false", "completable once: every prompt is answerable"),
    ("completableOncePerNotification", "false", "once per notification: not simulated"),
    ("completableMinutesAfterNotification", "0", "a completion window after the notification: the action's timeout applies"),
    ("limitCompletionFrequency", "false", "a completion frequency limit: not simulated"),
    ("completableAtSpecificTime", "false", "completion at specific times only: not simulated"),
    ("publishedIOS", "true", "not published on iOS: esmsim simulates it on every phone"),
    ("publishedAndroid", "true", "not published on Android: esmsim simulates it on every phone"),
  ]

  /// Warned about at an action trigger's or a schedule's level, with what esmsim does instead;
  /// `userEditable` is ESMira's default (participants may change their schedule's times).
  static let scheduleNotSimulated: [String: String] = [
    "userEditable": "participants may move their schedule's times in the app (ESMira's default); esmsim keeps the study's times unless protocol.own_times says how many move them and how far",
  ]

  /// Warns about each key of `node` that is not read (`read`), naming it and, where known,
  /// what esmsim does instead; `userEditable` also when absent (it defaults to on), unless
  /// the scenario moves the participants' times (`timesMoved`).
  static func warnUnread(_ node: ScenarioValue, _ path: String, read: Set<String>, timesMoved: Bool, _ json: inout JSONFields) {
    guard case .mapping(let pairs, _) = node else { return }
    let editable = scheduleNotSimulated["userEditable"]!
    // Said once per study: every schedule of a study is usually editable alike.
    let saidEditable = timesMoved || json.warnings.contains { $0.message.hasPrefix(editable) }
    for (key, value, _) in pairs where !read.contains(key) {
      if key == "userEditable" {
        if case .scalar(let v, _) = value, v == "false" || v == "0" { continue }
        if !saidEditable { json.warn("\(path).userEditable", editable) }
        continue
      }
      if case .scalar(let v, _) = value, v == "false" || v == "0" { continue }
      if case .sequence(let items, _) = value, items.isEmpty { continue }
      json.warn("\(path).\(key)", scheduleNotSimulated[key] ?? "not read by esmsim: not simulated")
    }
    if read.contains("signalTimes") && node["userEditable"] == nil && !saidEditable {
      json.warn("\(path).userEditable", editable + " (not set: on)")
    }
  }

  /// Fields that do not change when or how prompts come (scoring, the web version).
  static let irrelevant: Set<String> = ["sumScores", "publishedWeb"]

  /// Reads a study file's tree (`file` names it in errors); the study starts (the
  /// participants join) on `startDate` and lasts `days`.
  static func read(
    _ root: ScenarioValue, file path: String, startDate: CalendarDate = .defaultStart, days: Int = 3650, timesMoved: Bool = false
  ) throws(ScenarioError) -> ImportedProtocol {
    var json = JSONFields(file: path)
    guard case .mapping = root else { throw json.fail("", root.location, "an ESMira study is a JSON object") }
    var parts: [SchedulePart] = []
    var first: (expiry: ExpiryPolicy, reminders: Reminders, survey: SurveyPlan)?
    let title = root["title"].flatMap { if case .scalar(let t, _) = $0 { t } else { nil } } ?? "ESMira"
    let legacy = Self.legacy(root, &json)
    let questionnaires = try json.list(root["questionnaires"], "questionnaires")
    // Each questionnaire's parts, and the follow-ups whose sources are known once all are read.
    var partsOf: [[Int]] = []
    var followUps: [(part: Int, cue: ESMiraCue, questionnaire: Int, key: String)] = []
    for (qi, q) in questionnaires.enumerated() {
      let qk = "questionnaires[\(qi)]"
      let firstPart = parts.count
      defer { partsOf.append(Array(firstPart..<parts.count)) }
      Self.warnQuestionnaire(q, qk, &json)
      let survey = try Self.survey(q, index: qi, key: qk, studyTitle: title, &json)
      // The study days it is active on, counted from joining (the study's first day).
      let after = try json.whole(q["durationStartingAfterDays"], qk + ".durationStartingAfterDays", default: 0, range: 0...3650)
      let period = try json.whole(q["durationPeriodDays"], qk + ".durationPeriodDays", default: 0, range: 0...3650)
      for (ti, trigger) in try json.list(q["actionTriggers"], "\(qk).actionTriggers").enumerated() {
        let tk = "\(qk).actionTriggers[\(ti)]"
        Self.warnUnread(trigger, tk, read: ["schedules", "actions", "eventTriggers"], timesMoved: timesMoved, &json)
        // Each trigger's own invitation: its timeout and reminders; a trigger without one
        // (only messages) invites to nothing.
        guard let (expiry, reminders) = try Self.invitation(trigger, tk, &json) else {
          json.warn(
            tk + ".actions",
            "no invitation action (type 1): ESMira sends no questionnaire invitation for this trigger, so its signals are not prompts (not simulated)")
          continue
        }
        func add(_ part: SchedulePart, studyDays: Set<Int>? = nil) {  // with the trigger's settings
          var own = part
          (own.expiry, own.reminders, own.survey, own.studyDays) = (expiry, reminders, survey, studyDays)
          parts.append(own)
          if first == nil { first = (expiry, reminders, survey) }
        }
        for (ei, event) in try json.list(trigger["eventTriggers"], "\(tk).eventTriggers").enumerated() {
          let last = ESMiraDays.lastActiveDay(periodDays: period, legacy: legacy)
          let ek = "\(tk).eventTriggers[\(ei)]"
          guard let (own, cue) = try Self.eventPart(event, ek, activeFrom: after, through: last, &json) else { continue }
          if cue != .joined { followUps.append((parts.count, cue, qi, ek)) }
          add(own)
        }
        for (si, schedule) in try json.list(trigger["schedules"], "\(tk).schedules").enumerated() {
          let sk = "\(tk).schedules[\(si)]"
          let studyDays = try Self.studyDays(
            schedule, sk, after: after, period: period, legacy: legacy, startDate: startDate, days: days, timesMoved: timesMoved,
            &json)
          for (ti2, signal) in try json.list(schedule["signalTimes"], sk + ".signalTimes").enumerated() {
            add(try Self.signalPart(signal, "\(sk).signalTimes[\(ti2)]", &json), studyDays: studyDays)
          }
        }
      }
    }
    Self.link(followUps, &parts, partsOf: partsOf, internalIds: questionnaires.map(Self.internalId), &json)
    guard !parts.isEmpty, let first else {
      throw json.fail("questionnaires", root.location, "the study has no signal times to simulate")
    }
    return ImportedProtocol(
      parts: parts, survey: first.survey, channelPreset: "esmira", expiry: first.expiry, reminders: first.reminders,
      warnings: json.warnings)
  }

  /// Whether the study uses ESMira's legacy scheduling (warned about: esmsim's first day is whole).
  static func legacy(_ root: ScenarioValue, _ json: inout JSONFields) -> Bool {
    guard json.flag(root["legacyScheduling"]) else { return false }
    json.warn(
      "legacyScheduling",
      "legacy scheduling counts days from the moment of joining (the first day's later signal times only): esmsim's participants join at the start of day 0, so the first day is whole")
    return true
  }

  /// A questionnaire's `internalId` (nil: none).
  static func internalId(_ q: ScenarioValue) -> Double? {
    if case .scalar(let t, _)? = q["internalId"] { return Units.number(t) }
    return nil
  }

  /// Warns about what a questionnaire sets that esmsim does not simulate or read.
  static func warnQuestionnaire(_ q: ScenarioValue, _ qk: String, _ json: inout JSONFields) {
    for (key, unset, what) in Self.notSimulated {
      if case .scalar(let v, _)? = q[key], v != unset, !(unset == "0" && Units.number(v) == 0) {
        json.warn("\(qk).\(key)", what)
      }
    }
    // Anything else a questionnaire sets is not read: said, not dropped silently.
    let accounted = Self.read.union(Self.notSimulated.map(\.key)).union(Self.irrelevant)
    for (key, _, _) in q.pairs where !accounted.contains(key) {
      json.warn("\(qk).\(key)", "not read by esmsim: not simulated")
    }
  }

  /// A questionnaire's survey: its pages' inputs as items, its title and id.
  static func survey(_ q: ScenarioValue, index qi: Int, key qk: String, studyTitle title: String, _ json: inout JSONFields)
    throws(ScenarioError) -> SurveyPlan
  {
    var items: [SurveyItem] = []
    // What the inputs set that is not simulated: said once a questionnaire, by key.
    var otherTypes: [String] = []
    for (pi, page) in try json.list(q["pages"], "\(qk).pages").enumerated() {
      if json.flag(page["randomized"]) {
        json.warn("\(qk).pages[\(pi)].randomized", "the inputs' order is not simulated (each item's answer is the prompt's state)")
      }
      for (ii, input) in try json.list(page["inputs"], "\(qk).pages[\(pi)].inputs").enumerated() {
        var name = "q\(qi)_\(pi)_\(ii)"
        var text = ""
        if case .scalar(let n, _)? = input["name"] { name = n }
        if case .scalar(let t, _)? = input["text"] { text = t }
        if case .scalar(let type, _)? = input["responseType"], type != "va_scale", !otherTypes.contains(type) {
          otherTypes.append(type)
        }
        if case .scalar(let r, _)? = input["relevance"], !r.isEmpty {
          json.warn("\(qk).pages[\(pi)].inputs[\(ii)].relevance", "shown by a condition in ESMira; esmsim asks it every time")
        }
        items.append(SurveyItem(id: name, type: 6, title: text, instructions: "", options: []))
      }
    }
    if !otherTypes.isEmpty {
      json.warn(
        "\(qk).pages",
        "inputs of type \(otherTypes.prefix(6).map { $0.prefix(30) }.joined(separator: ", ")) are answered as a number from 0 to 100 (the prompt's simulated state), not on their own scale, choices or text")
    }
    if items.isEmpty { items = SurveyPlan().items }
    var qTitle = "\(title) \(qi + 1)"
    if case .scalar(let t, _)? = q["title"], !t.isEmpty { qTitle = t }
    var id = "q\(qi)"
    if case .scalar(let t, _)? = q["internalId"] { id = "q\(t)" }
    return SurveyPlan(id: id, title: qTitle, items: items)
  }

  /// The expiry and reminders of an action trigger's first invitation action (type 1), as
  /// the app applies each trigger's own actions; nil when it has none.
  static func invitation(_ trigger: ScenarioValue, _ tk: String, _ json: inout JSONFields) throws(ScenarioError) -> (
    ExpiryPolicy, Reminders
  )? {
    for (ai, action) in try json.list(trigger["actions"], "\(tk).actions").enumerated() {
      let ak = "\(tk).actions[\(ai)]"
      let type = try json.number(action["type"], ak + ".type", default: 1, range: 1...3)
      guard type == 1 else { continue }
      Self.warnUnread(action, ak, read: ["type", "timeout", "reminder_count", "reminder_delay_minu", "msgText"], timesMoved: true, &json)
      let timeout = try json.number(action["timeout"], ak + ".timeout", default: 0, range: 0...(60 * 24 * 30))
      let count = try json.number(action["reminder_count"], ak + ".reminder_count", default: 0, range: 0...20)
      let delay = try json.number(action["reminder_delay_minu"], ak + ".reminder_delay_minu", default: 5, range: 1...(60 * 24))
      return (timeout == 0 ? .never : .after(Tick.minutes(timeout + count * delay)), Reminders(count: Int(count), interval: Tick.minutes(delay)))
    }
    return nil
  }

  /// The study days a schedule signals on, as the app chains them (ESMiraDays).
  static func studyDays(
    _ schedule: ScenarioValue, _ sk: String, after: Int, period: Int, legacy: Bool, startDate: CalendarDate, days: Int,
    timesMoved: Bool, _ json: inout JSONFields
  ) throws(ScenarioError) -> Set<Int> {
    Self.warnUnread(
      schedule, sk, read: ["dailyRepeatRate", "weekdays", "signalTimes", "dayOfMonth", "skipFirstInLoop", "startDayOne"],
      timesMoved: timesMoved, &json)
    let mask = try json.whole(schedule["weekdays"], sk + ".weekdays", default: 0, range: 0...127)
    let rule = ESMiraDays(
      repeatRate: try json.whole(schedule["dailyRepeatRate"], sk + ".dailyRepeatRate", default: 1, range: 0...365),
      skipFirstInLoop: json.flag(schedule["skipFirstInLoop"]),
      startDayOne: schedule["startDayOne"].map { json.flag($0) } ?? true,
      weekdays: mask == 0 ? nil : Weekdays.fromSundayFirstMask(mask),
      dayOfMonth: try json.whole(schedule["dayOfMonth"], sk + ".dayOfMonth", default: 0, range: 0...31),
      startingAfterDays: after, periodDays: period, legacy: legacy)
    let studyDays = Set(rule.days(start: startDate, count: days))
    if studyDays.isEmpty {
      json.warn(sk, "signals on none of the study's \(days) days (its first day, days of the month, weekdays or the questionnaire's duration)")
    }
    return studyDays
  }

  /// One signal time: a fixed time, or random ones in a window (ESMira's truncation of the gap).
  static func signalPart(_ signal: ScenarioValue, _ k: String, _ json: inout JSONFields) throws(ScenarioError) -> SchedulePart {
    Self.warnUnread(
      signal, k,
      read: [
        "startTimeOfDay", "endTimeOfDay", "random", "randomFixed", "frequency", "minutesBetween", "originalStartTimeOfDay",
        "originalEndTimeOfDay", "label",
      ],
      timesMoved: true, &json)
    if try json.boolean(signal["randomFixed"], k + ".randomFixed") {
      throw json.fail(k + ".randomFixed", signal["randomFixed"]?.location, "randomFixed (a time drawn once and kept) is not simulated; esmsim draws a new time every day")
    }
    let startMs = try json.number(signal["startTimeOfDay"], k + ".startTimeOfDay", default: 0, range: 0...86_399_999)
    let endMs = try json.number(signal["endTimeOfDay"], k + ".endTimeOfDay", default: min(startMs + 60_000, 86_400_000), range: 0...86_400_000)
    let start = ClockTime(minutes: startMs / 60_000)
    guard try json.boolean(signal["random"], k + ".random") else {
      let window = try! Window(start: start, length: 1)
      return SchedulePart(ScheduleChoice(.fixedTimes, ScheduleParameters(times: [start])), window: .fixed(weekday: window, weekend: window))
    }
    let frequency = try json.number(signal["frequency"], k + ".frequency", default: 1, range: 1...100)
    let gap = try json.number(signal["minutesBetween"], k + ".minutesBetween", default: 60, range: 0...1440)
    guard frequency == frequency.rounded() else { throw json.fail(k + ".frequency", signal["frequency"]?.location, "a whole number") }
    let window: Window
    do { window = try Window(start: start, end: ClockTime(minutes: endMs / 60_000)) } catch {
      throw json.fail(k + ".endTimeOfDay", signal["endTimeOfDay"]?.location, error.message)
    }
    let p = ScheduleParameters(perDay: frequency, minGap: frequency > 1 ? gap : 0, gapMethod: .truncation)
    do { _ = try AnyScheduler(.fixedBlocks, p, window: window) } catch {
      throw json.fail(k + ".minutesBetween", signal["minutesBetween"]?.location, error.message)
    }
    return SchedulePart(ScheduleChoice(.fixedBlocks, p), window: .fixed(weekday: window, weekend: window))
  }
}
