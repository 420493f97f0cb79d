import SimKernel

/// The decision to answer a noticed prompt (``CompliancePlan``).
public enum Compliance {
  /// The probability of answering a noticed prompt.
  ///
  /// - Parameters:
  ///   - level: the person's own probability (first day).
  ///   - previousMissed: whether the person declined the previous prompt they decided on
  ///     (nil: none yet).
  ///   - day: the study day (0-based).
  ///   - hour: the hour of day (0–23).
  ///   - context: the context's willingness multiplier.
  ///   - stateZ: the latent state's momentary deviation in sds (0 when not used).
  public static func probability(
    _ plan: CompliancePlan, level: Double, previousMissed: Bool?, day: Int, hour: Int, context: Double, stateZ: Double
  ) -> Double {
    var p = level
    if let missed = previousMissed {
      // Two-state chain with P(answer | answered) − P(answer | missed) = κ and the same
      // stationary mean: after a miss m(1 − κ), after an answer m(1 − κ) + κ.
      let k = plan.missPersistence
      p = missed ? level * (1 - k) : level * (1 - k) + k
    }
    p *= dayMultiplier(plan, day: day)
    p *= plan.hourMultipliers[min(max(hour, 0), 23)]
    p *= context
    p = min(max(p, 0), 1)
    // Which moments are answered, not how many (StateDependence).
    return plan.stateDependence != 0 ? plan.stateShift.probability(p, z: stateZ) : p
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
