import SimKernel

/// The decision to answer a noticed prompt (``CompliancePlan``).
public enum Compliance {
  /// Probability `p` with its odds multiplied by `k` (an odds ratio moves a sure or an
  /// impossible event not at all, an unsure one most); `p` itself when `k` is 1.
  @inline(__always)
  static func withOdds(_ p: Double, times k: Double) -> Double {
    k == 1 || p <= 0 || p >= 1 ? p : p * k / (1 - p + p * k)
  }

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

  /// The probability of answering a noticed prompt, on the log-odds scale: the person's
  /// level and its change by the study day, the hour's odds (not for a prompt at a fixed
  /// time), the context's, the burden's; then the state (``StateDependence``) and the
  /// clustering of refusals. Odds move a willing person's probability little and an unsure
  /// person's much, so no multiplier caps anyone below 1.
  ///
  /// - Parameters:
  ///   - logit: the person's log-odds on this study day (level and change).
  ///   - previousMissed: whether the person declined the previous prompt they decided on
  ///     (nil: none yet).
  ///   - hour: the hour of day (0–23).
  ///   - contextOdds: the context's odds ratio (``ContextConditions/willingness``).
  ///   - stateZ: the latent state's momentary deviation in sds (0 when not used).
  ///   - burden: the prompt's length, density and timing (``Burden``), which move the odds.
  public static func probability(
    _ plan: CompliancePlan, logit: Double, previousMissed: Bool?, hour: Int, contextOdds: Double, stateZ: Double,
    burden: Burden = Burden()
  ) -> Double {
    probability(
      plan, dayOdds: exp(logit), previousMissed: previousMissed, hour: hour, contextOdds: contextOdds, stateZ: stateZ,
      burden: burden)
  }

  /// The same with the person's odds on the day, e^logit, already worked out (the simulation
  /// works them out once a day: ``PromptBurden/dayOdds(_:)``).
  static func probability(
    _ plan: CompliancePlan, dayOdds: Double, previousMissed: Bool?, hour: Int, contextOdds: Double, stateZ: Double,
    burden: Burden
  ) -> Double {
    guard contextOdds > 0 else { return 0 }
    var odds = dayOdds * contextOdds * burden.odds
    // The hour of day's pattern is of prompts at random times (Rintala et al. 2019); a prompt
    // at a fixed, known time is expected whatever the hour (its odds: scheduledBoost).
    if !burden.scheduled { odds *= plan.hourOdds[min(max(hour, 0), 23)] }
    var p = odds.isInfinite ? 1 : odds / (1 + odds)
    // Which moments are answered, not how many (StateDependence).
    if plan.stateDependence != 0 { p = plan.stateShift.probability(p, z: stateZ) }
    // Refusals cluster: a two-state chain on the probability p of this moment with
    // P(answer | answered) − P(answer | missed) = κ and the same stationary mean p: after a
    // miss p(1 − κ), after an answer p(1 − κ) + κ. A moment that cannot be answered (p 0: an
    // hour's or a burden's odds of 0) or must be (p 1) stays so.
    if let missed = previousMissed, p > 0, p < 1 {
      let k = plan.missPersistence
      p = missed ? p * (1 - k) : p * (1 - k) + k
    }
    return p
  }

  /// When a willing participant opens a prompt noticed at `now`: at once (a short lognormal
  /// delay), after a busy stretch (exponential), or later, at a share X ~ Beta(1, shape) of
  /// the window's `remaining` time as the participant reckons it
  /// (``ParticipantSimulation/deferralWindow(_:at:)``; deferral: "when convenient", so longer
  /// windows give longer waits). Draws from `s`: one uniform for the kind, then the delay's.
  static func openingDelay(
    _ plan: CompliancePlan.Opening, atOnce person: Double, busy: Double, remaining: SimTime, hour: Int = 12,
    _ s: inout RandomStream
  ) -> SimTime {
    // The hour of day moves the odds of opening at once: the evening's most, the early
    // morning's least (atOnceOdds(hour:)).
    let k = atOnceOdds(hour: hour)
    let atOnce = Compliance.withOdds(person, times: k)
    let u = s.uniform()
    if u < atOnce {
      return Tick.seconds(plan.atOnceSeconds * exp(plan.atOnceSigma * s.normal(sd: 1)))
    }
    if u < atOnce + (1 - atOnce) * busy {
      return Tick.minutes(s.exponential(mean: plan.busyMinutes))
    }
    let x = 1 - pow(1 - s.uniform(), 1 / max(plan.deferralShape, 1e-6))
    return SimTime(Double(max(remaining, 0)) * x)
  }

  /// A person's chance of opening at once (`person`, on the first study day) on study day
  /// `day` (from 0): its log-odds moved by ``CompliancePlan/atOnceWeeklyChange`` a week.
  static func atOnce(_ person: Double, _ plan: CompliancePlan, day: Int) -> Double {
    let weekly = plan.atOnceWeeklyChange
    return weekly == 0 ? person : withOdds(person, times: exp(weekly * Double(day) / 7))
  }

  /// The odds of opening at once by hour of day: higher in the evening (20:00–23:00, 1.5:
  /// Stach et al. 2024 find the lowest interaction delays then, [@Stach2024], C, for
  /// notifications of every kind; the size is an assumption, D), lower in the early morning
  /// (06:00–09:59, 0.7: assumption, D, beside Rintala et al. 2019's lowest compliance then).
  static func atOnceOdds(hour: Int) -> Double {
    switch hour {
    case 6...9: 0.7
    case 20...23: 1.5
    default: 1.0
    }
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
