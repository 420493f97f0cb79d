#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel

/// The latent momentary state (for example affect on 0–100) as an Ornstein–Uhlenbeck
/// process whose mean is the current context's plus the person's own level, sampled exactly.
///
/// With θ = 1/time constant τ and σ the diffusion (σ² = 2θ·sd²), dX = θ(μ(t) − X)dt + σdW.
/// The process is the sum of two parts with the same law as X:
///
/// - the **level** D, the deterministic response to the means (dD = θ(μ − D)dt): over an
///   episode of Δ minutes at mean m, D → m + (D − m)·a with a = e^(−θΔ), and
///   ∫D dt = mΔ + (D − m)(1 − a)τ;
/// - the **noise** Z = X − D, a stationary OU process around 0 (dZ = −θZ dt + σdW) that
///   does not depend on the contexts at all: over Δ, Z → a·Z + ε1 and ∫Z dt = Z(1 − a)τ + ε2,
///   Var ε1 = sd²(1 − a²), Var ε2 = 2sd²τ[Δ − 2(1 − a)τ + (1 − a²)τ/2],
///   Cov(ε1, ε2) = sd²θ[(1 − a)τ]² (Gillespie 1996, "Exact numerical simulation of the
///   Ornstein-Uhlenbeck process and its integral").
///
/// So the level is followed episode by episode without drawing, and the noise only needs
/// composing where waking turns to sleep or back: one normal draws it at each look (a
/// prompt delivered or answered). The waking integral, needed only at the end for the true
/// waking-day mean, is kept as its mean and variance given the noise at every look: given
/// those values the pieces between looks are independent (the process is Markov), so one
/// normal at ``close(_:)`` draws their sum. The law is the same as drawing each episode in
/// turn (tested against that).
public struct GroundTruth: Sendable {
  let theta: Double  // per minute
  let tau: Double  // 1/θ, minutes
  let variance: Double  // the stationary variance sd²
  let personLevel: Double
  let means: [Double]
  /// The time of the last sample.
  public private(set) var time: SimTime = 0
  /// The deterministic part of the state then (D).
  public private(set) var level: Double
  /// The noise then (Z = X − D).
  public private(set) var noise: Double
  /// The state then.
  public var value: Double { level + noise }
  /// ∫ X dt over waking time so far (state × minutes): exact after ``close(_:)``; before,
  /// its mean given the state at every look.
  public private(set) var wakingIntegral = 0.0
  /// The variance of ``wakingIntegral`` still to be drawn at ``close(_:)``.
  var integralVariance = 0.0
  /// Waking minutes so far.
  public private(set) var wakingMinutes = 0.0
  var cursor = 0
  /// e^(−θ·ticks) by table, for the level's step over each run of episodes.
  let decay: DecayTable
  /// Minutes per tick (multiplying by it is faster than dividing by the ticks of a minute).
  static let minutesPerTick = 1 / Double(Tick.minute)

  /// Starts the process at its stationary distribution around the first context's mean.
  public init(plan: StatePlan, conditions: [ContextConditions], personLevel: Double, first: Context, stream: inout RandomStream) {
    tau = Tick.inMinutes(plan.reversion)
    theta = 1 / tau
    variance = plan.sd * plan.sd
    self.personLevel = personLevel
    means = conditions.map(\.stateMean)
    level = means[first.rawValue] + personLevel
    noise = stream.normal(sd: plan.sd)
    decay = DecayTable(ratePerTick: theta / Double(Tick.minute))
  }

  /// The noise at the end of a stretch and its waking integral over it, given the noise at
  /// the start: their means, variances and covariance.
  struct Stretch {
    /// Mean of the noise at the end.
    var state: Double
    /// Mean of the waking integral.
    var integral = 0.0
    /// Var(state), Var(integral), Cov(state, integral).
    var stateVariance = 0.0
    var integralVariance = 0.0
    var covariance = 0.0

    init(from state: Double) { self.state = state }
  }

  /// Adds `delta` minutes (with decay `a` = e^(−θ·delta)) of the noise to `r`, awake or asleep.
  func compose(_ r: inout Stretch, minutes delta: Double, decay a: Double, waking: Bool) {
    guard delta > 0 else { return }
    let b = (1 - a) * tau
    if waking {
      let v2 = 2 * variance * tau * (delta - 2 * b + 0.5 * (1 - a * a) * tau)
      let c = variance * theta * b * b
      r.integral += b * r.state
      r.integralVariance += b * b * r.stateVariance + 2 * b * r.covariance + v2
      r.covariance = a * r.covariance + a * b * r.stateVariance + c
    } else {
      r.covariance *= a
    }
    r.state *= a
    r.stateVariance = a * a * r.stateVariance + variance * (1 - a * a)
  }

  /// Draws the noise at the end of `r` (one normal) and keeps the waking integral's mean and
  /// variance given it.
  @inline(__always)
  mutating func draw(_ r: Stretch, _ s: inout RandomStream) {
    guard r.stateVariance > 0 else { return }
    let sd = r.stateVariance.squareRoot()
    let e = s.normal(sd: 1)
    noise = r.state + sd * e
    wakingIntegral += r.integral + r.covariance / sd * e
    integralVariance += max(r.integralVariance - r.covariance * r.covariance / r.stateVariance, 0)
  }

  /// Advances the level by `delta` minutes at `mean`, `a` = e^(−θ·delta) being their decay.
  mutating func advanceLevel(minutes delta: Double, mean: Double, waking: Bool, decay a: Double) {
    if waking {
      wakingIntegral += mean * delta + (level - mean) * (1 - a) * tau
      wakingMinutes += delta
    }
    level = mean + (level - mean) * a
  }

  /// Advances the process to `target`, walking the timeline's episodes (each sets the mean;
  /// asleep ones do not count towards the waking mean), and draws the noise once at `target`.
  public mutating func advance(to target: SimTime, timeline: Timeline, stream: inout RandomStream) {
    guard target > time else { return }
    cursor = timeline.index(at: time, from: cursor)
    var r = Stretch(from: noise)
    // The noise over the current stretch of waking or sleep: its minutes and decay.
    var stretchMinutes = 0.0
    var stretchDecay = 1.0
    var stretchWaking = false
    // Episodes in a row in the same context (so with the same mean, asleep or not: a
    // context drawn again, a dead zone's pieces) make one step of the level.
    var runTicks: SimTime = 0
    var runContext = Context.asleep
    let episodes = timeline.episodes
    // Ends the run of one context: the level steps through it, and the noise's stretch is
    // composed when the run turns waking to sleep or back.
    func endRun(_ r: inout Stretch) {
      let delta = Double(runTicks) * Self.minutesPerTick
      let waking = runContext != .asleep
      let a = decay.value(ticks: runTicks)
      advanceLevel(minutes: delta, mean: means[runContext.rawValue] + personLevel, waking: waking, decay: a)
      if waking != stretchWaking && stretchMinutes > 0 {
        compose(&r, minutes: stretchMinutes, decay: stretchDecay, waking: stretchWaking)
        stretchMinutes = 0
        stretchDecay = 1
      }
      stretchWaking = waking
      stretchMinutes += delta
      stretchDecay *= a
    }
    // Adds the stretch from `time` to `end` in episode `e` to the run.
    func extend(_ e: Episode, to end: SimTime, _ r: inout Stretch) {
      if runTicks > 0 && runContext != e.context {
        endRun(&r)
        runTicks = 0
      }
      runContext = e.context
      runTicks += end - time
      time = end
    }
    episodes.withUnsafeBufferPointer { episodes in
      // The episodes that end by the target, whole; then the one it falls in (or the last).
      while cursor + 1 < episodes.count && episodes[cursor].end <= target {
        extend(episodes[cursor], to: episodes[cursor].end, &r)
        cursor += 1
      }
      if time < target { extend(episodes[cursor], to: target, &r) }
    }
    endRun(&r)
    compose(&r, minutes: stretchMinutes, decay: stretchDecay, waking: stretchWaking)
    draw(r, &stream)
  }

  /// One exact step of `minutes` towards `mean`, the noise drawn at once.
  mutating func step(minutes delta: Double, mean: Double, waking: Bool, _ s: inout RandomStream) {
    var r = Stretch(from: noise)
    let a = exp(-theta * delta)
    advanceLevel(minutes: delta, mean: mean, waking: waking, decay: a)
    compose(&r, minutes: delta, decay: a, waking: waking)
    draw(r, &s)
  }

  /// Draws what is left of the waking integral (one normal): call once the process has
  /// reached its end, before reading ``wakingIntegral`` or ``wakingMean``.
  public mutating func close(_ s: inout RandomStream) {
    guard integralVariance > 0 else { return }
    wakingIntegral += integralVariance.squareRoot() * s.normal(sd: 1)
    integralVariance = 0
  }

  /// The mean of the state over the waking time so far (exact after ``close(_:)``).
  public var wakingMean: Double { wakingMinutes > 0 ? wakingIntegral / wakingMinutes : .nan }
}

/// e^(−r·t) for a whole number of ticks t ≥ 0 as the product of four table entries, one per
/// byte of t (t < 2³⁰, about 12 days; beyond that `exp` itself). Against a call of `exp`
/// for each run of episodes (the level's step, about 20 a waking day) this took 2 % off the
/// city study's instructions. Each entry is a product of at most eight powers e^(−r·2ᵇ)
/// (each `exp` rounded once), so a value is within about 40 units in the last place of
/// e^(−r·t) (tested against `exp`). Built per participant: 30 `exp` and 800 products.
struct DecayTable: Sendable {
  /// The rate per tick.
  let rate: Double
  /// Bytes 0, 1, 2 (256 entries each) and the top six bits (64 entries) of t.
  let entries: [Double]

  init(ratePerTick r: Double) {
    rate = r
    // e^(−r·2ᵇ) for the 30 bits b of t, each computed once.
    let powers = (0..<30).map { exp(-r * Double(1 << $0)) }
    var e = [Double](repeating: 1, count: 3 * 256 + 64)
    for byte in 0..<4 {
      let base = 256 * byte
      for k in 1..<(byte < 3 ? 256 : 64) {
        // k's highest bit times the entry for the rest of k.
        let high = Int.bitWidth - 1 - k.leadingZeroBitCount
        e[base + k] = e[base + k - (1 << high)] * powers[8 * byte + high]
      }
    }
    entries = e
  }

  /// e^(−rate·t).
  @inline(__always)
  func value(ticks t: SimTime) -> Double {
    guard t >= 0 && t < 1 << 30 else { return exp(-rate * Double(t)) }
    let i = Int(t)
    return entries.withUnsafeBufferPointer { e in
      e[i & 255] * e[256 + ((i >> 8) & 255)] * e[512 + ((i >> 16) & 255)] * e[768 + (i >> 24)]
    }
  }
}
