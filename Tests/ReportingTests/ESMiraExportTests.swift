import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel
import Testing

@testable import Reporting

/// ESMira's export written as ESMira-web stores it, read back by the ESMira pilot reader.
@Suite("ESMira's export: the round trip through the pilot reader")
struct ESMiraExportTests {
  static func export(missed: Bool) throws -> (outcomes: [ParticipantOutcome], pilot: Result<Pilot, any Error>, folder: String, ios: Set<String>) {
    let text = """
      name: esmira export
      seed: 3
      duration: 5d
      population: {size: 24, os: {ios: 0.5, android: 0.5}}
      protocol:
        window: "09:00-21:00"
        schedule: {algorithm: fixed-blocks, per_day: 5, min_gap: 60m, gap_method: truncation}
        expiry: 30m
      """
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "e.yaml"), file: "e.yaml")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-esmira-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let folder = RunFolder(dir, scenario: scenario)
    let keep = OutcomeCollector()
    _ = try StudySimulation.simulate(
      scenario, options: .init(threads: 2), observers: [keep, try ESMiraExportOutput(folder, missed: missed)])
    let base = dir + "/esmira/v1-r1/"
    let files = try FileManager.default.contentsOfDirectory(atPath: base).sorted().map { (file: $0, data: FileManager.default.contents(atPath: base + $0)!) }
    let ios = Set(keep.outcomes.filter { $0.os == .ios }.map { ESMiraExportOutput.userId($0.participant) })
    return (keep.outcomes, Result { try PilotReaders.esmira(files) }, dir, ios)
  }

  @Test("with invitation_missed: every prompt read back, answered as simulated, opened at the simulated moment; the file as ESMira-web writes it")
  func roundTrip() throws {
    let (outcomes, result, dir, _) = try Self.export(missed: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let pilot = try result.get()
    let prompts = outcomes.flatMap(\.prompts)
    #expect(pilot.prompts.count == prompts.count)
    #expect(pilot.prompts.filter { $0.outcome == .answered }.count == prompts.filter { $0.status == .answered }.count)
    // Each participant's answered prompts opened when simulated (milliseconds since 1970).
    let time = Timestamps(start: CalendarDate.defaultStart)
    for o in outcomes {
      let user = ESMiraExportOutput.userId(o.participant)
      let read = pilot.prompts.filter { $0.participant == user && $0.outcome == .answered }.compactMap(\.opened).sorted()
      let simulated = o.prompts.filter { $0.status == .answered }.map { time.unix($0.opened) }.sorted()
      #expect(read == simulated, "participant \(o.participant)")
    }
    // Every field quoted, semicolons, no line break after the last row.
    let events = try String(contentsOfFile: dir + "/esmira/v1-r1/events.csv", encoding: .utf8)
    #expect(events.hasPrefix("\"entryId\";\"userId\";") && !events.hasSuffix("\n"))
    // Android: an invitation when the alarm fired, then an invitation_missed when the 30-minute
    // timeout removed it unopened (ESMira's WorkerBox); read back as one prompt, not a repeat.
    let android = Set(outcomes.filter { $0.os == .android }.map { ESMiraExportOutput.userId($0.participant) })
    let missedRows = events.split(separator: "\n").filter { line in
      line.contains("\"invitation_missed\"") && android.contains { line.contains("\"\($0)\"") }
    }.count
    let ignored = outcomes.filter { $0.os == .android }.flatMap(\.prompts).filter { $0.status != .droppedOut && $0.opened < 0 }.count
    #expect(missedRows == ignored && ignored > 10, "\(missedRows) rows, \(ignored) Android prompts not opened")
    #expect(!pilot.leftOut.keys.contains { $0.contains("repeated") }, "\(pilot.leftOut)")
    #expect(Set(pilot.prompts.map(\.participant)).count == 24)
  }

  @Test("without invitation_missed (ESMira's default): Android's prompts all read back; the iPhones left out and said")
  func defaultUpload() throws {
    let (outcomes, result, dir, ios) = try Self.export(missed: false)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let pilot = try result.get()
    let android = outcomes.filter { $0.os == .android }.flatMap(\.prompts)
    #expect(!ios.isEmpty && android.count > 0)
    // Android writes an invitation for each prompt delivered.
    #expect(pilot.prompts.count == android.filter { $0.delivered >= 0 }.count)
    #expect(Set(pilot.prompts.map(\.participant)).isDisjoint(with: ios))
    #expect(pilot.leftOut.first { $0.key.contains("invitation_missed") }?.value == ios.count)
  }

  /// ESMira writes `schedule_changed` when a participant saves new times for a signal time
  /// (`SignalTime.saveTimeFrames`, `newSchedule` as `Schedule.toDescString` gives it): one for
  /// each questionnaire's schedule of each participant who moved their times on joining, none
  /// for the others.
  @Test("participants who moved their times have a schedule_changed event per schedule, with the moved times")
  func scheduleChanged() throws {
    let text = """
      name: esmira moved times
      seed: 5
      duration: 2d
      population: {size: 40}
      protocol:
        window: "09:00-21:00"
        own_times: {share: 0.5, earlier: 1h, later: 1h}
        questionnaires:
          - name: morning
            schedule: {algorithm: fixed-times, times: ["08:30"]}
            window: "08:00-12:00"
            survey: {title: Morning}
          - name: day
            schedule: {algorithm: fixed-blocks, per_day: 3}
            survey: {title: Day}
      """
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "m.yaml"), file: "m.yaml")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-esmira-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let keep = OutcomeCollector()
    _ = try StudySimulation.simulate(
      scenario, options: .init(threads: 1), observers: [keep, try ESMiraExportOutput(RunFolder(dir, scenario: scenario), missed: false)])
    let events = try String(contentsOfFile: dir + "/esmira/v1-r1/events.csv", encoding: .utf8)
    let rows = events.split(separator: "\n").map { $0.dropFirst().dropLast().components(separatedBy: "\";\"") }
    let header = rows[0]
    let (user, type, schedule) = (header.firstIndex(of: "userId")!, header.firstIndex(of: "eventType")!, header.firstIndex(of: "newSchedule")!)
    let changed = Dictionary(grouping: rows.dropFirst().filter { $0[type] == "schedule_changed" }, by: { $0[user] })
    func clock(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }
    var moved = 0
    for o in keep.outcomes {
      let mine = changed[ESMiraExportOutput.userId(o.participant)] ?? []
      guard o.ownTimesShift != 0 else {
        #expect(mine.isEmpty)
        continue
      }
      moved += 1
      let shift = Int(o.ownTimesShift.rounded())
      #expect(mine.map { $0[schedule] } == ["Morning: \(clock(510 + shift)), ", "Day: \(clock(540 + shift))-\(clock(1260 + shift)), "])
    }
    #expect(moved > 10 && moved < 30)
  }
}
