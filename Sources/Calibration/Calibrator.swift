import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel

/// Estimates the compliance model (``CompliancePlan``) from a pilot by the method of
/// simulated moments: the pilot's protocol and phones are simulated with candidate values,
/// and each parameter is set, in turn, so that the moment it drives most matches the
/// pilot's (answered share ↔ level; share by hour ↔ hour multipliers; the later days
/// against the first ↔ decline (monotone: each day's multiplier falls as the rate rises); spread between participants ↔ person sd; answering after an answer
/// against after a miss ↔ miss persistence; median time to submit ↔ opening delay), three
/// rounds over all. The simulation sees what the pilot's platform records (AWARE: iPhones'
/// answered, dismissed and expired prompts; Beiwe: every shown prompt), so that delivery,
/// noticing, sleep and the answer window are the model's, not the estimate's.
///
/// Intervals: participants of the pilot are resampled (bootstrap) and the whole fit is run
/// again on each resample (one round from the estimate); an estimate's standard error is the
/// refits' sd, its interval the estimate ± 1.96 of them (clipped to the parameter's range).
public enum Calibrator {
  /// One estimate.
  public struct Estimate: Sendable {
    public var key: String
    public var value: Double
    public var low: Double
    public var high: Double
    /// The bootstrap standard error.
    public var standardError: Double
    /// The pilot's moment and the simulation's at the estimate.
    public var pilotMoment: Double
    public var simulatedMoment: Double
  }

  /// The result: the fitted compliance, every estimate, and what the pilot cannot identify.
  public struct Result: Sendable {
    public var compliance: CompliancePlan
    public var estimates: [Estimate]
    public var hourCounts: [Int: Int]
    /// The hour multipliers the pilot identifies: hour, value, bootstrap standard error.
    public var hours: [(hour: Int, value: Double, standardError: Double)]
    public var notIdentified: [String]
  }

  /// Hours of the day with fewer shown prompts keep their default multiplier.
  static let minPromptsPerHour = 30

  /// Calibrates `plan`'s compliance to `pilot`.
  ///
  /// - Parameters:
  ///   - plan: the pilot's protocol, phones and population (its compliance is the start).
  ///   - awareRows: the pilot is AWARE rows (only iPhones' acted-on prompts recorded).
  ///   - simulatedPeople: participants per simulation (common random numbers across them).
  ///   - bootstrap: resamples for the intervals; `rounds` over the parameters and bisection
  ///     `iterations` for the estimate (the refits: one round, 5 fewer iterations).
  public static func calibrate(
    pilot: ComplianceMoments, plan base: StudyPlan, awareRows: Bool, seed: UInt64, simulatedPeople: Int = 300,
    bootstrap: Int = 30, rounds: Int = 3, iterations: Int = 14, threads: Int = 1
  ) -> Result {
    var plan = base
    // The estimator fits one class (answer_probability, person_sd …), starting from the
    // scenario's classes' mean level.
    if let classes = plan.compliance.classes {
      let total = classes.reduce(0) { $0 + $1.share }
      plan.compliance.answerProbability = classes.reduce(0) { $0 + $1.share * $1.level } / total
    }
    plan.days = max(pilot.days, 1)
    plan.participants = simulatedPeople
    func simulate(_ c: CompliancePlan) -> ComplianceMoments {
      var p = plan
      p.compliance = c
      // The study runner's threads, its outcomes handed over in participant order.
      var outcomes: [ParticipantOutcome] = []
      outcomes.reserveCapacity(p.participants)
      let options = StudyRunner.Options(seed: seed, threads: threads, heatHours: 0, detailParticipants: 0)
      _ = StudyRunner.run(p, replication: 0, options: options, each: { outcomes.append($0) })
      return ComplianceMoments(outcomes, awareRows: awareRows)
    }
    var notIdentified: [String] = [
      "state_dependence (the records carry no state)", "decline_limit (kept; a pilot shows the decline's start)",
      "dismiss_share, completion, dropout_per_day (kept)",
    ]
    let hourCounts = pilot.byHour.mapValues(\.count)
    let hours = hourCounts.filter { $0.value >= minPromptsPerHour }.keys.sorted()
    for h in 0..<24 where !hours.contains(h) && (hourCounts[h] ?? 0) > 0 {
      notIdentified.append("hour_multipliers[\(h)] (\(hourCounts[h]!) prompts; kept)")
    }
    // The parameters, each with its moment, its range and the direction it moves the moment.
    struct Parameter {
      var key: String
      var range: ClosedRange<Double>
      var logScale: Bool
      var increasing: Bool
      var set: (inout CompliancePlan, Double) -> Void
      var get: (CompliancePlan) -> Double
      var moment: (ComplianceMoments) -> Double
    }
    // The level last: it takes up what the others leave of the answered share.
    var parameters: [Parameter] = []
    if pilot.days >= 4 {
      parameters.append(
        Parameter(
          key: "decline_per_day", range: 0...0.3, logScale: false, increasing: false, set: { $0.declinePerDay = $1 },
          get: \.declinePerDay, moment: { $0.lateOverEarly(from: 1) }))
    } else {
      notIdentified.append("decline_per_day (a pilot of \(pilot.days) days; kept)")
    }
    parameters += [
      Parameter(
        key: "person_sd", range: 0...0.45, logScale: false, increasing: true, set: { $0.personSD = $1 }, get: \.personSD,
        moment: \.personSpread),
      Parameter(
        key: "miss_persistence", range: 0...0.95, logScale: false, increasing: true, set: { $0.missPersistence = $1 },
        get: \.missPersistence, moment: \.persistence),
      Parameter(
        key: "open_delay", range: 1...3600, logScale: true, increasing: true,
        set: { $0.openDelay = Tick.seconds($1) }, get: { Tick.inSeconds($0.openDelay) }, moment: \.medianLatency),
      Parameter(
        key: "answer_probability", range: 0.02...1, logScale: false, increasing: true, set: { $0.answerProbability = $1 },
        get: \.answerProbability, moment: \.rate),
    ]
    // Bisection of one parameter to a target moment, the others held.
    func solve(_ p: Parameter, _ c: CompliancePlan, target: Double, iterations: Int) -> Double {
      guard target.isFinite else { return p.get(c) }
      var (lo, hi) = p.logScale ? (log(p.range.lowerBound), log(p.range.upperBound)) : (p.range.lowerBound, p.range.upperBound)
      var c = c
      for _ in 0..<iterations {
        let mid = (lo + hi) / 2
        p.set(&c, p.logScale ? exp(mid) : mid)
        let moment = p.moment(simulate(c))
        if moment.isNaN { break }
        if (moment < target) == p.increasing { lo = mid } else { hi = mid }
      }
      let x = (lo + hi) / 2
      return p.logScale ? exp(x) : x
    }
    // Rounds over every parameter, the hour multipliers after the level.
    func fit(_ m: ComplianceMoments, from start: CompliancePlan, rounds: Int, iterations: Int) -> CompliancePlan {
      var c = start
      let observed = m.byHour
      for _ in 0..<rounds {
        for p in parameters { p.set(&c, solve(p, c, target: p.moment(m), iterations: iterations)) }
        guard !hours.isEmpty else { continue }
        // After the level (the last parameter): the hour multipliers by ratio of the shares
        // (then the level again, next round).
        let simulated = simulate(c).byHour
        for h in hours {
          guard let s = simulated[h], s.share > 0, let q = observed[h] else { continue }
          c.hourMultipliers[h] = min(max(c.hourMultipliers[h] * q.share / s.share, 0.05), 5)
        }
        // The level carries the mean: the observed hours' multipliers average 1, as the
        // defaults do over 08:00–22:00.
        let mean = hours.map { c.hourMultipliers[$0] }.reduce(0, +) / Double(hours.count)
        for h in hours { c.hourMultipliers[h] /= mean }
      }
      return c
    }
    let c = fit(pilot, from: plan.compliance, rounds: rounds, iterations: iterations)
    // Intervals: the whole fit again on resamples of the pilot's participants (one round from
    // the estimate, coarser bisection), mean ± 1.96 sd of the refitted values.
    var stream = RandomStream(StreamAddress(seed: seed, replication: 0, participant: 0, purpose: Purpose.traits.indexed(9)))
    let refits = (0..<bootstrap).map { _ in fit(pilot.resampled(&stream), from: c, rounds: 1, iterations: iterations - 5) }
    let atEstimate = simulate(c)
    var estimates: [Estimate] = []
    // The refits' sample sd (nan for fewer than two).
    func sd(_ xs: [Double]) -> Double {
      let mean = xs.reduce(0, +) / Double(max(xs.count, 1))
      return xs.count >= 2 ? (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count - 1)).squareRoot() : .nan
    }
    for p in parameters {
      let sd = sd(refits.map(p.get))
      let v = p.get(c)
      let low = max(v - 1.96 * sd, p.range.lowerBound)
      let high = min(v + 1.96 * sd, p.range.upperBound)
      estimates.append(
        Estimate(
          key: p.key, value: v, low: low, high: high, standardError: sd, pilotMoment: p.moment(pilot),
          simulatedMoment: p.moment(atEstimate)))
    }
    let hourEstimates = hours.map { h in
      (hour: h, value: c.hourMultipliers[h], standardError: sd(refits.map { $0.hourMultipliers[h] }))
    }
    return Result(compliance: c, estimates: estimates, hourCounts: hourCounts, hours: hourEstimates, notIdentified: notIdentified)
  }
}
