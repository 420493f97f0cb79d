import Foundation
import Testing

@testable import Scenarios

/// What a file can make large: every count is held by its type or refused by key with a
/// located error, and the simulation never meets what it would trap on (issue "Nothing lost,
/// nothing crashes"). Each test here failed before its fix: the 257-schedule imports trapped
/// (a schedule index in 8 bits), 1,001 variants and 4,000 AWARE schedules were read whole.
@Suite("Limits: counts a file can make large")
struct LimitTests {
  /// An ESMira study with `n` fixed signal times of one questionnaire (each its own schedule),
  /// from the join day (`startDayOne` false).
  static func esmira(signalTimes n: Int) -> Data {
    let times = (0..<n).map { #"{"startTimeOfDay": \#(21_600_000 + $0 * 60_000), "random": false}"# }.joined(separator: ",")
    return Data(
      """
      {"id": 1, "title": "Many", "questionnaires": [{"title": "Mood",
        "pages": [{"inputs": [{"name": "mood", "text": "How do you feel?", "responseType": "likert"}]}],
        "actionTriggers": [{"actions": [{"type": 1, "msgText": "Now", "timeout": 30}],
          "schedules": [{"dailyRepeatRate": 1, "weekdays": 0, "startDayOne": false, "signalTimes": [\(times)]}]}]}]}
      """.utf8)
  }

  /// A PACO experiment with `n` survey groups, each at a fixed time.
  static func paco(groups n: Int) -> Data {
    let groups = (0..<n).map { i in
      #"{"name": "g\#(i)", "groupType": "SURVEY", "inputs": [{"name": "q", "text": "Now?", "responseType": "likert", "likertSteps": 5}], "actionTriggers": [{"type": "scheduleTrigger", "schedules": [{"scheduleType": 0, "repeatRate": 1, "signalTimes": [{"type": 0, "fixedTimeMillisFromMidnight": \#(21_600_000 + i * 60_000)}]}], "actions": [{"type": "pacoNotificationAction", "actionCode": 1, "timeout": 15}]}]}"#
    }.joined(separator: ",")
    return Data(#"{"title": "Many", "groups": [{"name": "SYSTEM", "groupType": "SYSTEM", "actionTriggers": []}, \#(groups)]}"#.utf8)
  }

  /// A Beiwe study with `n` surveys, each weekly at its own second of Monday.
  static func beiwe(surveys n: Int, zone: String = "UTC") -> Data {
    let surveys = (0..<n).map { i in
      #"{"name": "s\#(i)", "survey_type": "tracking_survey", "content": [{"question_id": "q", "question_text": "Now?", "question_type": "slider", "min": "1", "max": "7"}], "settings": {}, "timings": [[], [\#(21_600 + i * 60)], [], [], [], [], []], "absolute_timings": [], "relative_timings": []}"#
    }.joined(separator: ",")
    return Data(#"{"surveys": [\#(surveys)], "study_time_zone": "\#(zone)"}"#.utf8)
  }

  static func scenario(_ key: String) -> Data {
    Data("name: many\nduration: 7d\nprotocol: {\(key): study.json}\n".utf8)
  }

  @Test(
    "257 schedules (ESMira signal times, PACO groups, Beiwe surveys) are simulated: one past 8 bits",
    arguments: ["esmira_study", "paco_experiment", "beiwe_study"])
  func pastEightBits(key: String) throws {
    let file: Data
    switch key {
    case "esmira_study": file = Self.esmira(signalTimes: 257)
    case "paco_experiment": file = Self.paco(groups: 257)
    default: file = Self.beiwe(surveys: 257)
    }
    let s = try Readers.scenario(Self.scenario(key), file: "s.yaml", uploads: ["study.json": file])
    #expect(s.variants[0].plan.protocolPlan.schedules.count == 257)
    // The one participant-day reaches prompts of schedule 256 (the 257th); trapped before.
    let prompts = try Readers.simulateOneDay(Self.scenario(key), file: "s.yaml", uploads: ["study.json": file])
    #expect(prompts >= 200)
  }

  @Test("1,001 schedules are refused by the import key with the stated limit; 1,000 are read")
  func scheduleLimit() throws {
    let over = #expect(throws: ScenarioError.self) {
      try Readers.scenario(Self.scenario("esmira_study"), file: "s.yaml", uploads: ["study.json": Self.esmira(signalTimes: 1_001)])
    }
    #expect(over?.key == "protocol.esmira_study" && over?.location != nil, "\(String(describing: over))")
    #expect(over?.message.contains("at most \(ScenarioLimits.schedules)") == true)
    let s = try Readers.scenario(Self.scenario("esmira_study"), file: "s.yaml", uploads: ["study.json": Self.esmira(signalTimes: 1_000)])
    #expect(s.variants[0].plan.protocolPlan.schedules.count == 1_000)
  }

  @Test("an AWARE file of 4,000 schedules is refused before they are read one by one")
  func awareSchedules() throws {
    let one = #"{"schedule_id": "s", "hours": [9], "esms": [{"esm": {"esm_type": 1, "esm_title": "Now?", "esm_trigger": "t"}}]}"#
    let file = Data(("[" + Array(repeating: one, count: 4_000).joined(separator: ",") + "]").utf8)
    let error = #expect(throws: ScenarioError.self) {
      try Readers.scenario(Self.scenario("aware_schedule"), file: "s.yaml", uploads: ["study.json": file])
    }
    #expect(error?.file == "study.json" && error?.message.contains("4000 schedules") == true, "\(String(describing: error))")
  }

  @Test("an AWARE schedule of 1,441 jittered hours (1,441 signals a day) is refused at the import key; 1,440 are not")
  func signalsPerDay() throws {
    func file(_ n: Int) -> Data {
      let hours = Array(repeating: "9", count: n).joined(separator: ",")
      return Data(#"[{"schedule_id": "s", "hours": [\#(hours)], "randomize": 1, "esms": [{"esm": {"esm_type": 1, "esm_title": "Now?", "esm_trigger": "t"}}]}]"#.utf8)
    }
    let error = #expect(throws: ScenarioError.self) {
      try Readers.scenario(Self.scenario("aware_schedule"), file: "s.yaml", uploads: ["study.json": file(1_441)])
    }
    #expect(error?.key == "protocol.aware_schedule" && error?.message.contains("1441 clock signals on its busiest day") == true, "\(String(describing: error))")
    #expect(throws: Never.self) { try Readers.scenario(Self.scenario("aware_schedule"), file: "s.yaml", uploads: ["study.json": file(1_440)]) }
  }

  @Test("1,001 variants are refused at the variants key; 1,000 are not")
  func variantLimit() throws {
    func text(_ n: Int) -> Data {
      Data(("name: v\nduration: 1d\npopulation: {size: 1}\nvariants:\n" + (0..<n).map { "  - {name: v\($0)}\n" }.joined()).utf8)
    }
    let error = #expect(throws: ScenarioError.self) { try Readers.scenario(text(1_001)) }
    #expect(error?.key == "variants" && error?.message.contains("at most \(ScenarioLimits.variants)") == true)
    #expect(try Readers.scenario(text(1_000)).variants.count == 1_000)
  }

  @Test("a YAML merge key is refused by name, where it is written (it was an unknown key '<<')")
  func mergeKey() throws {
    let text = "name: m\nduration: 1d\nbase: &b {window: \"09:00-21:00\"}\npopulation: {size: 1}\nprotocol:\n  <<: *b\n"
    let error = #expect(throws: ScenarioError.self) { try Readers.scenario(Data(text.utf8)) }
    #expect(error?.message.contains("a YAML merge key (<<) is not read") == true && error?.location?.line == 6, "\(String(describing: error))")
  }

  @Test("a Beiwe study's unknown time zone is blamed on the Beiwe file, where it is written")
  func beiweZone() throws {
    let error = #expect(throws: ScenarioError.self) {
      try Readers.scenario(Self.scenario("beiwe_study"), file: "s.yaml", uploads: ["study.json": Self.beiwe(surveys: 1, zone: "Mars/Olympus")])
    }
    #expect(error?.file == "study.json" && error?.key == "study_time_zone" && error?.location != nil, "\(String(describing: error))")
  }

  @Test("a value given on the command line is located there, not at a line of the file")
  func commandLineLocation() throws {
    let tree = ScenarioOverrides(duration: "0d").applied(to: try ScenarioLoader.parse(Data("name: x\nduration: 14d\n".utf8), file: "x.yaml"))
    let error = #expect(throws: ScenarioError.self) { try ScenarioResolver.resolve(tree, file: "x.yaml") }
    #expect(error?.description == "x.yaml: duration (given on the command line): must be between 1d and 3650d, not 0d")
  }

  @Test("too many plain values are not blamed on aliases; expanding aliases are")
  func nodeCount() throws {
    var limits = ScenarioLoader.Limits()
    limits.nodes = 1_000
    let plain = "name: x\nextra:\n" + (0..<1_200).map { "  k\($0): v\n" }.joined()
    let error = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(Data(plain.utf8), file: "x.yaml", limits: limits) }
    #expect(error?.message.contains("alias") == false && error?.message.contains("at most 1000") == true, "\(String(describing: error))")
    let laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
    let aliased = #expect(throws: ScenarioError.self) { try ScenarioLoader.parse(Data(laughs.utf8), file: "x.yaml", limits: limits) }
    #expect(aliased?.message.contains("aliases") == true, "\(String(describing: aliased))")
  }
}
