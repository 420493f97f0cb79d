import Foundation
import Scenarios
import Study
import Testing

@testable import Reporting

/// `days.csv` (`outputs.days`): a row per participant and study day whose counts are those
/// of `prompts.csv` and `participants.csv`.
@Suite("days.csv")
struct DaysOutputTests {
  @Test("each participant's days add up to their prompts; a day after a dropout is not enrolled and has none")
  func addsUp() throws {
    let text = """
      name: days
      seed: 5
      duration: 10d
      population: {size: 60, compliance: {dropout_per_day: 0.05}}
      protocol: {window: "08:00-22:00", schedule: {algorithm: fixed-blocks, per_day: 4}, expiry: 30m}
      outputs: {days: true, prompts: true, participants: true, report: false, sqlite: false}
      """
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "d.yaml"), file: "d.yaml")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-days-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    _ = try StudyRun.run(scenario, to: dir.path, options: .init(threads: 2), version: "test")
    func rows(_ file: String) throws -> [[String: String]] {
      let lines = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8).split(separator: "\n").map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      }
      return lines.dropFirst().map { Dictionary(uniqueKeysWithValues: zip(lines[0], $0)) }
    }
    let days = try rows("days.csv")
    #expect(days.count == 60 * 10)
    var answered: [String: Int] = [:]
    var scheduled: [String: Int] = [:]
    for d in days {
      answered[d["participant"]!, default: 0] += Int(d["answered"]!)!
      scheduled[d["participant"]!, default: 0] += Int(d["scheduled"]!)!
      if d["enrolled"] == "0" { #expect(d["answered"] == "0" && d["delivered"] == "0") }
    }
    let people = try rows("participants.csv")
    #expect(people.count == 60)
    for p in people {
      #expect(answered[p["participant"]!] == Int(p["completed"]!))
      #expect(scheduled[p["participant"]!] == Int(p["scheduled"]!))
    }
    // Some participants leave within 10 days at 5 % a day (about 40 %): their later days are not enrolled.
    #expect(days.contains { $0["enrolled"] == "0" })
    let answeredPrompts = try rows("prompts.csv").filter { $0["status"] == "answered" && $0["volunteered"] == "0" }.count
    #expect(answered.values.reduce(0, +) == answeredPrompts)
  }
}
