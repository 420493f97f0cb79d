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
    seed: UInt64, threads: Int, people: Int = 300, maxEvaluations: Int = Calibrator.defaultEvaluations, resamples: Int = 200,
    progress: @escaping (Progress) -> Void = { _ in }
  ) -> CalibrationRun {
    let moments = ComplianceMoments(pilot)
    let recording = pilot.visibleRecording
    let fits = holdout == nil ? 1 : 2
    let result = Calibrator.calibrate(
      pilot: moments, plan: plan, recording: recording, seed: seed, simulatedPeople: people, maxEvaluations: maxEvaluations,
      resamples: resamples, threads: threads, progress: { progress(Progress(stage: "the fit on the whole pilot", step: 1, steps: fits + (fits - 1), done: $0, of: $1)) })
    var check: PredictiveCheck?
    if let holdout {
      let (fit, held) = PredictiveCheck.split(moments, holdout, seed: seed)
      let partial = Calibrator.calibrate(
        pilot: fit, plan: plan, recording: recording, seed: seed, simulatedPeople: people, maxEvaluations: maxEvaluations,
        resamples: resamples, threads: threads, progress: { progress(Progress(stage: "the fit on the part kept", step: 2, steps: 3, done: $0, of: $1)) })
      check = PredictiveCheck.run(
        result: partial, check: held, fitPrompts: fit.prompts.count, holdout: holdout, plan: plan, recording: recording,
        days: moments.days, seed: seed, threads: threads,
        progress: { progress(Progress(stage: "the predictions of the held-out part", step: 3, steps: 3, done: $0, of: $1)) })
    }
    return CalibrationRun(
      format: format, pilot: pilot, moments: moments, proposed: proposed, scenario: scenario, result: result, check: check)
  }

  /// Where a calibration is: its step (of `steps`: the fit, the fit on the part kept, the
  /// predictions) and the simulations done of that step's budget.
  public struct Progress: Sendable {
    public var stage: String
    public var step: Int
    public var steps: Int
    public var done: Int
    public var of: Int
    /// The share of the whole calibration done.
    public var share: Double { (Double(step - 1) + min(Double(done) / Double(max(of, 1)), 1)) / Double(max(steps, 1)) }
  }

  /// The participant-days a calibration may simulate: each fit's search and derivatives, and
  /// the predictions (`esmsim calibrate` shows it and asks --allow-large above a limit).
  public static func work(pilot: ComplianceMoments, people: Int, holdout: Bool, maxEvaluations: Int = Calibrator.defaultEvaluations)
    -> Double
  {
    let perFit = Double(maxEvaluations + 60) * Double(people) * Double(max(pilot.days, 1))
    return holdout ? 2 * perFit + Double(PredictiveCheck.defaultSimulations * max(pilot.people, 1) * max(pilot.days, 1)) : perFit
  }

  /// Why a share cannot say which participants a pilot's records kept.
  public struct KeptProblem: Error, Sendable { public var text: String }

  /// What `--kept-at-least` says: `lowest`, or a share above 0 and at most 1 (nil: neither).
  public enum KeptRule: Sendable, Equatable {
    case lowest
    case share(Double)

    public init?(_ text: String) {
      if text == "lowest" {
        self = .lowest
      } else if let v = Double(text), v > 0, v <= 1 {
        self = .share(v)
      } else {
        return nil
      }
    }
  }

  /// The share `rule` names for this pilot (`lowest`: its lowest participant share, of those
  /// with ``ComplianceMoments/keptMinimumPrompts`` prompts or more, the largest rule its
  /// records allow), or why it does not fit: a share above such a participant's would have
  /// left them out.
  public static func keptAtLeast(_ rule: KeptRule, _ m: ComplianceMoments) -> Result<Double, KeptProblem> {
    let counted = m.byPerson.filter { $0.count >= ComplianceMoments.keptMinimumPrompts }
    switch rule {
    case .lowest:
      guard let lowest = counted.map(m.share).min() else {
        return .failure(
          KeptProblem(text: "no participant of the pilot has \(ComplianceMoments.keptMinimumPrompts) or more prompts, so its lowest share says nothing"))
      }
      return .success(lowest)
    case .share(let share):
      let below = counted.filter { !ComplianceMoments.reaches(answered: $0.filter(\.answered).count, of: $0.count, share) }
      guard below.isEmpty else {
        let worst = below.min { m.share($0) < m.share($1) }!
        return .failure(
          KeptProblem(
            text: "\(below.count) of the pilot's \(m.people) participants answered less (the lowest \(worst.filter(\.answered).count) of \(worst.count) prompts), so its records did not keep only those who reached it; give lowest for the pilot's lowest share"))
      }
      return .success(share)
    }
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
