import Foundation
import Schedules
import SimKernel
import StudyModel

/// Reads a Beiwe study's surveys and settings (the JSON its website exports: `surveys[]`,
/// `device_settings`, `interventions`, `study_time_zone`; beiwe-backend
/// `copy_study_helpers.format_study`, [@BeiweBackend]).
///
/// Each survey (`tracking_survey`, or `audio_survey`, prompted alike) becomes a questionnaire
/// named by its `name` (or `object_id`), with its `content` as items. Its weekly `timings` —
/// seven lists, Sunday first, of seconds after midnight in the study's time zone — become
/// one fixed-times schedule per weekday; its `absolute_timings` (`[year, month, day,
/// seconds]`) fixed times on those study days. Surveys are pushed by the server. What Beiwe
/// does and esmsim does not simulate is warned about by key: `relative_timings` (after a
/// participant's intervention date), `trigger_on_first_download`, and Beiwe's lack of an
/// expiry (a survey stays available until answered: esmsim's `never`, unless the scenario
/// sets `protocol.expiry`).
enum BeiweStudyImport {
  static func load(data: Data, file path: String, startDate: CalendarDate, days: Int) throws(ScenarioError) -> ImportedProtocol {
    try read(ScenarioLoader.parse(data, file: path, nullAsText: true), file: path, startDate: startDate, days: days)
  }

  /// Reads a study's tree (`file` names it in errors) for a study of `days` days from
  /// `startDate`.
  static func read(_ root: ScenarioValue, file path: String, startDate: CalendarDate, days: Int) throws(ScenarioError)
    -> ImportedProtocol
  {
    var json = JSONFields(file: path)
    guard case .mapping = root else { throw json.fail("", root.location, "a Beiwe study export is a JSON object") }
    var parts: [SchedulePart] = []
    var surveys: [SurveyPlan] = []
    for (si, survey) in try json.list(root["surveys"], "surveys").enumerated() {
      let k = "surveys[\(si)]"
      guard case .mapping = survey else { throw json.fail(k, survey.location, "a survey is a JSON object") }
      let type = json.text(survey["survey_type"]) ?? "tracking_survey"
      guard type == "tracking_survey" || type == "audio_survey" else {
        throw json.fail(k + ".survey_type", survey["survey_type"]?.location, "expected tracking_survey or audio_survey")
      }
      let name = [json.text(survey["name"]), json.text(survey["object_id"])].compactMap { $0 }.first { !$0.isEmpty } ?? "survey\(si)"
      let plan = SurveyPlan(
        id: name, title: name, items: type == "audio_survey" ? try audioItems(survey["content"], k, &json) : try items(survey["content"], k, &json))
      if json.flag(survey["settings"]?["trigger_on_first_download"]) {
        json.warn(k + ".settings.trigger_on_first_download", "a survey shown when first downloaded is not simulated")
      }
      if json.flag(survey["settings"]?["randomize"]) {
        json.warn(k + ".settings.randomize", "asking a random selection of the questions in a random order is not simulated: every question is asked, in order")
      }
      if json.flag(survey["settings"]?["always_available"]) {
        json.warn(k + ".settings.always_available", "a survey a participant may open at any time is not simulated: its answers come only from its timings")
      }
      if !(try json.list(survey["relative_timings"], k + ".relative_timings")).isEmpty {
        json.warn(k + ".relative_timings", "timings relative to a participant's intervention date are not simulated")
      }
      let own =
        try weeklyTimings(survey, k, &json)
        + absoluteTimings(survey, k, startDate: startDate, days: days, &json)
      for var part in own {
        part.survey = plan
        parts.append(part)
      }
      surveys.append(plan)
    }
    guard !parts.isEmpty else {
      throw json.fail("surveys", root.location, "no survey has weekly or absolute timings in the study's days: nothing to simulate")
    }
    let streams = Self.passiveStreams.filter { json.flag(root["device_settings"]?[$0]) }
    if !streams.isEmpty {
      json.warn(
        "device_settings", "the passive data streams it turns on (\(streams.joined(separator: ", "))) are not read: protocol.sensors simulates sensors")
    }
    if root["device_settings"]?["resend_period_minutes"] != nil {
      json.warn("device_settings.resend_period_minutes", "resending survey pushes an iPhone has not confirmed is not simulated")
    }
    json.warn("surveys", "Beiwe sets no expiry: a survey stays available until answered (never), unless protocol.expiry is set")
    var imported = ImportedProtocol(
      parts: parts, survey: parts[0].survey ?? surveys[0], channelPreset: "push", expiry: .never, reminders: Reminders(),
      warnings: json.warnings)
    if let zone = json.text(root["study_time_zone"]), !ScenarioResolver.knows(zone) {
      throw json.fail(
        "study_time_zone", root["study_time_zone"]?.location,
        "'\(zone.prefix(100))' is not a time zone of the IANA database (for example Europe/London, America/New_York, UTC)")
    }
    imported.serverTimeZone = json.text(root["study_time_zone"])
    return imported
  }

  /// The whole day, the window of Beiwe's timings.
  static let day = try! Window(start: ClockTime(minutes: 0), length: 1440)

  /// A survey's weekly timings: seven lists (Sunday first) of seconds after midnight, each
  /// weekday's times one part.
  static func weeklyTimings(_ survey: ScenarioValue, _ k: String, _ json: inout JSONFields) throws(ScenarioError) -> [SchedulePart] {
    var own: [SchedulePart] = []
    let weeks = try json.list(survey["timings"], k + ".timings")
    guard weeks.isEmpty || weeks.count == 7 else {
      throw json.fail(k + ".timings", survey["timings"]?.location, "expected seven lists (Sunday first) of seconds after midnight")
    }
    for (column, list) in weeks.enumerated() {
      var times: [ClockTime] = []
      for (ti, t) in try json.list(list, "\(k).timings[\(column)]").enumerated() {
        let seconds = try json.number(t, "\(k).timings[\(column)][\(ti)]", default: -1, range: 0...86_399)
        times.append(ClockTime(minutes: (seconds / 60).rounded(.down)))
      }
      guard !times.isEmpty else { continue }
      own.append(
        SchedulePart(
          ScheduleChoice(.fixedTimes, ScheduleParameters(times: times.sorted { $0.minutes < $1.minutes })),
          window: .fixed(weekday: day, weekend: day), weekdays: [Weekdays.fromSundayFirst(column)]))
    }
    return own
  }

  /// A survey's absolute timings: one date and time each, a part on that study day (none
  /// outside the study's `days` from `startDate`).
  static func absoluteTimings(
    _ survey: ScenarioValue, _ k: String, startDate: CalendarDate, days: Int, _ json: inout JSONFields
  ) throws(ScenarioError) -> [SchedulePart] {
    var own: [SchedulePart] = []
    var outside = 0
    let timings = try json.list(survey["absolute_timings"], k + ".absolute_timings")
    defer {
      if outside > 0 {
        json.warn(
          k + ".absolute_timings",
          "\(outside) of \(timings.count) fall outside the study's \(days) days from \(startDate) and are not simulated")
      }
    }
    for (ai, a) in timings.enumerated() {
      let ak = "\(k).absolute_timings[\(ai)]"
      let fields = try json.list(a, ak)
      guard fields.count == 4 else { throw json.fail(ak, a.location, "expected [year, month, day, seconds after midnight]") }
      let y = try json.whole(fields[0], ak + "[0]", default: 0, range: 1970...2200)
      let m = try json.whole(fields[1], ak + "[1]", default: 0, range: 1...12)
      let d = try json.whole(fields[2], ak + "[2]", default: 0, range: 1...31)
      let seconds = try json.number(fields[3], ak + "[3]", default: 0, range: 0...86_399)
      guard let date = CalendarDate(year: y, month: m, day: d) else { throw json.fail(ak, a.location, "not a calendar date") }
      let studyDay = date.daysSinceEpoch - startDate.daysSinceEpoch
      guard studyDay >= 0 && studyDay < days else {
        outside += 1
        continue
      }
      own.append(
        SchedulePart(
          ScheduleChoice(.fixedTimes, ScheduleParameters(times: [ClockTime(minutes: (seconds / 60).rounded(.down))])),
          window: .fixed(weekday: day, weekend: day), days: studyDay...studyDay))
    }
    return own
  }

  /// The passive data streams a Beiwe study's `device_settings` turns on.
  static let passiveStreams = [
    "accelerometer", "gps", "calls", "texts", "wifi", "bluetooth", "power_state", "proximity", "gyro", "magnetometer",
    "devicemotion", "reachability", "ambient_audio",
  ]

  /// An audio survey's one recording (Beiwe's `content` holds its `prompt`), simulated as one
  /// free-text answer, and said so.
  static func audioItems(_ v: ScenarioValue?, _ k: String, _ json: inout JSONFields) throws(ScenarioError) -> [SurveyItem] {
    let prompt = try json.list(v, k + ".content").first.flatMap { json.text($0["prompt"]) } ?? ""
    json.warn(k + ".content", "an audio survey's recording is simulated as one free-text answer")
    return [SurveyItem(id: "recording", type: 1, title: prompt, instructions: "")]
  }

  /// A survey's questions as items: sliders as scales in their range, radio buttons and
  /// checkboxes with their answers, free responses as text (numeric ones as numbers); info
  /// text boxes are not questions.
  static func items(_ v: ScenarioValue?, _ k: String, _ json: inout JSONFields) throws(ScenarioError) -> [SurveyItem] {
    var out: [SurveyItem] = []
    for (i, q) in try json.list(v, k + ".content").enumerated() {
      let qk = "\(k).content[\(i)]"
      let id = json.text(q["question_id"]) ?? "question\(i)"
      let title = json.text(q["question_text"]) ?? ""
      let options = try json.list(q["answers"], qk + ".answers").compactMap { json.text($0["text"]) }
      if let condition = q["display_if"], !["", "null", "~"].contains(json.text(condition) ?? "a condition") {
        json.warn(qk + ".display_if", "shown by a condition in Beiwe; esmsim asks it every time")
      }
      switch json.text(q["question_type"]) ?? "" {
      case "info_text_box": continue
      case "slider":
        let lo = try json.whole(q["min"], qk + ".min", default: 0, range: -1_000_000...1_000_000)
        let hi = try json.whole(q["max"], qk + ".max", default: 100, range: -1_000_000...1_000_000)
        guard lo < hi else { throw json.fail(qk + ".max", q["max"]?.location, "the slider's max must be above its min") }
        out.append(SurveyItem(id: id, type: 6, title: title, instructions: "", scale: lo...hi))
      case "radio_button": out.append(SurveyItem(id: id, type: 2, title: title, instructions: "", options: options))
      case "checkbox": out.append(SurveyItem(id: id, type: 3, title: title, instructions: "", options: options))
      case "free_response":
        out.append(SurveyItem(id: id, type: json.text(q["text_field_type"]) == "NUMERIC" ? 9 : 1, title: title, instructions: ""))
      case let other:
        throw json.fail(qk + ".question_type", q["question_type"]?.location, "expected info_text_box, slider, radio_button, checkbox or free_response, found '\(other)'")
      }
    }
    return out.isEmpty ? SurveyPlan().items : out
  }
}
