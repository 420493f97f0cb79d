import Foundation
import Scenarios
import StudyModel
import Testing

@testable import Calibration

/// Records that hold only the participants who answered enough (`esmsim calibrate
/// --kept-at-least`): a simulation of the pilot keeps the same participants, and the share
/// named must fit the pilot.
@Suite("Calibration: records kept by answers")
struct KeptRecordsTests {
  static func recording(_ least: Double? = nil) -> PilotRecording {
    PilotRecording(prompts: .sent, openings: true, breakOffs: true, keptAtLeast: least)
  }

  /// A simulated pilot of 80 participants for 7 days, every participant or those kept.
  static func pilot(_ least: Double? = nil) throws -> ComplianceMoments {
    var plan = try CalibrationTests.plan(CalibrationTests.truth(breakOffs: true))
    plan.participants = 80
    plan.days = 7
    return Calibrator.simulate(plan, seed: 5, recording: recording(least), threads: 1)
  }

  @Test("a simulation keeps exactly the participants who reach the share, each with all their prompts")
  func simulationKeeps() throws {
    let every = try Self.pilot()
    let least = 0.8
    let kept = try Self.pilot(least)
    let reaching = every.byPerson.filter { ComplianceMoments.reaches(answered: $0.filter(\.answered).count, of: $0.count, least) }
    // Some are left out and some kept, or the test says nothing.
    #expect(reaching.count > 5 && reaching.count < every.people - 5)
    #expect(kept.people == reaching.count)
    #expect(kept.prompts.count == reaching.map(\.count).reduce(0, +))
    #expect(kept.byPerson.allSatisfy { kept.share($0) >= least })
    #expect(kept.rate > every.rate)
    #expect(Set(kept.prompts.map(\.person)) == Set(reaching.map { $0[0].person }))
    #expect(kept.considered == every.byPerson.count && every.considered == every.people)
    // The rule counts participants with 5 prompts or more: fewer, and they are kept whatever.
    #expect(ComplianceMoments.reaches(answered: 0, of: 4, 0.9) && !ComplianceMoments.reaches(answered: 4, of: 5, 0.9))
    #expect(ComplianceMoments.reaches(answered: 2, of: 3 * 2, 1.0 / 3))
    // No rule: the same as before it existed (every participant, whatever their share).
    #expect(try Self.pilot(nil).prompts.count == every.prompts.count)
  }

  @Test("a fit to kept records says the share its simulation at the estimate keeps; a fit to every participant says none")
  func keptShare() throws {
    let plan = try CalibrationTests.plan("")
    let pilot = try Self.pilot(0.8)
    let fit = { (least: Double?) in
      Calibrator.calibrate(
        pilot: pilot, plan: plan, recording: Self.recording(least), seed: 3, simulatedPeople: 40, draws: 2, maxEvaluations: 20,
        resamples: 10, threads: 2)
    }
    let share = try #require(fit(0.8).keptShare)
    #expect(share > 0 && share < 1)
    #expect(fit(nil).keptShare == nil)
  }

  @Test("the share named: lowest is the pilot's lowest of participants with 5 or more prompts; a share above a participant's is refused")
  func share() throws {
    // A pilot of the participants who answered at least 40 % (so that half its lowest share is a
    // share too).
    let every = try Self.pilot()
    let reaching = Set(every.byPerson.filter { $0.count >= 5 && every.share($0) >= 0.4 }.map { $0[0].person })
    let m = every.filtered { person, _ in reaching.contains(person) }
    let lowest = try #require(m.personShares.min())
    #expect(lowest >= 0.4 && m.people > 20)
    #expect(try CalibrationRun.keptAtLeast(.lowest, m).get() == lowest)
    #expect(try CalibrationRun.keptAtLeast(.share(lowest / 2), m).get() == lowest / 2)
    let above = min(lowest + 0.05, 1)
    let below = m.byPerson.filter { $0.count >= 5 && !ComplianceMoments.reaches(answered: $0.filter(\.answered).count, of: $0.count, above) }
    guard case .failure(let problem) = CalibrationRun.keptAtLeast(.share(above), m) else {
      Issue.record("a share above the lowest participant's was taken")
      return
    }
    #expect(problem.text.hasPrefix("\(below.count) of the pilot's \(m.people) participants answered less (the lowest "), "\(problem.text)")
    #expect(problem.text.hasSuffix("give lowest for the pilot's lowest share"))
    #expect(CalibrationRun.KeptRule("lowest") == .lowest && CalibrationRun.KeptRule("0.5") == .share(0.5) && CalibrationRun.KeptRule("1") == .share(1))
    for bad in ["0", "-0.2", "1.5", "abc", "nan", "inf", "1e-400", "-0", "", "Lowest"] {
      #expect(CalibrationRun.KeptRule(bad) == nil, "\(bad)")
    }
    let few = ComplianceMoments(
      prompts: (0..<4).map { ComplianceMoments.Prompt(person: 0, day: 0, hour: 9 + $0, answered: true, started: true, wait: 1, latency: 2) },
      people: 1)
    guard case .failure(let p) = CalibrationRun.keptAtLeast(.lowest, few) else {
      Issue.record("lowest without any participant of 5 prompts was taken")
      return
    }
    #expect(p.text.contains("5 or more prompts"))
  }
}
