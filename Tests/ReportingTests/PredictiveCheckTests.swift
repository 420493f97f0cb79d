import Foundation
import Scenarios
import StudyModel
import Testing

@testable import Calibration

/// The predictive check (`esmsim calibrate --holdout`): predictions from the model that
/// generated the pilot put the held-out figures inside their 95 % intervals (nearly all of
/// them), and a wrong model's do not; the splits hold out what they say.
@Suite("Calibration: the predictive check")
struct PredictiveCheckTests {
  static let recording = PilotRecording(prompts: .sent, openings: true, breakOffs: true)

  /// A simulated pilot of 60 participants for 10 days, recorded as m-Path would.
  static func pilot(seed: UInt64 = 21) throws -> (StudyPlan, ComplianceMoments) {
    let plan = try CalibrationTests.plan(CalibrationTests.truth(breakOffs: true))
    var p = plan
    p.participants = 60
    p.days = 10
    return (p, Calibrator.simulate(p, seed: seed, recording: recording, threads: 1))
  }

  static func result(_ c: CompliancePlan) -> Calibrator.Result {
    Calibrator.Result(
      compliance: c, estimates: [], moments: [], hourCounts: [:], hours: [], draws: [c], notIdentified: [], evaluations: 0)
  }

  @Test("the splits: days:N holds out every participant's days from N on; participants:F a seeded share of the people")
  func splits() throws {
    let (_, m) = try Self.pilot()
    let (fit, held) = PredictiveCheck.split(m, .days(6), seed: 1)
    #expect(fit.days == 6 && held.prompts.allSatisfy { $0.day >= 6 } && fit.prompts.count + held.prompts.count == m.prompts.count)
    let (a, b) = PredictiveCheck.split(m, .participants(0.25), seed: 1)
    #expect(b.people == 15 && a.people == 45 && a.prompts.count + b.prompts.count == m.prompts.count)
    let (_, again) = PredictiveCheck.split(m, .participants(0.25), seed: 1)
    #expect(again.prompts.count == b.prompts.count)
    #expect(PredictiveCheck.Holdout("days:7") == .days(7) && PredictiveCheck.Holdout("participants:0.3") == .participants(0.3))
    for bad in ["days:0", "days:x", "participants:1", "participants:-0.5", "weeks:2", "days"] {
      #expect(PredictiveCheck.Holdout(bad) == nil, "\(bad)")
    }
  }

  @Test("the generating model's predictions hold at least 85 % of five pilots' held-out figures (95 % intervals); a wrong level's miss the answered share")
  func calibrated() throws {
    // Five pilots: a pilot's figures move together (a few slow, reluctant people lower its
    // answered share and lengthen its waits at once), so one pilot says little.
    var inside = 0
    var seen = 0
    for seed: UInt64 in 21...25 {
      let (plan, m) = try Self.pilot(seed: seed)
      let (fit, held) = PredictiveCheck.split(m, .days(6), seed: 1)
      let right = PredictiveCheck.run(
        result: Self.result(plan.compliance), check: held, fitPrompts: fit.prompts.count, holdout: .days(6), plan: plan,
        recording: Self.recording, days: 10, seed: 7, simulations: 40)
      #expect(right.rows.count >= 15)
      #expect(right.rows.contains { $0.figure == .breakOffs } && right.rows.contains { $0.figure == .wait(0.5) })
      inside += right.inside.count
      seen += right.inside.of
    }
    // At 95 % each, 85 % of about 140 correlated figures leaves room for one unlucky pilot.
    #expect(Double(inside) >= 0.85 * Double(seen), "\(inside) of \(seen)")
    let (plan, m) = try Self.pilot()
    let (fit, held) = PredictiveCheck.split(m, .days(6), seed: 1)
    var wrong = plan.compliance
    wrong.answerProbability = 0.4
    let off = PredictiveCheck.run(
      result: Self.result(wrong), check: held, fitPrompts: fit.prompts.count, holdout: .days(6), plan: plan,
      recording: Self.recording, days: 10, seed: 7, simulations: 40)
    #expect(off.rows.first { $0.figure == .answered }.map { !$0.inside && $0.predicted < $0.observed } == true)
  }

  /// A pilot of 3 days cannot fit the weekly or the first days' change: the draws behind the
  /// predictions carry each with its sd between studies around the scenario's value (the
  /// sample sd of 200 draws within 4 of its standard errors, σ/√(2·199), of that sd; the
  /// mean within 4 standard errors of the start). The weekly change is read in one class:
  /// every class moves by the one draw, and the classes' mean moves with the drawn shares
  /// too. A pilot of 10 days, which fits both, draws them from the fit instead.
  @Test("a pilot too short to show the trends: its predictions draw them with their spread between studies")
  func unfittedTrendsDrawn() throws {
    let (plan, _) = try Self.pilot()
    var short = plan
    short.days = 3
    let pilot = Calibrator.simulate(short, seed: 31, recording: Self.recording, threads: 1)
    let r = Calibrator.calibrate(
      pilot: pilot, plan: short, recording: Self.recording, seed: 5, simulatedPeople: 100, draws: 200, maxEvaluations: 40, threads: 2)
    #expect(!r.estimates.contains { $0.key == "first_days_change" || $0.key == "weekly_change" })
    let cases: [(values: [Double], start: Double, sd: Double)] = [
      (r.draws.map(\.firstDaysChange), short.compliance.firstDaysChange, Calibrator.firstDaysChangeBetweenStudies),
      (r.draws.map { $0.classes[1].weeklyChange }, short.compliance.classes[1].weeklyChange, Calibrator.weeklyChangeBetweenStudies),
    ]
    for c in cases {
      let n = Double(c.values.count)
      let mean = c.values.reduce(0, +) / n
      let sd = (c.values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / (n - 1)).squareRoot()
      #expect(abs(sd - c.sd) <= 4 * c.sd / (2 * (n - 1)).squareRoot(), "sd \(sd) against \(c.sd)")
      #expect(abs(mean - c.start) <= 4 * c.sd / n.squareRoot(), "mean \(mean) against \(c.start)")
    }
    #expect(r.notIdentified.contains { $0.hasPrefix("first_days_change") && $0.contains("sd between studies") })
  }
}
