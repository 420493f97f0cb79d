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
/// - the **level** D, the deterministic response to the means (dD = θ(μ − D)dt): over a run
///   of Δ minutes at mean m, D → m + (D − m)·a with a = e^(−θΔ), and ∫D dt = mΔ + (D − m)(1 − a)τ;
/// - the **noise** Z = X − D, a stationary OU process around 0 that does not depend on the
///   contexts at all (``OUStep``, after Gillespie 1996 [@Gillespie1996]).
///
/// **The truth does not depend on the protocol** (common random numbers across variants):
/// the path is drawn from a stream of its own, anchor by anchor, where waking turns to sleep
/// or back and at the end of the participant's enrolment: the noise at each anchor and its
/// integral over each waking stretch (two normals), the level walked run by run. The true
/// waking mean is therefore fixed by the participant's days alone, whatever and whenever
/// the protocol looks. A **look** (a prompt's state, a reported answer) draws the noise at
/// its moment from the exact conditional law given the anchors around it and the stretch's
/// integral (``OUBridge``; later looks also given the earlier ones), from the caller's
/// stream: looking adds knowledge of the path, never changes it (tested: the same law as
/// an exact step per episode, and the same truth whatever the looks).
public struct GroundTruth: Sendable {
  let step: OUStep
  let personLevel: Double
  let means: [Double]
  /// The end of the participant's enrolment: the last anchor the waking mean counts to.
  let end: SimTime
  /// The path's own stream.
  var pathStream: RandomStream
  /// e^(−θ·ticks) by table, for the level's step over each run of episodes.
  let decay: DecayTable
  /// Minutes per tick (multiplying by it is faster than dividing by the ticks of a minute).
  static let minutesPerTick = 1 / Double(Tick.minute)

  // The path, drawn ahead anchor by anchor.
  /// The next episode the path walks.
  var pathEpisode = 0
  /// The level at the last anchor's end of the walk (D).
  var pathLevel: Double
  /// The current stretch between two anchors: its start and end, whether it is waking, the
  /// noise at its ends and (waking) the noise's integral over what is not yet looked at.
  var bridge: OUBridge
  /// The runs of one context inside the current stretch: start, level at the start, mean.
  var runs: [(start: SimTime, level: Double, mean: Double)] = []
  var runCursor = 0
  /// ∫ D dt and ∫ Z dt over the waking time to ``end`` walked so far (state × minutes).
  var levelIntegral = 0.0
  var noiseIntegral = 0.0
  /// Waking minutes to ``end`` walked so far.
  public private(set) var wakingMinutes = 0.0

  /// The time of the last look.
  public private(set) var time: SimTime = 0
  /// The deterministic part of the state then (D).
  public private(set) var level: Double
  /// The noise then (Z = X − D).
  public private(set) var noise: Double
  /// The state then.
  public var value: Double { level + noise }

  /// Starts the process at its stationary distribution around the first context's mean.
  ///
  /// - Parameters:
  ///   - end: the end of the participant's enrolment (known in advance, not the protocol's).
  ///   - pathStream: the path's own stream, used by nothing else.
  public init(
    plan: StatePlan, conditions: [ContextConditions], personLevel: Double, first: Context, end: SimTime,
    pathStream: RandomStream
  ) {
    let tau = Tick.inMinutes(plan.reversion)
    step = OUStep(tau: tau, variance: plan.sd * plan.sd)
    self.personLevel = personLevel
    means = conditions.map(\.stateMean)
    self.end = end
    self.pathStream = pathStream
    decay = DecayTable(ratePerTick: 1 / tau / Double(Tick.minute))
    pathLevel = means[first.rawValue] + personLevel
    level = pathLevel
    noise = self.pathStream.normal(sd: plan.sd)
    bridge = OUBridge(start: 0, noise: noise)
    runs = [(0, pathLevel, pathLevel)]
  }

  /// The waking integral ∫ X dt to the end of enrolment walked so far (exact once
  /// ``finish(timeline:)`` has walked to the end).
  public var wakingIntegral: Double { levelIntegral + noiseIntegral }

  /// Draws the path's next stretch: the runs of one context to the next anchor (waking and
  /// sleep changing, the end of enrolment, the timeline's end), the level through them, the
  /// noise at the anchor and (waking) its integral.
  mutating func drawStretch(_ timeline: Timeline) {
    let episodes = timeline.episodes
    let from = bridge.end
    guard pathEpisode < episodes.count else {
      // Past the timeline (a look after the last day): a stretch asleep-like, without integral.
      bridge.advance(to: from + Tick.day, waking: false, step: step, decay: decay, &pathStream)
      runs = [(from, pathLevel, runs.last?.mean ?? pathLevel)]
      runCursor = 0
      return
    }
    let waking = episodes[pathEpisode].context != .asleep
    runs.removeAll(keepingCapacity: true)
    runCursor = 0
    var t = from
    while pathEpisode < episodes.count && (episodes[pathEpisode].context != .asleep) == waking {
      let context = episodes[pathEpisode].context
      // One run: the episodes in a row in this context, cut at the end of enrolment.
      var runEnd = t
      while pathEpisode < episodes.count && episodes[pathEpisode].context == context {
        runEnd = min(episodes[pathEpisode].end, t < end ? end : .max)
        if runEnd < episodes[pathEpisode].end { break }
        pathEpisode += 1
      }
      let mean = means[context.rawValue] + personLevel
      runs.append((t, pathLevel, mean))
      let a = decay.value(ticks: runEnd - t)
      if waking && runEnd <= end {
        let minutes = Double(runEnd - t) * Self.minutesPerTick
        levelIntegral += mean * minutes + (pathLevel - mean) * (1 - a) * step.tau
        wakingMinutes += minutes
      }
      pathLevel = mean + (pathLevel - mean) * a
      t = runEnd
      if t == end { break }
    }
    bridge.advance(to: t, waking: waking, step: step, decay: decay, &pathStream)
    if waking && t <= end { noiseIntegral += bridge.integral }
  }

  /// Looks at the state at `target` (not before the last look): draws the path on to it
  /// if need be, then the noise there given the path, from `stream`.
  public mutating func advance(to target: SimTime, timeline: Timeline, stream: inout RandomStream) {
    guard target > time else { return }
    while bridge.end < target { drawStretch(timeline) }
    noise = bridge.look(at: target, step: step, decay: decay, &stream)
    while runCursor + 1 < runs.count && runs[runCursor + 1].start <= target { runCursor += 1 }
    let run = runs[runCursor]
    level = run.mean + (run.level - run.mean) * decay.value(ticks: target - run.start)
    time = target
  }

  /// Walks the path to the end of enrolment: after it the waking integral and mean are exact.
  public mutating func finish(timeline: Timeline) {
    while bridge.end < end && (pathEpisode < timeline.episodes.count) { drawStretch(timeline) }
  }

  /// The mean of the state over the waking time to the end of enrolment (after ``finish(timeline:)``).
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
    entries = [Double](unsafeUninitializedCapacity: 3 * 256 + 64) { e, count in
      powers.withUnsafeBufferPointer { powers in
        for byte in 0..<4 {
          let base = 256 * byte
          e[base] = 1
          for k in 1..<(byte < 3 ? 256 : 64) {
            // k's highest bit times the entry for the rest of k (written before k).
            let high = Int.bitWidth - 1 - k.leadingZeroBitCount
            e[base + k] = e[base + k - (1 << high)] * powers[8 * byte + high]
          }
        }
      }
      count = 3 * 256 + 64
    }
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
