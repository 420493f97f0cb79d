import Foundation
import Testing

@testable import Scenarios

/// Keys that would change nothing as written are said, by key, not dropped silently.
@Suite("Scenario keys that change nothing as written are warned about")
struct IneffectiveKeysTests {
  func keys(_ yaml: String) throws -> [String] { try resolve(yaml).warnings.map(\.key) }

  @Test("fixed blocks' min_gap without a gap_method: warned; with one, not")
  func minGapWithoutMethod() throws {
    let without = try resolve("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, per_day: 6, min_gap: 60m}\n").warnings
    #expect(without.map(\.key) == ["protocol.schedule.min_gap"])
    #expect(without.first?.message.contains("closer than 60 minutes") == true, "\(without)")
    #expect(try keys("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, per_day: 6, min_gap: 60m, gap_method: truncation}\n").isEmpty)
    #expect(try keys("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, per_day: 6}\n").isEmpty)
    let inQuestionnaire = try keys(
      "name: t\nprotocol:\n  questionnaires:\n    - {name: q, schedule: {algorithm: fixed-blocks, per_day: 4, min_gap: 30m}}\n")
    #expect(inQuestionnaire == ["protocol.questionnaires[0].schedule.min_gap"])
  }

  @Test("reminders at or after the expiry: warned with how many are never sent; within it, not")
  func remindersPastExpiry() throws {
    let late = try resolve("name: t\nprotocol:\n  expiry: 15m\n  reminders: {count: 3, interval: 10m}\n").warnings
    #expect(late.map(\.key) == ["protocol.reminders"])
    #expect(late.first?.message.contains("2 of 3 reminders") == true, "\(late)")
    #expect(try keys("name: t\nprotocol:\n  expiry: 15m\n  reminders: {count: 2, interval: 5m}\n").isEmpty)
    #expect(try keys("name: t\nprotocol:\n  expiry: until_next\n  reminders: {count: 3, interval: 60m}\n").isEmpty)
    let own = try keys(
      """
      name: t
      protocol:
        expiry: 30m
        questionnaires:
          - {name: a, schedule: {algorithm: fixed-times, times: ["09:00"]}, reminders: {count: 1, interval: 30m}}
          - {name: b, schedule: {algorithm: fixed-times, times: ["18:00"]}, reminders: {count: 1, interval: 20m}}
      """)
    #expect(own == ["protocol.questionnaires[0].reminders"])
  }

  @Test("a bare 0 is a duration (the documented defaults' 0); another bare number still needs its unit")
  func bareZero() throws {
    #expect(problem("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, per_day: 6, min_gap: 0}\n") == nil)
    #expect(problem("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, per_day: 6, min_gap: 5}\n")?.message.contains("with a unit") == true)
  }

  @Test("a scenario's resolved form (esmsim show) reads again, and warns about nothing the scenario itself does not (a non-location sensor's accuracy was refused; defaults set out were warned about)")
  func shownScenarioRoundTrip() throws {
    let folder = repository.appendingPathComponent("scenarios")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
    #expect(files.count >= 10)
    for name in files {
      let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
      if text.contains("\ngrid:") { continue }  // a sweep's file, not a scenario
      let original = try resolve(text, file: name)
      let shown = try resolve(original.resolved.yaml(), file: name)
      #expect(shown.warnings.map(\.key) == original.warnings.map(\.key), "\(name): \(shown.warnings)")
    }
  }
}
