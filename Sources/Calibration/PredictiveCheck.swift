import Foundation
import Scenarios
import SimKernel
import StudyModel

/// How well a calibration predicts (`esmsim calibrate --holdout`): the pilot is split, the
/// model fitted on one part (``Calibrator``), and the other part's figures are compared with
/// what the fitted model predicts for it. A prediction is the figure over simulations of the
/// held-out part (as many participants, the same days, the platform's records), each with
/// one draw of the parameters from their sampling distribution (``Calibrator/Result/draws``)
/// and its own seed, so that its 95 % interval (2.5th to 97.5th percentile of the
/// simulations) holds both the estimate's uncertainty and the sampling error of a part that
/// size.
public struct PredictiveCheck: Sendable {
  /// Which part of the pilot is held out.
  public enum Holdout: Sendable, Equatable, CustomStringConvertible {
    /// The study days from this one on (0-based), for every participant.
    case days(Int)
    /// This share of the participants (drawn at random with the seed), all their days.
    case participants(Double)

    /// Reads `days:N` or `participants:F`.
    public init?(_ text: String) {
      let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
      guard parts.count == 2 else { return nil }
      switch parts[0] {
      case "days":
        guard let n = Int(parts[1]), n >= 1, n <= Pilot.maxSpanDays else { return nil }
        self = .days(n)
      case "participants":
        guard let f = Double(parts[1]), f > 0, f < 1 else { return nil }
        self = .participants(f)
      default: return nil
      }
    }

    public var description: String {
      switch self {
      case .days(let n): "days:\(n)"
      case .participants(let f): "participants:\(f)"
      }
    }
  }

  /// A figure the check compares.
  public enum Figure: Sendable, Equatable {
    case answered
    case answeredByHour(Int)
    case answeredByDay(Int)
    /// A quantile of the participants' answered shares.
    case personShare(Double)
    /// A quantile of the minutes from a prompt to its opening (to its submission where
    /// openings are not recorded), answered prompts.
    case wait(Double)
    case breakOffs

    /// Its name in the table and JSON.
    public var key: String {
      switch self {
      case .answered: "answered"
      case .answeredByHour(let h): "answered_hour_\(h < 10 ? "0" : "")\(h)"
      case .answeredByDay(let d): "answered_day_\(d + 1)"
      case .personShare(let q): "participant_share_p\(Int((q * 100).rounded()))"
      case .wait(let q): "minutes_to_open_p\(Int((q * 100).rounded()))"
      case .breakOffs: "broken_off"
      }
    }

    /// The figure's value for some prompts (nan where they do not give it).
    func value(_ m: ComplianceMoments) -> Double {
      switch self {
      case .answered: m.rate
      case .answeredByHour(let h): m.byHour[h]?.share ?? .nan
      case .answeredByDay(let d): m.byDay[d]?.share ?? .nan
      case .personShare(let q): ComplianceMoments.quantile(m.personShares.sorted(), q)
      case .wait(let q): ComplianceMoments.quantile(m.waits, q) / 60
      case .breakOffs: m.breakOffShare
      }
    }
  }

  /// A figure observed in the held-out part, its prediction (the median over the
  /// simulations) and 95 % interval, and whether the observation lies in it.
  public struct Row: Sendable {
    public var figure: Figure
    public var observed: Double
    public var predicted: Double
    public var low: Double
    public var high: Double
    public var inside: Bool { observed >= low && observed <= high }
  }

  /// Simulations behind each prediction by default.
  public static let defaultSimulations = 200

  public var holdout: Holdout
  /// The prompts fitted on and held out, and the held-out participants.
  public var fitPrompts: Int
  public var checkPrompts: Int
  public var checkParticipants: Int
  public var rows: [Row]
  /// Simulations behind each prediction.
  public var simulations: Int
  /// The fit on the part kept, which the predictions draw from: its estimates, its moments
  /// against the simulation's (the part's own answered share among them) and what that part
  /// cannot identify (kept at the scenario's values, the trends drawn with their spread
  /// between studies).
  public var fit: Calibrator.Result

  /// The parts of the pilot: the prompts fitted on and held out.
  public static func split(_ m: ComplianceMoments, _ holdout: Holdout, seed: UInt64) -> (fit: ComplianceMoments, check: ComplianceMoments) {
    switch holdout {
    case .days(let n):
      return (m.filtered { $1 < n }, m.filtered { $1 >= n })
    case .participants(let f):
      // A seeded draw of round(f·n) participants, at least one on each side.
      var s = RandomStream(StreamAddress(seed: seed, replication: 0, participant: 0, purpose: .predictiveCheck))
      var order = Array(0..<m.people)
      for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(s.uniform() * Double(i + 1)) % (i + 1)) }
      let k = min(max(Int((f * Double(m.people)).rounded()), 1), max(m.people - 1, 1))
      let held = Set(order.prefix(k))
      return (m.filtered { p, _ in !held.contains(p) }, m.filtered { p, _ in held.contains(p) })
    }
  }

  /// Checks `result` (fitted on the other part) against the held-out part `check` of a pilot
  /// of `days` days with `people` participants.
  public static func run(
    result: Calibrator.Result, check: ComplianceMoments, fitPrompts: Int, holdout: Holdout, plan base: StudyPlan,
    recording: PilotRecording, days: Int, seed: UInt64, simulations: Int = defaultSimulations, threads: Int = 1,
    progress: (Int, Int) -> Void = { _, _ in }
  ) -> PredictiveCheck {
    var plan = base
    plan.days = max(days, 1)
    if case .days = holdout { plan.days = max(days, check.days) }
    plan.participants = max(check.people, 1)
    if let kept = result.keptShare, kept > 0 {
      // The records' rule leaves part of each simulation's participants out: simulate enough
      // that about as many are kept as the held-out part has (at most 20 times as many).
      plan.participants = min(Int((Double(plan.participants) / kept).rounded(.up)), 20 * plan.participants)
    }
    var figures: [Figure] = [.answered]
    for (h, v) in check.byHour.sorted(by: { $0.key < $1.key }) where v.count >= Calibrator.minPromptsPerHour {
      figures.append(.answeredByHour(h))
    }
    for (d, v) in check.byDay.sorted(by: { $0.key < $1.key }) where v.count >= Calibrator.minPromptsPerHour {
      figures.append(.answeredByDay(d))
    }
    if check.personShares.count >= 5 { figures += [0.1, 0.25, 0.5, 0.75, 0.9].map { .personShare($0) } }
    if check.waits.count >= 20 { figures += [0.25, 0.5, 0.75, 0.9].map { .wait($0) } }
    if recording.breakOffs { figures.append(.breakOffs) }
    let fits = result.draws.isEmpty ? [result.compliance] : result.draws
    var values = [[Double]](repeating: [], count: figures.count)
    for r in 0..<simulations {
      var p = plan
      p.compliance = fits[r % fits.count]
      var simulated = Calibrator.simulate(p, seed: seed &+ 1_000 &+ UInt64(r), recording: recording, threads: threads)
      progress(r + 1, simulations)
      if case .days(let n) = holdout { simulated = simulated.filtered { $1 >= n } }
      for (k, f) in figures.enumerated() {
        let v = f.value(simulated)
        if v.isFinite { values[k].append(v) }
      }
    }
    var rows: [Row] = []
    for (k, f) in figures.enumerated() {
      let v = values[k].sorted()
      rows.append(
        Row(
          figure: f, observed: f.value(check), predicted: ComplianceMoments.quantile(v, 0.5),
          low: ComplianceMoments.quantile(v, 0.025), high: ComplianceMoments.quantile(v, 0.975)))
    }
    return PredictiveCheck(
      holdout: holdout, fitPrompts: fitPrompts, checkPrompts: check.prompts.count, checkParticipants: check.people, rows: rows,
      simulations: simulations, fit: result)
  }

  /// The observations inside their intervals, of those with an observation.
  public var inside: (count: Int, of: Int) {
    let seen = rows.filter { $0.observed.isFinite }
    return (seen.filter(\.inside).count, seen.count)
  }
}
