import Presentation
import Study
import Foundation
import Scenarios
import SimKernel
import StudyModel
import Testing

@testable import Reporting

/// The pilot readers of `esmsim calibrate` read back what esmsim writes as AWARE rows and
/// Beiwe timings, and refuse malformed files with a located error.
@Suite("Pilot records: AWARE esms rows and Beiwe survey timings")
struct PilotReadTests {
  static let scenario = """
    name: pilot
    seed: 12
    duration: 7d
    population: {size: 25, os: {ios: 1}, devices: {non_controlled: 1}}
    protocol:
      window: "08:00-22:00"
      schedule: {algorithm: fixed-blocks, per_day: 5}
      expiry: 30m
      survey:
        id: esm
        items:
          - {id: mood, type: 6, title: "Mood"}
          - {id: place, type: 2, title: "Where", options: [home, work, elsewhere]}
    """

  static func simulated() throws -> (StudyPlan, [ParticipantOutcome]) {
    let plan = try Readers.scenario(Data(scenario.utf8), file: "pilot.yaml").variants[0].plan
    let outcomes = (0..<plan.participants).map {
      ParticipantSimulation.outcome(plan: plan, seed: 12, replication: 0, participant: UInt32($0))
    }
    return (plan, outcomes)
  }

  /// Writes rows with esmsim's own writer and returns the file's bytes.
  static func csv(header: [String], rows: [[String]]) throws -> Data {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("pilot-\(UUID().uuidString).csv").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let f = try CSVFile(path: path, header: header)
    for r in rows { try f.row(r) }
    try f.close()
    return try Data(contentsOf: URL(fileURLWithPath: path))
  }

  static let time = Timestamps(start: CalendarDate(iso: "2026-01-05")!)

  @Test("AWARE rows read back as one prompt per notification, with the simulated outcomes and times")
  func awareRoundTrip() throws {
    let (plan, outcomes) = try Self.simulated()
    var rows: [[String]] = []
    var next = 0
    var expected: [String: [PromptStatus]] = [:]
    for o in outcomes {
      let id = AWAREESMRows.deviceId(variant: 0, replication: 0, participant: o.participant)
      for p in o.prompts {
        let r = AWAREESMRows.rows(p, survey: plan.protocolPlan.survey, os: o.os, deviceId: id, time: Self.time, nextId: &next)
        if !r.isEmpty { expected[id, default: []].append(p.status) }
        rows += r
      }
    }
    let pilot = try PilotReaders.aware(try Self.csv(header: AWAREESMRows.header, rows: rows), file: "esms.csv")
    // Two items a prompt: half as many prompts as rows.
    #expect(pilot.prompts.count * 2 == rows.count)
    for (id, statuses) in expected {
      let read = pilot.prompts.filter { $0.participant == id }.map(\.outcome.rawValue)
      // A survey broken off part-way is recorded as every item dismissed (the plugin's form).
      #expect(read == statuses.map { $0 == .partial ? "dismissed" : $0.rawValue }, "\(id)")
    }
    #expect(pilot.prompts.allSatisfy { ($0.outcome == .answered) == ($0.submitted != nil) })
    #expect(pilot.prompts.filter { $0.outcome == .answered }.allSatisfy { $0.submitted! >= $0.shown })
  }

  @Test("Beiwe iOS timings read back as one prompt per notified, answered at submitted, expired at expired")
  func beiweRoundTrip() throws {
    let (plan, outcomes) = try Self.simulated()
    for o in outcomes.prefix(5) {
      let rows = o.prompts.flatMap {
        BeiweSurveys.timings($0, survey: plan.protocolPlan.survey, os: .ios, time: Self.time, expiry: plan.protocolPlan.expiry(ofSchedule: $0.schedule))
      }
      let pilot = try PilotReaders.beiweTimings(
        try Self.csv(header: BeiweSurveys.timingsHeader(.ios), rows: rows), file: "esm.csv", participant: "p\(o.participant)")
      let delivered = o.prompts.filter { $0.delivered >= 0 }
      #expect(pilot.prompts.count == delivered.count)
      for (read, p) in zip(pilot.prompts, delivered) {
        switch p.status {
        case .answered: #expect(read.outcome == .answered)
        case .expired: #expect(read.outcome == .expired)
        default: #expect(read.outcome == .unanswered)
        }
        #expect(read.shown == Self.time.unix(p.delivered))
        #expect((read.opened != nil) == (p.opened >= 0 && p.reached.isFinite))
      }
    }
  }

  @Test("malformed pilot files get one located error naming the file, the column and the line", arguments: [
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,7,1767600000000,0\n", "esmStatus", 2),
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,1,soon,0\n", "esmNotificationTime", 2),
    ("id,deviceId,timezone,esmStatus,esmAnswerTime\n1,a,0,1,0\n", "esmNotificationTime", 1),
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,1,1767600000000\n", "", 2),
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,\"a,0,1,1767600000000,0\n", "", 2),
    // Found by the reliability test: impossible records accepted silently before.
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,1,1767600000000,1767599000000\n", "esmAnswerTime", 2),
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,2,-5000,0\n", "esmNotificationTime", 2),
    ("id,deviceId,timezone,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,2,1767600,0\n", "esmNotificationTime", 2),
    ("id,deviceId,timezone,esmStatus,esmStatus,esmNotificationTime,esmAnswerTime\n1,a,0,2,2,1767600000000,0\n", "esmStatus", 1),
  ])
  func malformedAWARE(_ text: String, _ key: String, _ line: Int) {
    #expect {
      try PilotReaders.aware(Data(text.utf8), file: "esms.csv")
    } throws: { error in
      guard let e = error as? ScenarioError else { return false }
      return e.file == "esms.csv" && e.key == key && e.location?.line == line
    }
  }

  @Test("Beiwe: Android timings (no event column), events before any notification or over 5 minutes before their own are refused by name")
  func malformedBeiwe() throws {
    let android = "timestamp,question id,question type,question text,question answer options,answer\n1767600000000,,,,,\n"
    #expect(throws: ScenarioError.self) { try PilotReaders.beiweTimings(Data(android.utf8), file: "t.csv", participant: "a") }
    // Android's rows need not fit the header's shape (esmsim's own Android export): refused by
    // name for the missing event column, not for the row's fields.
    let ragged = "timestamp,UTC time,question id,survey id,question type,question text\n1767600000000,x\n"
    #expect {
      try PilotReaders.beiweTimings(Data(ragged.utf8), file: "t.csv", participant: "a")
    } throws: { ($0 as? ScenarioError)?.key == "event" && "\($0)".contains("Android") }
    // Another platform's file read as Beiwe's: not Beiwe's, not blamed on Android.
    let generic = "participant,scheduled,opened,submitted\na,2026-01-05T10:00:00,,\n"
    #expect {
      try PilotReaders.beiweTimings(Data(generic.utf8), file: "t.csv", participant: "a")
    } throws: { "\($0)".contains("not Beiwe's survey timings") && !"\($0)".contains("Android") }
    #expect {
      try PilotReaders.beiweTimings(Data(), file: "t.csv", participant: "a")
    } throws: { "\($0)".contains("empty") }
    let early = "timestamp,question id,question type,question text,question answer options,answer,event\n1767600000000,,,,,,submitted\n"
    #expect {
      try PilotReaders.beiweTimings(Data(early.utf8), file: "t.csv", participant: "a")
    } throws: { ($0 as? ScenarioError)?.location?.line == 2 && ($0 as? ScenarioError)?.key == "event" }
    // An event a second before its notification (a clock set back) is kept at it and counted,
    // as in the other formats; more than 5 minutes before is refused.
    let back = "timestamp,question id,question type,question text,question answer options,answer,event\n1767600002000,,,,,,notified\n1767600001000,,,,,,submitted\n"
    let kept = try PilotReaders.beiweTimings(Data(back.utf8), file: "t.csv", participant: "a")
    #expect(kept.prompts.first?.submitted == 1_767_600_002_000 && kept.adjusted.count == 1)
    let far = "timestamp,question id,question type,question text,question answer options,answer,event\n1767600400000,,,,,,notified\n1767600001000,,,,,,expired\n"
    #expect {
      try PilotReaders.beiweTimings(Data(far.utf8), file: "t.csv", participant: "a")
    } throws: { ($0 as? ScenarioError)?.key == "timestamp" }
  }

  @Test("a participant whose prompts span more than 366 days is refused at the line that passes it (one date in 2100 ran for minutes)")
  func span() throws {
    let header = "timestamp,question id,question type,question text,question answer options,answer,event\n"
    let a = try PilotReaders.beiweTimings(Data((header + "1767600000000,,,,,,notified\n").utf8), file: "a.csv", participant: "p")
    let b = try PilotReaders.beiweTimings(Data((header + "4099680000000,,,,,,notified\n").utf8), file: "b.csv", participant: "p")
    let pilot = Pilot(merging: [a, b])
    #expect {
      try pilot.checkLimits()
    } throws: { error in
      guard let e = error as? ScenarioError else { return false }
      return e.file == "b.csv" && e.location?.line == 2 && e.message.contains("at most 366 days")
    }
    // Another participant's dates do not count against this one.
    let other = try PilotReaders.beiweTimings(Data((header + "4099680000000,,,,,,notified\n").utf8), file: "c.csv", participant: "q")
    try Pilot(merging: [a, other]).checkLimits()
  }
}
