import Schedules
import SimKernel
import StudyModel

/// `protocol.questionnaires` (several questionnaires, each with its own schedule, window,
/// expiry, reminders and survey), the days a schedule runs on (`weekdays`, `every_days`),
/// and event-contingent schedules (`algorithm: event`).
extension ScenarioResolver {
  /// The schedules of `protocol.questionnaires`, one per questionnaire, each opening its
  /// own survey (whose id is the questionnaire's name). Keys a questionnaire leaves out
  /// (window, expiry, reminders) are the protocol's.
  mutating func questionnaires(_ r: Reader, window: WindowPlan, plan: StudyPlan) throws(ScenarioError) -> [SchedulePart] {
    guard let v = r.raw("questionnaires"), case .sequence(let list, let at) = v, !list.isEmpty, list.count <= ScenarioLimits.questionnaires else {
      throw r.error(
        "questionnaires", r.raw("questionnaires")?.location,
        "expected a list of 1 to \(ScenarioLimits.questionnaires) questionnaires, each {name: …, schedule: …}")
    }
    var parts: [SchedulePart] = []
    var names: [String] = []
    var resolved: [ScenarioValue] = []
    questionnaireNames = list.map { if case .scalar(let n, _)? = $0["name"] { n } else { "" } }
    defer { questionnaireNames = [] }
    for (i, item) in list.enumerated() {
      let q = try Reader(file: r.file, path: r.keyPath("questionnaires[\(i)]"), node: item, context: r.context)
      let name = try q.string("name", maxLength: 40)
      guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
        throw q.error("name", item["name"]?.location, "a questionnaire's name is 1 to 40 letters, digits, _ or - (it names its metrics and rows)")
      }
      guard !names.contains(name) else { throw q.error("name", item["name"]?.location, "two questionnaires are named '\(name)'") }
      names.append(name)
      let own = q.has("window") ? try checkedWindowPlan(q) : window
      guard q.has("schedule") else { throw q.error("schedule", nil, "is required (each questionnaire has its own schedule)") }
      guard var part = try scheduleParts(q, window: own, plan: plan).first else {
        throw q.error("schedule", item["schedule"]?.location, "a questionnaire needs a schedule (not none)")
      }
      if q.has("expiry") { part.expiry = try expiry(q, default: .standard) }
      if q.has("reminders") { part.reminders = try reminders(q, default: Reminders()) }
      let survey = try q.section("survey")
      part.survey = try surveyPlan(survey, id: name)
      try survey.finish()
      q.attach("survey", survey)
      try q.finish()
      resolved.append(q.resolvedValue)
      parts.append(part)
    }
    r.record("questionnaires", .sequence(resolved, at))
    return parts
  }

  /// The weekdays (`weekdays: [mon, …]`) and the every-N-days rhythm (`every_days`, counted
  /// from the study's first day) of a schedule section `s`, applied to `part`.
  func days(_ s: Reader, of part: SchedulePart) throws(ScenarioError) -> SchedulePart {
    var part = part
    part.everyDays = try s.integer("every_days", default: 1, range: 1...365)
    guard let list = try s.list("weekdays") else {
      s.record("weekdays", .sequence(Weekdays.names.map { .scalar($0, nil) }, nil))
      return part
    }
    var set = Set<Int>()
    for (text, l) in list {
      guard let d = Weekdays.index(of: text) else {
        throw s.error("weekdays", l, "expected weekday names (mon, tue, wed, thu, fri, sat, sun), found '\(text)'")
      }
      set.insert(d)
    }
    guard !set.isEmpty else { throw s.error("weekdays", nil, "expected at least one weekday") }
    part.weekdays = set.count == 7 ? nil : set
    return part
  }

  /// An event-contingent schedule's trigger: `trigger` (`phone_unlock`, `call_end`,
  /// `leaving_CONTEXT`, `entering_CONTEXT`, `joined`; a follow-up: `finished` or `notified`
  /// with `after`, the questionnaires whose answers or notifications cue it), `delay` (up to
  /// 12 hours; after joining and for a follow-up up to a year), `delay_max` (a delay drawn
  /// uniformly between the two), `probability`, `min_gap`, `max_per_day`.
  func eventTrigger(_ s: Reader, at: ScenarioValue.Location?) throws(ScenarioError) -> EventTrigger {
    let contexts = Context.allCases.map(\.description)
    let expected =
      "expected phone_unlock, call_end, joined, finished, notified, leaving_CONTEXT or entering_CONTEXT (contexts: \(contexts.joined(separator: ", ")))"
    guard let (text, l) = try s.scalar("trigger") else { throw s.error("trigger", at, "is required: \(expected)") }
    s.record("trigger", .scalar(text, l))
    let event: EventTrigger.Event
    func context(after prefix: String) -> Context? {
      Context.allCases.first { prefix + $0.description == text }
    }
    if text == "phone_unlock" {
      event = .phoneUnlock
    } else if text == "call_end" {
      event = .callEnd
    } else if text == "joined" {
      event = .joined
    } else if text == "finished" || text == "notified" {
      let sources = try followUpSources(s, trigger: text, at: l)
      event = text == "finished" ? .finished(sources) : .notified(sources)
    } else if let c = context(after: "leaving_") {
      event = .leaving(c)
    } else if let c = context(after: "entering_") {
      event = .entering(c)
    } else {
      throw s.error("trigger", l, "\(expected), found '\(text)'")
    }
    // Defaults (assumptions, D; [@movisensXS]): at once, every event,
    // no gap, at most 10 a day.
    let d = EventTrigger(event: event)
    let longest = event == .joined || d.isFollowUp ? 365 * Tick.day : 12 * Tick.hour
    let delay = try s.duration("delay", default: d.delay, range: 0...longest)
    let delayMax = try s.duration("delay_max", default: delay, range: 0...longest)
    if delayMax < delay {
      throw s.error("delay_max", s.raw("delay_max")?.location, "is shorter than delay (\(Units.formatDuration(delay)))")
    }
    return EventTrigger(
      event: event, delay: delay, delaySpread: delayMax - delay,
      probability: try s.share("probability", default: d.probability),
      minGap: try s.duration("min_gap", default: d.minGap, range: 0...(Tick.day)),
      maxPerDay: try s.integer("max_per_day", default: d.maxPerDay, range: 1...200))
  }

  /// A follow-up's `after`: the questionnaires (of `protocol.questionnaires`, its own
  /// included) whose answers (`finished`) or notifications (`notified`) cue it.
  func followUpSources(_ s: Reader, trigger: String, at l: ScenarioValue.Location?) throws(ScenarioError) -> Set<Int> {
    guard !questionnaireNames.isEmpty else {
      throw s.error("trigger", l, "\(trigger) is a follow-up of questionnaires: it needs protocol.questionnaires")
    }
    guard let list = try s.list("after"), !list.isEmpty else {
      throw s.error(
        "after", s.raw("after")?.location,
        "is required for trigger \(trigger): the questionnaires whose \(trigger == "finished" ? "answers" : "notifications") cue it (of \(questionnaireNames.joined(separator: ", ")))")
    }
    var sources = Set<Int>()
    for (name, at) in list {
      guard let k = questionnaireNames.firstIndex(of: name) else {
        throw s.error("after", at, "no questionnaire '\(name)' (expected one of \(questionnaireNames.joined(separator: ", ")))")
      }
      sources.insert(k)
    }
    return sources
  }
}
