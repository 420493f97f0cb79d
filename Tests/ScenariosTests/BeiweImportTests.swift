import Foundation
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

/// A scenario starting 2026-01-05 whose protocol is `protocolLine` (an imported file among
/// the fixtures), with `population` and `duration`.
func importing(_ protocolLine: String, population: String, duration: String) throws(ScenarioError) -> Scenario {
  let file = fixtures.appendingPathComponent("s.yaml").path
  let text = "name: t\nstart_date: 2026-01-05\nduration: \(duration)\npopulation: \(population)\nprotocol: \(protocolLine)\n"
  return try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: file), file: file)
}

/// Beiwe study exports as beiwe-backend writes them ([@BeiweBackend]).
@Suite("Beiwe study exports")
struct BeiweImportTests {
  static func scenario(_ protocolLine: String, zone: String = "America/New_York") throws(ScenarioError) -> Scenario {
    try importing(protocolLine, population: "{size: 20, time_zones: {\(zone): 1}}", duration: "14d")
  }

  @Test("weekly timings (Sunday first) on their weekdays, absolute timings on their day, pushed, never expiring; warnings by key")
  func timings() throws {
    let s = try Self.scenario("{beiwe_study: beiwe-study.json}")
    let plan = s.variants[0].plan
    let p = plan.protocolPlan
    #expect(p.serverZone.name == "America/New_York")
    #expect(p.questionnaires == ["daily", "weekly"])
    #expect(p.channel.kind == .push)
    #expect(p.expiry == .never)
    #expect(p.survey(ofSchedule: 0).items.map(\.id) == ["mood", "where", "steps"])
    #expect(p.survey(ofSchedule: 0).items.map(\.type) == [6, 2, 9] && p.survey(ofSchedule: 0).items[0].scale == 1...7)
    #expect(
      s.warnings.map(\.key) == [
        "surveys[0].settings.trigger_on_first_download", "surveys[1].relative_timings", "device_settings.resend_period_minutes",
        "surveys",
      ])
    for k in 0..<plan.participants {
      let o = ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: UInt32(k))
      for d in 0..<plan.days {
        let weekday = (plan.startWeekday + d) % 7
        let daily = o.prompts.filter { $0.day == d && p.survey(ofSchedule: $0.schedule).id == "daily" }
          .map { ($0.scheduled % Tick.day) / Tick.minute }
        let weekly = o.prompts.filter { $0.day == d && p.survey(ofSchedule: $0.schedule).id == "weekly" }
          .map { ($0.scheduled % Tick.day) / Tick.minute }
        // 09:00 and 17:00 Monday to Friday; 12:00 on 2026-01-10 (day 5, a Saturday).
        var expected: [SimTime] = weekday < 5 ? [9 * 60, 17 * 60] : []
        if d == 5 { expected.append(12 * 60) }
        #expect(daily.sorted() == expected, "participant \(k) day \(d)")
        #expect(weekly == (weekday == 6 ? [19 * 60] : []), "participant \(k) day \(d)")
      }
    }
  }

  @Test("the study's time zone is the server's: participants in London get New York's 09:00 at 14:00 in January")
  func studyTimeZone() throws {
    let plan = try Self.scenario("{beiwe_study: beiwe-study.json}", zone: "Europe/London").variants[0].plan
    let o = ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: 0)
    // Monday 2026-01-05: 09:00 and 17:00 in New York (UTC−5) are 14:00 and 22:00 in London (UTC+0).
    let monday = o.prompts.filter { $0.day == 0 }.map { ($0.scheduled % Tick.day) / Tick.minute }
    #expect(monday == [14 * 60, 22 * 60])
  }

  @Test("random questions, an always-available survey, a question's display condition and passive streams are warned about by key")
  func unsimulatedSettings() throws {
    let json = """
      {"surveys": [{"name": "s", "settings": {"randomize": true, "number_of_random_questions": 1, "always_available": true},
        "content": [{"question_id": "mood", "question_type": "slider", "min": 0, "max": 10},
                    {"question_id": "why", "question_type": "free_response", "display_if": {"<": ["mood", 2]}},
                    {"question_id": "note", "question_type": "free_response", "display_if": null}],
        "timings": [[], [32400], [], [], [], [], []]}],
       "device_settings": {"gps": true, "accelerometer": true, "calls": false}}
      """
    let p = try BeiweStudyImport.read(ScenarioLoader.parse(Data(json.utf8), file: "b.json", nullAsText: true), file: "b.json", startDate: .defaultStart, days: 14)
    #expect(
      p.warnings.map(\.key) == [
        "surveys[0].content[1].display_if", "surveys[0].settings.randomize", "surveys[0].settings.always_available", "device_settings",
        "surveys",
      ])
    #expect(p.warnings.first { $0.key == "device_settings" }!.message.contains("(accelerometer, gps)"))
  }

  @Test("a malformed export is refused by key")
  func refusals() {
    func key(_ json: String) -> String? {
      do {
        _ = try Readers.beiweStudy(Data(json.utf8), file: "b.json")
        return nil
      } catch { return error.key }
    }
    #expect(key("{\"surveys\": [{\"timings\": [[1], [2]]}]}") == "surveys[0].timings")
    #expect(key("{\"surveys\": [{\"timings\": [[90000], [], [], [], [], [], []]}]}") == "surveys[0].timings[0][0]")
    #expect(key("{\"surveys\": [{\"survey_type\": \"image_survey\"}]}") == "surveys[0].survey_type")
    #expect(key("{\"surveys\": [{\"content\": [{\"question_type\": \"dial\"}], \"timings\": [[1], [], [], [], [], [], []]}]}") == "surveys[0].content[0].question_type")
    #expect(key("{\"surveys\": [{\"absolute_timings\": [[2026, 2, 30, 0]]}]}") == "surveys[0].absolute_timings[0]")
    #expect(key("{\"surveys\": []}") == "surveys")
    #expect(key("[]") == "")
  }
}
