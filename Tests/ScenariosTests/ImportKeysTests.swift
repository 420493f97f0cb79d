import Foundation
import Schedules
import Testing

@testable import Scenarios

/// What the protocol importers passed over without a word: a misspelt key below a PACO group
/// or an ESMira questionnaire (its default used instead), Beiwe timings outside the study,
/// Beiwe's audio surveys, and AWARE hours whose randomize crosses midnight.
@Suite("Importers: every key read or named, audio surveys, midnight")
struct ImportKeysTests {
  static let start = CalendarDate(iso: "2026-01-05")!

  @Test("PACO: a key that is not one of PACO's schedule, signal time, trigger or action is warned about by name; its own ones are not")
  func pacoKeys() throws {
    func warnings(_ trigger: String) throws -> [String] {
      let json = "{\"groups\": [{\"name\": \"g\", \"actionTriggers\": [\(trigger)]}]}"
      let p = try PACOExperimentImport.read(
        ScenarioLoader.parse(Data(json.utf8), file: "p.json", nullAsText: true), file: "p.json", startDate: Self.start, days: 14)
      return p.warnings.map(\.key)
    }
    let k = "groups[0].actionTriggers[0]"
    // esmFrequncy for esmFrequency gave 3 a day, timeOut for timeout 59 minutes, unsaid.
    #expect(
      try warnings(
        #"{"type": "scheduleTrigger", "bogusKey": 1, "schedules": [{"scheduleType": 4, "esmFrequncy": 10, "esmWeekends": true}], "actions": [{"actionCode": 1, "timeOut": 5}]}"#
      ) == ["\(k).bogusKey", "\(k).actions[0].timeOut", "\(k).schedules[0].esmFrequncy"])
    // PACO's own keys, read or not, as Jackson writes them (nameOfClass included): no warning.
    #expect(
      try warnings(
        #"{"type": "scheduleTrigger", "id": 3, "nameOfClass": "ScheduleTrigger", "schedules": [{"scheduleType": 0, "id": 4, "repeatRate": 1, "joinDateMillis": 0, "nameOfClass": "Schedule", "signalTimes": [{"type": 0, "fixedTimeMillisFromMidnight": 43200000, "basis": 0, "label": "noon", "nameOfClass": "SignalTime"}]}], "actions": [{"type": "pacoNotificationAction", "actionCode": 1, "timeout": 30, "snoozeTimeInMinutes": 10, "color": 0, "dismissible": true, "msgText": "Time"}]}"#
      ).isEmpty)
    // A schedule's own begin date is PACO's, and not simulated: said.
    #expect(
      try warnings(#"{"type": "scheduleTrigger", "schedules": [{"scheduleType": 0, "beginDate": 1767571200000, "signalTimes": [{"fixedTimeMillisFromMidnight": 43200000}]}]}"#)
        == ["\(k).schedules[0].beginDate"])
  }

  @Test("ESMira: a misspelt key of a signal time or an invitation is warned about by name")
  func esmiraKeys() throws {
    func warnings(signal: String, action: String) throws -> [String] {
      let study = """
        {"title": "t", "questionnaires": [{"title": "q", "pages": [{"inputs": [{"name": "mood"}]}],
          "actionTriggers": [{"actions": [\(action)], "schedules": [{"userEditable": false, "signalTimes": [\(signal)]}]}]}]}
        """
      return try ESMiraStudyImport.read(ScenarioLoader.parse(Data(study.utf8), file: "e.json", nullAsText: true), file: "e.json", days: 14)
        .warnings.map(\.key)
    }
    let t = "questionnaires[0].actionTriggers[0]"
    #expect(
      try warnings(
        signal: #"{"startTimeOfDay": 32400000, "endTimeOfDay": 72000000, "random": true, "frequncy": 6}"#,
        action: #"{"type": 1, "timeout": 30, "reminderCount": 3}"#) == ["\(t).actions[0].reminderCount", "\(t).schedules[0].signalTimes[0].frequncy"])
    #expect(
      try warnings(
        signal: #"{"startTimeOfDay": 32400000, "endTimeOfDay": 72000000, "random": true, "frequency": 6, "minutesBetween": 60}"#,
        action: #"{"type": 1, "timeout": 30, "reminder_count": 3, "reminder_delay_minu": 5, "msgText": "Now"}"#
      ).isEmpty)
  }

  @Test("Beiwe: absolute timings outside the study's days are counted in a warning; an audio survey (content: a prompt) is one answer, said")
  func beiwe() throws {
    let json = """
      {"surveys": [
        {"name": "s", "survey_type": "tracking_survey", "content": [{"question_id": "q", "question_type": "slider", "min": 0, "max": 10}],
         "absolute_timings": [[2026, 1, 6, 43200], [2026, 3, 1, 43200], [2025, 12, 1, 43200]]},
        {"name": "voice", "survey_type": "audio_survey", "content": [{"prompt": "Describe your day"}],
         "timings": [[], [72000], [], [], [], [], []]}]}
      """
    let p = try BeiweStudyImport.read(ScenarioLoader.parse(Data(json.utf8), file: "b.json", nullAsText: true), file: "b.json", startDate: Self.start, days: 7)
    let outside = try #require(p.warnings.first { $0.key == "surveys[0].absolute_timings" })
    #expect(outside.message.hasPrefix("2 of 3 fall outside the study's 7 days"), "\(outside.message)")
    #expect(p.parts.filter { $0.survey?.id == "s" }.map(\.days) == [1...1])
    let voice = try #require(p.parts.first { $0.survey?.id == "voice" }?.survey)
    #expect(voice.items.count == 1 && voice.items[0].title == "Describe your day")
    #expect(p.warnings.contains { $0.key == "surveys[1].content" })
  }

  @Test("AWARE: the last hour ± randomize runs past midnight as the plugin fires it; a first hour's reaching the day before is refused by name")
  func awareMidnight() throws {
    let schedule = { (hours: String, randomize: Int) in
      #"[{"schedule_id": "s", "hours": \#(hours), "start_date": "01-01-2026", "end_date": "12-31-2026", "expiration": 0, "randomize": \#(randomize), "notification_title": "t", "notification_body": "b", "esms": [{"esm": {"esm_type": 1}}]}]"#
    }
    let late = try AWAREScheduleImport.load(data: Data(schedule("[21, 23]", 60).utf8), file: "a.json", startDate: Self.start, days: 7)
    guard case .fixed(let w, _) = late.parts[0].window else {
      Issue.record("not a fixed window: \(late.parts[0].window)")
      return
    }
    #expect(w.start == ClockTime("20:00")! && w.length == 4 * 60 + 1)
    #expect(throws: Never.self) { _ = try AnyScheduler(.fixedTimes, late.parts[0].choice!.parameters, window: w) }
    do {
      _ = try AWAREScheduleImport.load(data: Data(schedule("[0, 12]", 5).utf8), file: "a.json", startDate: Self.start, days: 7)
      Issue.record("hour 0 ± 5 accepted")
    } catch {
      #expect(error.key == "[0].randomize" && error.message.contains("before midnight"), "\(error)")
    }
  }
}
