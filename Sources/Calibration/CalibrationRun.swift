import Foundation
import Scenarios
import StudyModel

/// One `esmsim calibrate`: the pilot, the protocol simulated (the pilot's as its records show
/// it, or the scenario given), the estimate on the whole pilot, and, with a holdout, the
/// predictive check of an estimate on the rest. What every presenter (text, JSON, HTML)
/// renders.
public struct CalibrationRun: Sendable {
  /// The platform whose records were read.
  public var format: PilotFormat
  public var pilot: Pilot
  public var moments: ComplianceMoments
  /// The protocol proposed from the records (nil when a scenario was given), and the
  /// scenario's name or file.
  public var proposed: PilotProtocol?
  public var scenario: String
  public var result: Calibrator.Result
  public var check: PredictiveCheck?

  /// Calibrates `plan` (the pilot's protocol and phones) to `pilot`; with `holdout`, also
  /// fits on the other part and checks the held-out part against its predictions.
  public static func run(
    format: PilotFormat, pilot: Pilot, plan: StudyPlan, proposed: PilotProtocol?, scenario: String, holdout: PredictiveCheck.Holdout?,
    seed: UInt64, threads: Int, people: Int = 300, bootstrap: Int = 30
  ) -> CalibrationRun {
    let moments = ComplianceMoments(pilot)
    let result = Calibrator.calibrate(
      pilot: moments, plan: plan, recording: pilot.recording, seed: seed, simulatedPeople: people, bootstrap: bootstrap,
      threads: threads)
    var check: PredictiveCheck?
    if let holdout {
      let (fit, held) = PredictiveCheck.split(moments, holdout, seed: seed)
      let partial = Calibrator.calibrate(
        pilot: fit, plan: plan, recording: pilot.recording, seed: seed, simulatedPeople: people, bootstrap: bootstrap,
        threads: threads)
      check = PredictiveCheck.run(
        result: partial, check: held, fitPrompts: fit.prompts.count, holdout: holdout, plan: plan, recording: pilot.recording,
        days: moments.days, seed: seed, threads: threads)
    }
    return CalibrationRun(
      format: format, pilot: pilot, moments: moments, proposed: proposed, scenario: scenario, result: result, check: check)
  }

  /// Why a holdout cannot be checked on this pilot, nil when it can.
  public static func holdoutProblem(_ holdout: PredictiveCheck.Holdout, _ m: ComplianceMoments) -> String? {
    switch holdout {
    case .days(let n):
      guard n < m.days else { return "days:\(n) holds out nothing: the pilot spans \(m.days) days" }
      return m.prompts.contains { $0.day < n } ? nil : "days:\(n) leaves nothing to fit on"
    case .participants:
      return m.people >= 2 ? nil : "participants: needs at least 2 participants, the pilot has \(m.people)"
    }
  }
}
