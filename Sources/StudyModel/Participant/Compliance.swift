import SimKernel

/// The decision to answer a noticed prompt (``CompliancePlan``).
public enum Compliance {
  /// What a prompt costs the participant, beyond the person and the moment, as a factor on
  /// the odds of answering: its survey's length, the prompts noticed shortly before it (their
  /// load), and whether it comes at a fixed time (which also spares it the hour's multiplier).
  public struct Burden: Sendable {
    /// The factor on the odds of answering.
    public var odds: Double = 1
    /// Whether the prompt comes at a fixed time of day (a `fixed-times` schedule).
    public var scheduled = false

    /// No burden.
    public init() {}

    /// The burden of a survey whose median answering time is `minutes`, after a density load
    /// of `load`, at a fixed time or not (``CompliancePlan/lengthEffect``,
    /// ``CompliancePlan/densityEffect``, ``CompliancePlan/scheduledBoost``).
    public init(_ plan: CompliancePlan, minutes: Double = 1, load: Double = 0, scheduled: Bool = false) {
      self.init(
        lengthOdds: Self.lengthOdds(plan, minutes: minutes), load: load, scheduled: scheduled, densityEffect: plan.densityEffect,
        scheduledBoost: plan.scheduledBoost)
    }

    /// The same with the length's odds already worked out.
    init(lengthOdds: Double, load: Double, scheduled: Bool, densityEffect: Double, scheduledBoost: Double) {
      var odds = lengthOdds
      if densityEffect > 0 && load > 0 { odds *= exp(-densityEffect * load) }
      if scheduled { odds *= scheduledBoost }
      self.odds = odds
      self.scheduled = scheduled
    }

    /// The length's factor on the odds: exp(−effect × minutes beyond the first).
    static func lengthOdds(_ plan: CompliancePlan, minutes: Double) -> Double {
      plan.lengthEffect > 0 && minutes > 1 ? exp(-plan.lengthEffect * (minutes - 1)) : 1
    }
  }

  /// The probability of answering a noticed prompt.
  ///
  /// - Parameters:
  ///   - level: the person's own probability (first day).
  ///   - dayFactor: the decline by the study day (``dayFactor(_:day:declinePerDay:)``).
  ///   - previousMissed: whether the person declined the previous prompt they decided on
  ///     (nil: none yet).
  ///   - hour: the hour of day (0–23).
  ///   - context: the context's willingness multiplier.
  ///   - stateZ: the latent state's momentary deviation in sds (0 when not used).
  ///   - burden: the prompt's length, density and timing (``Burden``), which move the odds.
  public static func probability(
    _ plan: CompliancePlan, level: Double, dayFactor: Double, previousMissed: Bool?, hour: Int, context: Double,
    stateZ: Double, burden: Burden = Burden()
  ) -> Double {
    var p = level * dayFactor
    // The hour of day's pattern is of prompts at random times (Rintala et al. 2019); a prompt
    // at a fixed, known time is expected whatever the hour (its odds: scheduledBoost).
    if !burden.scheduled { p *= plan.hourMultipliers[min(max(hour, 0), 23)] }
    p *= context
    p = min(max(p, 0), 1)
    // The burden moves the odds: longer surveys, prompts close together, and a fixed time.
    if burden.odds != 1 && p > 0 && p < 1 { p = p * burden.odds / (1 - p + p * burden.odds) }
    // Which moments are answered, not how many (StateDependence).
    if plan.stateDependence != 0 { p = plan.stateShift.probability(p, z: stateZ) }
    // Refusals cluster: a two-state chain on the probability p of this moment with
    // P(answer | answered) − P(answer | missed) = κ and the same stationary mean p: after a
    // miss p(1 − κ), after an answer p(1 − κ) + κ.
    if let missed = previousMissed {
      let k = plan.missPersistence
      p = missed ? p * (1 - k) : p * (1 - k) + k
    }
    return p
  }

  /// The decline on study day `day` of a person whose own decline beyond the first days' is
  /// `declinePerDay`: the first days' (``dayMultiplier(_:day:)``) times e^(−declinePerDay·day).
  public static func dayFactor(_ plan: CompliancePlan, day: Int, declinePerDay: Double = 0) -> Double {
    dayMultiplier(plan, day: day) * (declinePerDay > 0 ? exp(-declinePerDay * Double(day)) : 1)
  }

  /// The factor on the delay to opening a prompt by hour of day: shortest in the evening
  /// (20:00–23:00: Stach et al. 2024 find the lowest interaction delays then, [@Stach2024],
  /// C, for notifications of every kind; 0.7 is an assumption, D), longest in the early
  /// morning (06:00–09:59, 1.3: assumption, D, beside Rintala et al. 2019's lowest
  /// compliance then).
  static func openDelayFactor(hour: Int) -> Double {
    switch hour {
    case 6...9: 1.3
    case 20...23: 0.7
    default: 1.0
    }
  }

  /// The decline over study days: 1 − L·(1 − e^(−r·day/L)) with r the initial rate
  /// (``CompliancePlan/declinePerDay``) and L the share it levels off at
  /// (``CompliancePlan/declineLimit``).
  public static func dayMultiplier(_ plan: CompliancePlan, day: Int) -> Double {
    let (r, l) = (plan.declinePerDay, plan.declineLimit)
    guard r > 0, l > 0 else { return 1 }
    return 1 - l * (1 - exp(-r * Double(day) / l))
  }

  /// Mean seconds from declining a prompt to dismissing it, for those who dismiss
  /// (assumption, D).
  static let dismissSeconds = 5.0

  /// A lognormal delay in milliseconds with the given median (seconds) and spread.
  static func delay(median: SimTime, sigma: Double, _ s: inout RandomStream) -> SimTime {
    Tick.seconds(Tick.inSeconds(median) * exp(sigma * s.normal(sd: 1)))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
