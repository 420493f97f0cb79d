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
///
/// Every step is linear in the state with Gaussian noise, so the state at the end of a run
/// of episodes and its waking integral over them are jointly Gaussian given the state at the
/// start: ``Stretch`` composes the episodes' means and (co)variances without drawing, and the
/// process draws the pair once (two normals) where it is asked for, whatever the number of
/// episodes since. The same law as drawing each episode in turn, at a fraction of the cost.
public struct GroundTruth: Sendable {
  let theta: Double  // per minute
  let tau: Double  // 1/θ, minutes
  let variance: Double  // the stationary variance sd²
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
    tau = plan.reversionMinutes
    variance = plan.sd * plan.sd
    self.personLevel = personLevel
    means = conditions.map(\.stateMean)
    value = means[first.rawValue] + personLevel + stream.normal(sd: plan.sd)
  }

  /// The state at the end of a run of episodes and its waking integral over them, given the
  /// state at the start: their means, variances and covariance.
  struct Stretch {
    /// Mean of the state at the end.
    var state: Double
    /// Mean of the waking integral.
    var integral = 0.0
    /// Var(state), Var(integral), Cov(state, integral).
    var stateVariance = 0.0
    var integralVariance = 0.0
    var covariance = 0.0
    /// Waking minutes in the run.
    var wakingMinutes = 0.0

    init(from state: Double) { self.state = state }
  }

  /// Adds a step of `delta` minutes towards `mean` to `r` (the formulas above, composed:
  /// the new state is a·X + (1 − a)·mean + ε1, the integral gains mean·Δ + b·(X − mean) + ε2
  /// with b = (1 − a)/θ).
  func compose(_ r: inout Stretch, minutes delta: Double, mean: Double, waking: Bool) {
    guard delta > 0 else { return }
    let a = exp(-theta * delta)
    let b = (1 - a) * tau
    let v1 = variance * (1 - a * a)
    if waking {
      let v2 = 2 * variance * tau * (delta - 2 * b + 0.5 * (1 - a * a) * tau)
      let c = variance * theta * b * b
      r.integral += mean * delta + b * (r.state - mean)
      r.integralVariance += b * b * r.stateVariance + 2 * b * r.covariance + v2
      r.covariance = a * r.covariance + a * b * r.stateVariance + c
      r.wakingMinutes += delta
    } else {
      r.covariance *= a
    }
    r.state = mean + a * (r.state - mean)
    r.stateVariance = a * a * r.stateVariance + v1
  }

  /// Draws the end of `r`: the state and the waking integral, one normal each.
  mutating func draw(_ r: Stretch, _ s: inout RandomStream) {
    var e1 = 0.0
    var conditional = r.integralVariance
    var slope = 0.0
    if r.stateVariance > 0 {
      e1 = s.normal(sd: 1)
      slope = r.covariance / r.stateVariance.squareRoot()
      conditional -= r.covariance * r.covariance / r.stateVariance
    }
    value = r.state + r.stateVariance.squareRoot() * e1
    guard r.wakingMinutes > 0 else { return }
    wakingIntegral += r.integral + slope * e1 + max(conditional, 0).squareRoot() * s.normal(sd: 1)
    wakingMinutes += r.wakingMinutes
  }

  /// Advances the process to `target`, walking the timeline's episodes (each sets the mean;
  /// asleep ones do not count towards the waking mean), and draws once at `target`.
  public mutating func advance(to target: SimTime, timeline: Timeline, stream: inout RandomStream) {
    guard target > time else { return }
    cursor = timeline.index(at: time, from: cursor)
    var r = Stretch(from: value)
    // Episodes in a row in the same context (so with the same mean, asleep or not: a
    // context drawn again, a dead zone's pieces) make one step.
    var run: (ticks: SimTime, context: Context)? = nil
    let episodes = timeline.episodes
    while time < target {
      let e = episodes[cursor]
      let segmentEnd = cursor + 1 < episodes.count ? min(e.end, target) : target
      if let (ticks, context) = run, context != e.context {
        compose(&r, ticks: ticks, in: context)
        run = (segmentEnd - time, e.context)
      } else {
        run = ((run?.ticks ?? 0) + segmentEnd - time, e.context)
      }
      time = segmentEnd
      if time >= e.end && cursor + 1 < episodes.count { cursor += 1 }
    }
    if let (ticks, context) = run { compose(&r, ticks: ticks, in: context) }
    draw(r, &stream)
  }

  /// Adds `ticks` spent in `context` to `r`.
  func compose(_ r: inout Stretch, ticks: SimTime, in context: Context) {
    compose(
      &r, minutes: Double(ticks) / Double(Tick.minute), mean: means[context.rawValue] + personLevel,
      waking: context != .asleep)
  }

  /// One exact step of `minutes` towards `mean`, drawn at once.
  mutating func step(minutes delta: Double, mean: Double, waking: Bool, _ s: inout RandomStream) {
    var r = Stretch(from: value)
    compose(&r, minutes: delta, mean: mean, waking: waking)
    draw(r, &s)
  }

  /// The mean of the state over the waking time so far.
  public var wakingMean: Double { wakingMinutes > 0 ? wakingIntegral / wakingMinutes : .nan }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
