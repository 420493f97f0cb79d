import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel

/// Estimates the compliance model (``CompliancePlan``, one class of participants) from a
/// pilot by the method of simulated moments: the pilot's protocol and phones are simulated
/// with candidate values, and each parameter is set, in turn, so that the moment it drives
/// most matches the pilot's (``Parameter``: the later days against the earlier ↔ decline
/// per week; spread between participants ↔ person sd; answering after an answer against
/// after a miss ↔ miss persistence; the median wait to open ↔ opening delay; opened and
/// not submitted ↔ break-off rate; answered share ↔ level; share by hour ↔ hour
/// multipliers), rounds over all. The waits' spread and people's paces are not fitted (the
/// expiry cuts the waits off; see `parameters`). The simulation sees what the pilot's platform
/// records (``PilotRecording``), so that delivery, noticing, sleep and the answer window are
/// the model's, not the estimate's.
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
    /// The search ended at the edge of the parameter's range with the moments apart: the
    /// model cannot show what the pilot shows.
    public var atBound = false
  }

  /// The result: the fitted compliance, every estimate, the refits (one per bootstrap
  /// resample: the estimate's uncertainty, for predictions), and what the pilot cannot
  /// identify.
  public struct Result: Sendable {
    public var compliance: CompliancePlan
    public var estimates: [Estimate]
    public var hourCounts: [Int: Int]
    /// The hour multipliers the pilot identifies: hour, value, bootstrap standard error.
    public var hours: [(hour: Int, value: Double, standardError: Double)]
    public var refits: [CompliancePlan]
    public var notIdentified: [String]
  }

  /// Hours of the day with fewer recorded prompts keep their default multiplier.
  static let minPromptsPerHour = 30

  /// A parameter fitted to its moment: its scenario key, range (searched on a log scale or
  /// not), the direction it moves the moment, and how it is set and read.
  struct Parameter {
    var key: String
    var range: ClosedRange<Double>
    var logScale: Bool
    var increasing: Bool
    var set: @Sendable (inout CompliancePlan, Double) -> Void
    var get: @Sendable (CompliancePlan) -> Double
    var moment: @Sendable (ComplianceMoments) -> Double
    /// The value reported (the searched one unless it differs, as the person sd's share).
    var shown: (@Sendable (CompliancePlan) -> Double)? = nil
  }

  /// One class that stands for the scenario's classes: their mean level and decline, the
  /// level's sd over everyone (within and between the classes).
  static func oneClass(_ c: CompliancePlan) -> CompliancePlan {
    guard let classes = c.classes else { return c }
    var one = c
    let total = classes.reduce(0) { $0 + $1.share }
    let mean = classes.reduce(0) { $0 + $1.share * $1.level } / total
    let variance = classes.reduce(0) { $0 + $1.share * ($1.levelSD * $1.levelSD + ($1.level - mean) * ($1.level - mean)) } / total
    one.answerProbability = mean
    one.personSD = min(variance.squareRoot(), 0.45)
    one.declinePerWeek = classes.reduce(0) { $0 + $1.share * $1.declinePerWeek } / total
    one.declineSD = classes.reduce(0) { $0 + $1.share * $1.declineSD } / total
    return one
  }

  /// Calibrates `plan`'s compliance to `pilot`.
  ///
  /// - Parameters:
  ///   - plan: the pilot's protocol, phones and population (its compliance is the start; its
  ///     classes are taken as one, ``oneClass(_:)``).
  ///   - recording: what the pilot's platform records.
  ///   - simulatedPeople: participants per simulation (common random numbers across them).
  ///   - bootstrap: resamples for the intervals; `rounds` over the parameters and bisection
  ///     `iterations` for the estimate (the refits: one round, 5 fewer iterations).
  public static func calibrate(
    pilot: ComplianceMoments, plan base: StudyPlan, recording: PilotRecording, seed: UInt64, simulatedPeople: Int = 300,
    bootstrap: Int = 30, rounds: Int = 6, iterations: Int = 14, threads: Int = 1
  ) -> Result {
    var plan = base
    plan.compliance = oneClass(plan.compliance)
    plan.days = max(pilot.days, 1)
    plan.participants = simulatedPeople
    func simulate(_ c: CompliancePlan, seed: UInt64 = seed) -> ComplianceMoments {
      var p = plan
      p.compliance = c
      return Self.simulate(p, seed: seed, recording: recording, threads: threads)
    }
    var notIdentified: [String] = [
      "classes (one class is fitted: telling classes apart takes hundreds of participants)",
      "state_dependence, state_correlation (the records carry no state)",
      "decline_limit, decline_per_day (kept: the first days' decline; the weeks' is decline_per_week)",
      "decline_sd (how much people differ in their decline: kept)",
      "dismiss_share, completion, dropout_per_day, density_effect, length_effect, scheduled_boost (kept)",
    ]
    let hourCounts = pilot.byHour.mapValues(\.count)
    let hours = hourCounts.filter { $0.value >= minPromptsPerHour }.keys.sorted()
    for h in 0..<24 where !hours.contains(h) && (hourCounts[h] ?? 0) > 0 {
      notIdentified.append("hour_multipliers[\(h)] (\(hourCounts[h]!) prompts; kept)")
    }
    let parameters = Self.parameters(pilot: pilot, plan: plan, recording: recording, notIdentified: &notIdentified)
    // Bisection of one parameter to a target moment, the others held.
    func solve(_ p: Parameter, _ c: CompliancePlan, target: Double, iterations: Int, seed: UInt64) -> Double {
      guard target.isFinite else { return p.get(c) }
      var (lo, hi) = p.logScale ? (log(p.range.lowerBound), log(p.range.upperBound)) : (p.range.lowerBound, p.range.upperBound)
      var c = c
      for _ in 0..<iterations {
        let mid = (lo + hi) / 2
        p.set(&c, p.logScale ? exp(mid) : mid)
        let moment = p.moment(simulate(c, seed: seed))
        if moment.isNaN { break }
        if (moment < target) == p.increasing { lo = mid } else { hi = mid }
      }
      let x = (lo + hi) / 2
      return p.logScale ? exp(x) : x
    }
    // Rounds over every parameter, the hour multipliers after the level.
    func fit(_ m: ComplianceMoments, from start: CompliancePlan, rounds: Int, iterations: Int, seed: UInt64) -> CompliancePlan {
      var c = start
      let observed = m.byHour
      for _ in 0..<rounds {
        for p in parameters { p.set(&c, solve(p, c, target: p.moment(m), iterations: iterations, seed: seed)) }
        guard !hours.isEmpty else { continue }
        // After the level (the last parameter): the hour multipliers by ratio of the shares
        // (then the level again, next round).
        let simulated = simulate(c, seed: seed).byHour
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
    let c = fit(pilot, from: plan.compliance, rounds: rounds, iterations: iterations, seed: seed)
    // Intervals: the whole fit again on resamples of the pilot's participants (one round from
    // the estimate, coarser bisection), each simulating with a seed of its own so that the
    // simulation's own noise is in the interval too; mean ± 1.96 sd of the refitted values.
    var stream = RandomStream(StreamAddress(seed: seed, replication: 0, participant: 0, purpose: Purpose.traits.indexed(9)))
    let refits = (0..<bootstrap).map { r in
      fit(pilot.resampled(&stream), from: c, rounds: 1, iterations: iterations - 5, seed: seed &+ 1 &+ UInt64(r))
    }
    let atEstimate = simulate(c)
    var estimates: [Estimate] = []
    // The refits' sample sd (nan for fewer than two).
    func sd(_ xs: [Double]) -> Double {
      let mean = xs.reduce(0, +) / Double(max(xs.count, 1))
      return xs.count >= 2 ? (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count - 1)).squareRoot() : .nan
    }
    for p in parameters {
      let value = p.shown ?? p.get
      let range = p.shown == nil ? p.range : value(c) * p.range.lowerBound / max(p.get(c), 1e-12)...value(c) * p.range.upperBound / max(p.get(c), 1e-12)
      let sd = sd(refits.map(value))
      let v = value(c)
      let low = max(v - 1.96 * sd, range.lowerBound)
      let high = min(v + 1.96 * sd, range.upperBound)
      // At the edge of its search: the model does not show the pilot's moment.
      let searched = p.get(c)
      let span = p.range.upperBound - p.range.lowerBound
      let atBound = searched <= p.range.lowerBound + 0.002 * span || searched >= p.range.upperBound - 0.002 * span
      estimates.append(
        Estimate(
          key: p.key, value: v, low: low, high: high, standardError: sd, pilotMoment: p.moment(pilot),
          simulatedMoment: p.moment(atEstimate), atBound: atBound && abs(p.moment(pilot) - p.moment(atEstimate)) > 0.02 * max(abs(p.moment(pilot)), 1e-9)))
    }
    let hourEstimates = hours.map { h in
      (hour: h, value: c.hourMultipliers[h], standardError: sd(refits.map { $0.hourMultipliers[h] }))
    }
    return Result(
      compliance: c, estimates: estimates, hourCounts: hourCounts, hours: hourEstimates, refits: refits, notIdentified: notIdentified)
  }

  /// The pilot's protocol simulated (the study runner's threads, the outcomes in participant
  /// order) and its prompts as the platform records them.
  static func simulate(_ p: StudyPlan, seed: UInt64, recording: PilotRecording, threads: Int) -> ComplianceMoments {
    var outcomes: [ParticipantOutcome] = []
    outcomes.reserveCapacity(p.participants)
    let options = StudyRunner.Options(seed: seed, threads: threads, heatHours: 0, detailParticipants: 0)
    _ = StudyRunner.run(p, replication: 0, options: options, each: { outcomes.append($0) })
    return ComplianceMoments(outcomes, recording: recording)
  }

  /// The parameters this pilot identifies, the level last (it takes up what the others
  /// leave of the answered share); what it does not, said in `notIdentified`.
  static func parameters(
    pilot: ComplianceMoments, plan: StudyPlan, recording: PilotRecording, notIdentified: inout [String]
  ) -> [Parameter] {
    var out: [Parameter] = []
    let days = pilot.days
    // The waits first (they move the answered share through the expiry), then the decline,
    // the spread and the clustering, the level last.
    out.append(
      Parameter(
        key: "open_delay", range: 1...3600, logScale: true, increasing: true,
        set: { $0.openDelay = Tick.seconds($1) }, get: { Tick.inSeconds($0.openDelay) }, moment: \.medianWait))
    notIdentified.append(
      "open_delay_sigma, speed_sd (the spread of waits and of people's paces: a pilot's answered waits are cut off by the expiry, and the model's noticing sets their short end, so their spread hardly moves with these: kept; the check's waits show how well they fit)")
    if days >= 4 {
      out.append(
        Parameter(
          key: "decline_per_week", range: 0...3, logScale: false, increasing: false, set: { $0.declinePerWeek = $1 },
          get: \.declinePerWeek, moment: { $0.lateOverEarly(from: days / 2) }))
    } else {
      notIdentified.append("decline_per_week (a pilot of \(days) days; kept)")
    }
    // The spread is searched as a share of the largest a Beta of that level can have
    // (√(m(1 − m))), so that a level near 1 is not given a spread only a two-point
    // distribution has; the level keeps that share when it moves.
    out.append(
      Parameter(
        key: "person_sd", range: 0...maxRelativeSpread, logScale: false, increasing: true,
        set: { $0.personSD = $1 * Self.spreadScale($0.answerProbability) },
        get: { $0.personSD / max(Self.spreadScale($0.answerProbability), 1e-9) }, moment: \.personSpread, shown: \.personSD))
    out.append(
      Parameter(
        key: "miss_persistence", range: 0...0.95, logScale: false, increasing: true, set: { $0.missPersistence = $1 },
        get: \.missPersistence, moment: \.persistence))
    let longest = (0..<max(plan.protocolPlan.schedules.count, 1)).map { plan.protocolPlan.survey(ofSchedule: $0).length }.max() ?? 1
    if !recording.breakOffs {
      notIdentified.append("break_off_per_minute (the platform does not record a survey opened and left: kept)")
    } else if longest <= 1 {
      notIdentified.append(
        "break_off_per_minute (the surveys have one item, protocol.survey.length: a one-item survey is not left half-done; kept)")
    } else {
      out.append(
        Parameter(
          key: "break_off_per_minute", range: 0...2, logScale: false, increasing: true, set: { $0.breakOffPerMinute = $1 },
          get: \.breakOffPerMinute, moment: \.breakOffShare))
    }
    out.append(
      Parameter(
        key: "answer_probability", range: 0.02...0.999, logScale: false, increasing: true,
        set: { c, m in
          let relative = c.personSD / max(Self.spreadScale(c.answerProbability), 1e-9)
          c.answerProbability = m
          c.personSD = min(relative, maxRelativeSpread) * Self.spreadScale(m)
        }, get: \.answerProbability, moment: \.rate))
    return out
  }

  /// The largest sd a Beta of mean `m` approaches (a two-point distribution's).
  static func spreadScale(_ m: Double) -> Double { (m * (1 - m)).squareRoot() }
  /// The person sd searched up to this share of it (a Beta(α, β) with α + β about 0.23: most
  /// people near the level's ends, as a pilot with a few who hardly answer shows).
  static let maxRelativeSpread = 0.9
}
