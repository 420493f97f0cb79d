import SimKernel

/// The latent momentary state (for example affect on 0–100) as an Ornstein–Uhlenbeck
/// process whose mean is the current context's plus the person's own level, sampled exactly.
///
/// With Y = X − μ, θ = 1/time constant and σ the diffusion (σ² = 2θ·sd²), over a step Δ:
///
///     Y(Δ) = a·Y(0) + ε1,        a = e^(−θΔ)
///     ∫₀^Δ Y dt = Y(0)(1 − a)/θ + ε2
///     Var ε1 = σ²(1 − a²)/(2θ),  Var ε2 = σ²/θ²·[Δ − 2(1 − a)/θ + (1 − a²)/(2θ)],
///     Cov(ε1, ε2) = σ²(1 − a)²/(2θ²)
///
/// (Gillespie 1996, "Exact numerical simulation of the Ornstein-Uhlenbeck process and its
/// integral"). The integral over waking time is accumulated exactly, so the true waking-day
/// mean is known and the bias of what answered prompts report can be measured.
public struct GroundTruth: Sendable {
  let theta: Double  // per minute
  let sigma: Double
  let personLevel: Double
  let means: [Double]
  /// The time of the last sample.
  public private(set) var time: SimTime = 0
  /// The state then.
  public private(set) var value: Double
  /// ∫ X dt over waking time so far (state × minutes).
  public private(set) var wakingIntegral = 0.0
  /// Waking minutes so far.
  public private(set) var wakingMinutes = 0.0
  var cursor = 0

  /// Starts the process at its stationary distribution around the first context's mean.
  public init(plan: StatePlan, conditions: [ContextConditions], personLevel: Double, first: Context, stream: inout RandomStream) {
    theta = 1 / plan.reversionMinutes
    sigma = plan.sd * (2 * theta).squareRoot()
    self.personLevel = personLevel
    means = conditions.map(\.stateMean)
    value = means[first.rawValue] + personLevel + stream.normal(sd: plan.sd)
  }

  /// Advances the process to `target`, walking the timeline's episodes (each sets the mean;
  /// asleep ones do not count towards the waking mean).
  public mutating func advance(to target: SimTime, timeline: Timeline, stream: inout RandomStream) {
    guard target > time else { return }
    cursor = timeline.index(at: time, from: cursor)
    while time < target {
      let e = timeline.episodes[cursor]
      let segmentEnd = cursor + 1 < timeline.episodes.count ? min(e.end, target) : target
      step(
        minutes: Double(segmentEnd - time) / Double(Tick.minute), mean: means[e.context.rawValue] + personLevel,
        waking: e.context != .asleep, &stream)
      time = segmentEnd
      if time >= e.end && cursor + 1 < timeline.episodes.count { cursor += 1 }
    }
  }

  /// One exact step of `minutes` towards `mean`.
  mutating func step(minutes delta: Double, mean: Double, waking: Bool, _ s: inout RandomStream) {
    guard delta > 0 else { return }
    let y0 = value - mean
    let a = exp(-theta * delta)
    let s2 = sigma * sigma
    let v1 = s2 * (1 - a * a) / (2 * theta)
    let e1 = v1 > 0 ? v1.squareRoot() * s.normal(sd: 1) : 0
    value = mean + a * y0 + e1
    guard waking else { return }
    let v2 = s2 / (theta * theta) * (delta - 2 * (1 - a) / theta + (1 - a * a) / (2 * theta))
    let c = s2 * (1 - a) * (1 - a) / (2 * theta * theta)
    let conditionalVariance = v1 > 0 ? max(v2 - c * c / v1, 0) : max(v2, 0)
    let e2 = (v1 > 0 ? c / v1 * e1 : 0) + conditionalVariance.squareRoot() * s.normal(sd: 1)
    wakingIntegral += mean * delta + y0 * (1 - a) / theta + e2
    wakingMinutes += delta
  }

  /// The mean of the state over the waking time so far.
  public var wakingMean: Double { wakingMinutes > 0 ? wakingIntegral / wakingMinutes : .nan }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
