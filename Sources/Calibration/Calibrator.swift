import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel

/// Estimates the people of a study (``CompliancePlan``) from a pilot: all parameters together,
/// by the method of simulated moments (McFadden 1989; Gouriéroux & Monfort 1996). The pilot's
/// protocol and phones are simulated with candidate parameters, always with the same seed
/// (common random numbers: the moments move with the parameters, not with the draws), and the
/// parameters are those whose simulation shows what the pilot shows: the weighted squared
/// distance between the pilot's moments (``moments(_:recording:firstDaysWindow:)``) and the simulation's is
/// minimised over every parameter at once (``parameters(_:plan:recording:)``; Levenberg–
/// Marquardt, ``LevenbergMarquardt``),
/// each moment weighted by the inverse of its sampling variance (the pilot's, from resampling
/// its participants, and the simulation's), with a weak prior that holds each parameter near
/// the scenario's value (the defaults: set from a corpus of real studies) with the
/// parameter's prior sd on the search's scale: a parameter the pilot shows moves to it, one it
/// hardly shows stays near the defaults instead of wandering (penalised simulated moments).
/// The hour-of-day odds follow by ratio.
///
/// Intervals: the sandwich of simulated moments with the prior, (GᵀWG + P)⁻¹(GᵀWΩWG + P)
/// (GᵀWG + P)⁻¹, with G the moments' derivatives by the parameters (central differences under
/// common random numbers), W the weights, Ω the covariance of the pilot's moments over
/// bootstrap resamples of its participants (no simulation needed) times 1 + n/N (the pilot's
/// participants over the simulation's), and P the prior's precision: where the pilot says
/// nothing the interval is the prior's. A parameter no moment moves is not identified by the
/// pilot: it is kept, and said so.
public enum Calibrator {
  /// One estimate.
  public struct Estimate: Sendable {
    public var key: String
    public var value: Double
    public var low: Double
    public var high: Double
    /// The standard error on the search's scale (log-odds, log or plain: ``Parameter``).
    public var standardError: Double
    /// Outside its plausible range, and why (the check says what the model cannot show).
    public var atBound = false
    public var reason = ""
  }

  /// A moment matched: the pilot's and the simulation's at the estimate, and its standard error.
  public struct MomentFit: Sendable {
    public var name: String
    public var pilot: Double
    public var simulated: Double
    public var standardError: Double
  }

  /// The result: the fitted people, every estimate, the moments, draws of the parameters from
  /// their sampling distribution (for predictions), and what the pilot cannot identify.
  public struct Result: Sendable {
    public var compliance: CompliancePlan
    public var estimates: [Estimate]
    public var moments: [MomentFit]
    public var hourCounts: [Int: Int]
    /// The hour odds the pilot identifies: hour, value, standard error of its logarithm.
    public var hours: [(hour: Int, value: Double, standardError: Double)]
    public var draws: [CompliancePlan]
    public var notIdentified: [String]
    /// Simulations run.
    public var evaluations: Int
    /// With records that kept only the participants who answered enough: the share of its
    /// participants the simulation at the estimate keeps (how many the rule left out, as the
    /// model extrapolates the part of the people the records do not show).
    public var keptShare: Double? = nil
  }

  /// Simulations a fit's search may spend by default.
  public static let defaultEvaluations = 500

  /// Hours of the day with fewer recorded prompts keep their default odds.
  static let minPromptsPerHour = 30
  /// The most simulations spent matching the hours' odds (``fitHours``).
  static let hourIterations = 3

  /// Calibrates `plan`'s people to `pilot`.
  ///
  /// - Parameters:
  ///   - plan: the pilot's protocol, phones and population (its people are the start).
  ///   - recording: what the pilot's platform records.
  ///   - simulatedPeople: participants per simulation (common random numbers across them).
  ///   - draws: parameter draws for predictions.
  ///   - maxEvaluations: simulations the search may spend.
  ///   - resamples: bootstrap resamples of the pilot's participants for its moments' covariance.
  ///   - progress: told each simulation (evaluations so far, the search's budget).
  public static func calibrate(
    pilot: ComplianceMoments, plan base: StudyPlan, recording: PilotRecording, seed: UInt64, simulatedPeople: Int = 300,
    draws: Int = PredictiveCheck.defaultSimulations, maxEvaluations: Int = defaultEvaluations, resamples: Int = 200,
    threads: Int = 1, progress: (Int, Int) -> Void = { _, _ in }
  ) -> Result {
    var plan = base
    plan.days = max(pilot.days, 1)
    plan.participants = simulatedPeople
    var evaluations = 0
    func simulate(_ c: CompliancePlan) -> ComplianceMoments {
      var p = plan
      p.compliance = c
      evaluations += 1
      progress(evaluations, maxEvaluations)
      return Self.simulate(p, seed: seed, recording: recording, threads: threads)
    }
    let moments = Self.moments(pilot, recording: recording, firstDaysWindow: plan.compliance.firstDaysWindow)
    let observed = moments.map { $0.value(pilot) }
    let (omega, sd) = Self.pilotCovariance(pilot, moments: moments, seed: seed, resamples: resamples)
    // The weights: the pilot's variance and the simulation's (its share of the pilot's; with the
    // records' rule, of the participants a simulation at the start keeps).
    let simulated = recording.keptAtLeast == nil ? simulatedPeople : max(simulate(plan.compliance).people, 1)
    let simulatedShare = Double(max(pilot.people, 1)) / Double(simulated)
    let se = zip(sd, moments).map { s, m in max(s, m.floor) * (1 + simulatedShare).squareRoot() }
    var parameters = Self.parameters(pilot, plan: plan, recording: recording)
    let start = plan.compliance
    func apply(_ u: [Double], to c: CompliancePlan, _ ps: [Parameter]) -> CompliancePlan {
      var c = c
      let mean = c.answerProbability ?? CompliancePlan.meanWillingness(c.classes, shift: 0)
      c.answerProbability = mean
      for (k, p) in ps.enumerated() where p.key != "answer_probability" { p.set(&c, p.value(u[k])) }
      if let k = ps.firstIndex(where: { $0.key == "answer_probability" }) { c.answerProbability = ps[k].value(u[k]) }
      return c
    }
    func residuals(_ m: ComplianceMoments) -> [Double] {
      moments.indices.map { j in
        let v = moments[j].value(m)
        return v.isFinite && observed[j].isFinite ? (v - observed[j]) / se[j] : 0
      }
    }
    // The parameters no moment moves at the start are not identified: kept.
    var u0 = parameters.map { $0.coordinate($0.get(start)) }
    let jacobian0 = Self.jacobian(u0, parameters, step: 0.5) { residuals(simulate(apply($0, to: start, parameters))) }
    let moved = parameters.indices.filter { k in jacobian0.map { abs($0[k]) }.max() ?? 0 > 0.05 }
    let unmoved = parameters.indices.filter { !moved.contains($0) }.map { parameters[$0].key }
    parameters = moved.map { parameters[$0] }
    u0 = moved.map { u0[$0] }
    // The search, then the hour odds by ratio, then the search again from there.
    let hourCounts = pilot.byHour.mapValues(\.count)
    let hours = hourCounts.filter { $0.value >= minPromptsPerHour }.keys.sorted()
    var current = start
    var u = u0
    var last: LevenbergMarquardt.Result?
    var leverage: [Int: Double] = [:]
    var boundHours: [Int] = []
    for round in 0..<2 {
      let budget = max((maxEvaluations - evaluations) / (2 - round), 4 * parameters.count + 2)
      let base = current
      let found = LevenbergMarquardt.minimise(
        { x in
          residuals(simulate(apply(x, to: base, parameters)))
            + parameters.indices.map { (x[$0] - u0[$0]) / parameters[$0].prior }
        }, start: u, step: 0.25, maxEvaluations: budget)
      u = found.point
      last = found
      current = apply(u, to: current, parameters)
      guard !hours.isEmpty, round == 0 else { break }
      (leverage, boundHours) = Self.fitHours(&current, hours: hours, pilot: pilot, simulate: simulate)
    }
    // Uncertainty: the sandwich at the estimate, from the search's last derivatives (the
    // moments' rows; the prior's rows are its precision).
    let g = Array((last?.jacobian ?? []).prefix(moments.count))
    let scaledOmega = omega.indices.map { i in omega.indices.map { j in omega[i][j] / (se[i] * se[j]) * (1 + simulatedShare) } }
    let covariance = Self.sandwich(g, scaledOmega, prior: parameters.map { 1 / ($0.prior * $0.prior) })
    let atEstimate = simulate(current)
    var estimates: [Estimate] = []
    for (k, p) in parameters.enumerated() {
      let s = covariance[k][k].squareRoot()
      let (a, b) = (p.value(u[k] - 1.96 * s), p.value(u[k] + 1.96 * s))
      var e = Estimate(key: p.key, value: p.value(u[k]), low: min(a, b), high: max(a, b), standardError: s)
      if !p.plausible.contains(e.value) {
        e.atBound = true
        e.reason = "outside \(p.plausible.lowerBound)–\(p.plausible.upperBound): the model reaches the pilot's moments only with an extreme value (see the moments and the check)"
      }
      estimates.append(e)
    }
    let fits = moments.indices.map { j in
      MomentFit(name: moments[j].name, pilot: observed[j], simulated: moments[j].value(atEstimate), standardError: se[j])
    }
    // Draws of the parameters for predictions: u + L·z, L the covariance's Cholesky factor.
    var stream = RandomStream(StreamAddress(seed: seed, replication: 0, participant: 0, purpose: .calibration))
    let factor = Self.cholesky(covariance)
    // The trends the pilot cannot fit, drawn with their spread between studies around the
    // scenario's values (every class's weekly change moved by one draw: around the drawn
    // classes' mean, which the drawn shares move, the draw would count their move twice).
    let unfittedTrends = Self.trendParameters(plan: plan).filter { t in !parameters.contains { $0.key == t.key } }
    let sampled = (0..<draws).map { _ -> CompliancePlan in
      let z = parameters.indices.map { _ in stream.normal(sd: 1) }
      // Each drawn value kept within its plausible range (a direction the pilot hardly
      // identifies has a wide variance).
      let x = parameters.indices.map { i in
        let v = u[i] + (0...i).reduce(0) { $0 + factor[i][$1] * z[$1] }
        let p = parameters[i]
        return min(max(v, p.coordinate(p.plausible.lowerBound)), p.coordinate(p.plausible.upperBound))
      }
      var c = apply(x, to: current, parameters)
      c.hourOdds = current.hourOdds
      for t in unfittedTrends { t.set(&c, t.get(plan.compliance) + stream.normal(sd: t.betweenStudies ?? 0)) }
      return c
    }
    let unfittedHours = leverage.isEmpty ? [] : hours.filter { leverage[$0] == nil && !boundHours.contains($0) }
    let hourEstimates = hours.filter { leverage[$0] != nil }.map { h -> (hour: Int, value: Double, standardError: Double) in
      let q = pilot.byHour[h]!
      let n = Double(q.count)
      // The pilot's binomial error of the hour's log-odds, and the simulation's, through the
      // hour odds' leverage on the answered share.
      let binomial = (1 / max(n * q.share * (1 - q.share), 1e-9)).squareRoot() * (1 + simulatedShare).squareRoot()
      return (h, current.hourOdds[h], binomial / (leverage[h] ?? 1))
    }
    return Result(
      compliance: current, estimates: estimates, moments: fits, hourCounts: hourCounts, hours: hourEstimates, draws: sampled,
      notIdentified: Self.notIdentified(pilot, recording: recording, fitted: parameters.map(\.key), unmoved: unmoved)
        + (unfittedHours.isEmpty
          ? [] : ["hour_odds at \(unfittedHours.map(String.init).joined(separator: ", ")) h (their odds hardly move the hour's answered share in the simulation: prompts at fixed times, which the hour odds spare, or too few prompts to tell; kept)"])
        + (boundHours.isEmpty
          ? [] : ["hour_odds at \(boundHours.map(String.init).joined(separator: ", ")) h (pushed to a bound of their odds, 0.02 or 50: the pilot's share at that hour is beyond what the hour's odds reach, a few participants' habits rather than the hour's; kept)"]),
      evaluations: evaluations,
      keptShare: recording.keptAtLeast == nil || atEstimate.considered == 0
        ? nil : Double(atEstimate.people) / Double(atEstimate.considered))
  }

  /// The pilot's protocol simulated (the study runner's threads, the outcomes in participant
  /// order) and its prompts as the platform records them.
  static func simulate(_ p: StudyPlan, seed: UInt64, recording: PilotRecording, threads: Int) -> ComplianceMoments {
    let collected = OutcomeCollector(capacity: p.participants)
    let options = StudySimulation.Options(threads: threads, detailParticipants: 0)
    _ = try? StudySimulation.simulate(p, seed: seed, replication: 0, options: options, observers: [collected])  // the collector never throws
    return ComplianceMoments(collected.outcomes, recording: recording)
  }
}
