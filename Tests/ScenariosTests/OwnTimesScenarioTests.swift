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
