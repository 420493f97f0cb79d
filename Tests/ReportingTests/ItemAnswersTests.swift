import Foundation
import Scenarios
import StudyModel
import Testing

@testable import Reporting

/// Items that measure the answered state with an error of their own.
@Suite("Item answers: the state plus each item's error")
struct ItemAnswersTests {
  @Test("two items with noise 10 correlate var(state) / (var(state) + 100) and err by sd 10, independently; noise 0 answers the state")
  func reliability() throws {
    let text = """
      name: items
      seed: 8
      duration: 14d
      population: {size: 120, devices: {ideal: 1}}
      protocol:
        window: "09:00-21:00"
        schedule: {algorithm: fixed-blocks, per_day: 5}
        survey:
          items:
            - {id: a, noise: 10}
            - {id: b, noise: 10}
            - {id: c}
      """
    let scenario = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: "i.yaml"), file: "i.yaml")
    let plan = scenario.variants[0].plan
    let items = plan.protocolPlan.survey.items
    #expect(items.map(\.noise) == [10, 10, 0])
    var x: [[Double]] = [[], [], []]
    var reported: [Double] = []
    for k in 0..<plan.participants {
      let o = ParticipantSimulation.outcome(plan: plan, seed: scenario.seed, replication: 0, participant: UInt32(k))
      for p in o.prompts where p.status == .answered {
        reported.append(p.reported)
        for (i, item) in items.enumerated() { x[i].append(ItemAnswers.state(p, item: item, k: i)) }
      }
    }
    let n = Double(reported.count)
    #expect(n > 3_000)
    func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
    func cov(_ a: [Double], _ b: [Double]) -> Double {
      let (ma, mb) = (mean(a), mean(b))
      return zip(a, b).reduce(0) { $0 + ($1.0 - ma) * ($1.1 - mb) } / Double(a.count - 1)
    }
    let varState = cov(reported, reported)
    let expected = varState / (varState + 100)
    let r = cov(x[0], x[1]) / (cov(x[0], x[0]) * cov(x[1], x[1])).squareRoot()
    // The correlation's standard error, (1 − r²)/√n; 4 of them.
    #expect(abs(r - expected) < 4 * (1 - expected * expected) / n.squareRoot(), "r \(r) against \(expected)")
    // Each item's error: sd 10 (its sd's standard error 10/√(2n); 4 of them), the two independent.
    let e0 = zip(x[0], reported).map { $0 - $1 }
    let e1 = zip(x[1], reported).map { $0 - $1 }
    #expect(abs(cov(e0, e0).squareRoot() - 10) < 4 * 10 / (2 * n).squareRoot())
    #expect(abs(cov(e0, e1) / 100) < 4 / n.squareRoot())
    // Without noise the item answers the state itself.
    #expect(x[2] == reported)
  }
}
