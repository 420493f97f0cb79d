import Foundation
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

@Suite("protocol.own_times in a scenario")
struct OwnTimesScenarioTests {
  @Test("read with its defaults; refused beside a settings change, moving nobody, or beyond 12 hours")
  func keys() throws {
    let s = try resolve("name: t\nprotocol:\n  own_times: {later: 3h}\n")
    #expect(s.variants[0].plan.protocolPlan.ownTimes == OwnTimes(share: 1, earlier: 0, later: 3 * Tick.hour))
    let cases: [(String, String, String)] = [
      ("own_times: {later: 1h}\n  own_settings: {share: 0.2}", "protocol.own_times", "not both"),
      ("own_times: {share: 0.5}", "protocol.own_times", "moves nobody"),
      ("own_times: {later: 13h}", "protocol.own_times.later", "12h"),
      ("own_times: {earlier: 1h, hours: 2}", "protocol.own_times.hours", "unknown key"),
    ]
    for (text, key, words) in cases {
      let e = try #require(problem("name: t\nprotocol:\n  schedule: {algorithm: mappiness, per_day: 2}\n  \(text)\n"), "\(text)")
      #expect(e.key == key, "\(text): \(e)")
      #expect(e.message.contains(words), "\(text): \(e)")
    }
  }
}

@Suite("ESMira's userEditable and protocol.own_times")
struct ESMiraEditableTimesTests {
  let fixtures = repository.appendingPathComponent("Tests/ScenariosTests/Fixtures")

  func resolved(_ protocolLine: String) throws -> Scenario {
    let file = fixtures.appendingPathComponent("s.yaml").path
    return try ScenarioResolver.resolve(
      ScenarioLoader.parse(Data("name: t\nduration: 7d\nprotocol: \(protocolLine)\n".utf8), file: file), file: file)
  }

  @Test("warned about (ESMira's default: times participants may move) unless own_times simulates it")
  func editable() throws {
    let plain = try resolved("{esmira_study: esmira-two-signals.json}")
    let said = plain.warnings.filter { $0.key.hasSuffix("userEditable") }
    #expect(said.count == 1 && said[0].message.contains("protocol.own_times"), "\(plain.warnings)")
    let moved = try resolved("{esmira_study: esmira-two-signals.json, own_times: {earlier: 1h, later: 1h}}")
    #expect(!moved.warnings.contains { $0.key.hasSuffix("userEditable") }, "\(moved.warnings)")
    #expect(moved.variants[0].plan.protocolPlan.ownTimes == OwnTimes(share: 1, earlier: Tick.hour, later: Tick.hour))
  }
}
