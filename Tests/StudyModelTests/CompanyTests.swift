import SimKernel
import Testing

@testable import StudyModel

/// Company ("with others"): the within-person predictor of the state power analyses test.
@Suite("Company: a within-person effect on the state")
struct CompanyTests {
  func plan(share: Double = 0.4, slope: Double = 6, slopeSD: Double = 2, participants: Int = 200) -> StudyPlan {
    testPlan(days: 10, participants: participants, devices: [(.nonControlled, 1)], expiry: .after(Tick.hour)) {
      $0.dailyLife.state.company = CompanyPlan(share: share, slope: slope, slopeSD: slopeSD)
    }
  }

  /// Per participant: the mean true state when the prompts fell due with others minus
  /// without (participants with at least 3 of each); their average estimates the fixed slope.
  static func differences(_ outcomes: [ParticipantOutcome]) -> [Double] {
    outcomes.compactMap { o -> Double? in
      let due = o.prompts.filter { $0.dueWithOthers >= 0 }
      let with = due.filter { $0.dueWithOthers == 1 }.map(\.dueState)
      let without = due.filter { $0.dueWithOthers == 0 }.map(\.dueState)
      guard with.count >= 3, without.count >= 3 else { return nil }
      return with.reduce(0, +) / Double(with.count) - without.reduce(0, +) / Double(without.count)
    }
  }

  @Test("the complete data's within-person difference with and without company is the planned slope, within its standard error")
  func slopeIsTheEstimand() {
    let differences = Self.differences(outcomes(plan()))
    let mean = differences.reduce(0, +) / Double(differences.count)
    let sd = (differences.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(differences.count - 1)).squareRoot()
    let se = sd / Double(differences.count).squareRoot()
    #expect(differences.count > 180)
    #expect(abs(mean - 6) < 3 * se, "difference \(mean), se \(se)")
    // Without an effect the same difference is zero (the contexts' means do not leak in).
    let null = Self.differences(outcomes(plan(slope: 0, slopeSD: 0)))
    let nullMean = null.reduce(0, +) / Double(null.count)
    #expect(abs(nullMean) < 3 * se, "difference without an effect \(nullMean)")
  }

  @Test("company is recorded with each look and every due prompt; off, nothing is recorded")
  func recorded() {
    let on = outcomes(plan(participants: 30))
    for o in on {
      for p in o.prompts {
        #expect((p.dueWithOthers >= 0) == p.dueState.isFinite)
        #expect(p.trueState.isFinite == (p.withOthers >= 0))
        if p.status != .droppedOut { #expect(p.dueWithOthers >= 0) }
      }
    }
    let share = Double(on.flatMap(\.prompts).filter { $0.dueWithOthers == 1 }.count)
      / Double(on.flatMap(\.prompts).filter { $0.dueWithOthers >= 0 }.count)
    #expect(abs(share - 0.4) < 0.05, "share with others \(share)")
    let off = outcomes(plan(share: 0, participants: 30))
    #expect(off.flatMap(\.prompts).allSatisfy { $0.withOthers == -1 && $0.dueWithOthers == -1 && $0.dueState.isNaN })
  }

  @Test("the true waking mean adds the person's slope times their share of waking time with others; the path is the same")
  func trueMean() {
    for p in 0..<20 {
      var with = ParticipantSimulation(plan: plan(slope: 10, slopeSD: 3), seed: 3, replication: 0, participant: UInt32(p))
      var without = ParticipantSimulation(plan: plan(share: 0), seed: 3, replication: 0, participant: UInt32(p))
      with.run()
      without.run()
      let share = with.company.minutes(before: with.leaves) / with.truth.wakingMinutes
      #expect(share > 0.2 && share < 0.6)
      #expect(abs(with.trueWakingMean - (without.trueWakingMean + with.company.slope * share)) < 1e-9)
    }
  }
}
