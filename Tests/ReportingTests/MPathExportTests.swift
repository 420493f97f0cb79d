import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel
import Testing

@testable import Reporting

/// m-Path's per-beep export written as m-Path exports it, read back by the m-Path pilot reader.
@Suite("m-Path's export: the round trip through the pilot reader")
struct MPathExportTests {
  @Test("every scheduled beep read back: answered, started and unanswered as simulated, sent and opened at the simulated second, on the participant's clock; answers on their items' scales")
  func roundTrip() throws {
    let text = """
      name: mpath export
      seed: 5
      duration: 4d
      population: {size: 16, time_zones: {Europe/Brussels: 1}, compliance: {volunteered_per_day: 0.5}}
      protocol:
        window: "09:00-21:00"
        schedule: {algorithm: fixed-blocks, per_day: 6}
        expiry: 30m
        volunteered: true
        survey:
          items:
            - {id: happy, type: 6, title: "How happy?"}
            - {id: where, type: 2, title: "Where are you?", options: [Home, Work, Elsewhere]}
      """
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "m.yaml"), file: "m.yaml")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-mpath-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let folder = RunFolder(dir, scenario: scenario)
    let keep = OutcomeCollector()
    _ = try StudySimulation.simulate(scenario, options: .init(threads: 2), observers: [keep, try MPathExportOutput(folder)])
    let data = FileManager.default.contents(atPath: dir + "/mpath/v1-r1/basic.csv")!
    let pilot = try PilotReaders.mpath(data, file: "basic.csv")
    let prompts = keep.outcomes.flatMap(\.prompts)
    #expect(pilot.prompts.count == prompts.count)
    #expect(pilot.prompts.filter { $0.outcome == .answered }.count == prompts.filter { $0.status == .answered }.count)
    #expect(
      pilot.prompts.filter { $0.outcome == .partial }.count
        == prompts.filter { $0.opened >= 0 && $0.status != .answered }.count)
    // Volunteered answers are beeps not scheduled: left out by the reader, and counted.
    let volunteered = keep.outcomes.flatMap(\.volunteered).count
    #expect(volunteered > 0)
    #expect(pilot.leftOut.first { $0.key.contains("scheduledBeepId -1") }?.value == volunteered)
    // Each participant's beeps sent and opened at the simulated second (UTC milliseconds).
    let time = Timestamps(start: scenario.startDate).in(scenario.variants[0].plan.timeZones[0].zone)
    func second(_ t: SimTime) -> Int64 { (time.unix(t) + 500) / 1000 * 1000 }
    for o in keep.outcomes {
      let read = pilot.prompts.filter { $0.participant == String(100_000 + o.participant + 1) }
      #expect(read.map(\.shown).sorted() == o.prompts.map { second($0.delivered >= 0 ? $0.delivered : $0.scheduled) }.sorted(), "participant \(o.participant)")
      #expect(read.compactMap(\.opened).sorted() == o.prompts.filter { $0.opened >= 0 }.map { second($0.opened) }.sorted())
      #expect(read.allSatisfy { $0.utcOffsetMinutes == 60 })
    }
    // The answers: the option's number and text agree; the slider within 0-100.
    let text2 = String(decoding: data, as: UTF8.self)
    let rows = text2.split(separator: "\n").dropFirst().map { $0.split(separator: ";", omittingEmptySubsequences: false).map(String.init) }
    let answered = rows.filter { $0.count == 22 && !$0[15].isEmpty }
    #expect(answered.count == prompts.filter { $0.status == .answered }.count + volunteered)
    let options = ["Home", "Work", "Elsewhere"]
    #expect(answered.allSatisfy { r in Int(r[20]).map { (1...3).contains($0) && r[21] == "\"\"\"\(options[$0 - 1])\"\"\"" } ?? false })
    #expect(answered.allSatisfy { r in Int(r[19]).map { (0...100).contains($0) } ?? false })
    #expect(Set(answered.map { $0[20] }).count == 3)
    let meta = try String(contentsOfFile: dir + "/mpath/v1-r1/meta.csv", encoding: .utf8)
    #expect(meta.contains("where_multipleChoice_string;\"Where are you?\";multipleChoice;string"))
  }
}
