#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel

/// One participant's answers (``AnswersPlan``): their person-level draws and, at each prompt,
/// the true value of every variable and the answer to every item they would give.
///
/// Drawn from the participant's own stream (``Purpose/answers``), after the simulation and
/// apart from it: declaring variables changes no other output, unless a variable takes an
/// effect of the engine's state (``EffectPlan/state``), whose deviation the simulation then
/// records at each prompt's due time (one look at the state more per prompt). The variables' fluctuations
/// form one multivariate Ornstein–Uhlenbeck process E (drift A: 1/τⱼ on the diagonal,
/// −slope/τⱼ for a lagged effect; diffusion 2·sdⱼ²/τⱼ), stepped exactly between the prompts'
/// times: E(t+Δ) = e^(−AΔ)·E(t) + N(0, S − e^(−AΔ)·S·e^(−AΔ)ᵀ), with S the stationary
/// covariance (A·S + S·Aᵀ = diffusion). At each prompt the variables follow in order: a
/// variable is its person mean plus its fluctuation plus its contemporaneous effects.
public struct ParticipantAnswers: Sendable {
  /// The person-level predictors' values.
  public var predictors: [Double]
  /// Whether the person responds carelessly on some prompts.
  public var carelessPerson: Bool
  /// Per prompt (in the order of the times given): the variables' values.
  public var values: [[Double]]
  /// Per prompt: the items' answers (NaN: not shown, planned missingness).
  public var items: [[Double]]
  /// Per prompt: whether the answers were straight-lined.
  public var careless: [Bool]

  /// The person's own parameters, drawn first (order: predictors; per variable its mean,
  /// its log time constant, its contemporaneous then lagged slopes; carelessness).
  struct Person {
    var predictors: [Double] = []
    var means: [Double] = []
    var reversions: [Double] = []
    /// (variable, source, slope) of each contemporaneous effect, in order.
    var effects: [(variable: Int, source: Int, slope: Double)] = []
    var drift: SquareMatrix
    var careless = false
  }

  /// Participant `o`'s answers at their prompts (`o.prompts`' order), from their own stream:
  /// the same in `answers.csv` and in every platform export that carries them.
  public static func draw(_ o: ParticipantOutcome, plan: AnswersPlan, seed: UInt64, replication: UInt32) -> ParticipantAnswers {
    let who = UInt32(o.participant)
    var stream = RandomStream(StreamAddress(seed: seed, replication: replication, participant: who, purpose: .answers))
    let careless = Careless(plan.careless, seed: seed, replication: replication, participant: who)
    return draw(
      plan, times: o.prompts.map(\.scheduled), states: o.prompts.map(\.dueDeviation), careless: careless,
      numbers: o.prompts.map { Int($0.created) }, stream: &stream)
  }

  /// Draws a participant's answers at `times` (minutes of the study, any order); `states`:
  /// the engine's state deviation at each (``PromptRecord/dueDeviation``), read by an effect
  /// of the state (nan or absent: no value, the variable nan); `numbers`: each prompt's number
  /// in the run (``PromptRecord/created``), which decides a careless answer (absent: its
  /// position).
  public static func draw(
    _ plan: AnswersPlan, times: [SimTime], states: [Double] = [], careless: Careless? = nil, numbers: [Int] = [],
    stream: inout RandomStream
  ) -> ParticipantAnswers {
    let careless = careless ?? Careless(plan.careless, seed: 0, replication: 0, participant: 0)
    let person = drawPerson(plan, &stream)
    let k = plan.variables.count
    // A lower triangular drift with a positive diagonal is stable: S exists.
    let stationary = person.drift.lyapunov(diffusion(plan, reversions: person.reversions)) ?? SquareMatrix(n: k)
    var out = ParticipantAnswers(
      predictors: person.predictors, carelessPerson: person.careless, values: Array(repeating: [], count: times.count),
      items: Array(repeating: [], count: times.count), careless: Array(repeating: false, count: times.count))
    var e = [Double](repeating: 0, count: k)
    var last: SimTime? = nil
    for i in times.indices.sorted(by: { (times[$0], $0) < (times[$1], $1) }) {
      let z = (0..<k).map { _ in stream.normal(sd: 1) }
      if let t0 = last {
        let phi = person.drift.scaled(-Tick.inMinutes(times[i] - t0)).exponential
        let kept = phi * stationary * phi.transposed
        let l = SquareMatrix(n: k, values: zip(stationary.values, kept.values).map(-)).cholesky
        e = zip(phi * e, l * z).map(+)
      } else {
        e = stationary.cholesky * z
      }
      last = times[i]
      let values = variables(plan, person: person, fluctuation: e, state: i < states.count ? states[i] : .nan)
      out.values[i] = values
      let straight = person.careless && careless.prompt(i < numbers.count ? numbers[i] : i)
      (out.items[i], out.careless[i]) = items(plan, values: values, careless: person.careless, straight: straight, &stream)
    }
    return out
  }

  /// The person's own parameters.
  static func drawPerson(_ plan: AnswersPlan, _ stream: inout RandomStream) -> Person {
    let k = plan.variables.count
    var p = Person(drift: SquareMatrix(n: k))
    p.predictors = plan.predictors.map { stream.normal(mean: $0.mean, sd: $0.sd) }
    func moved(_ by: [Moderation]) -> Double {
      by.reduce(0) { $0 + $1.weight * (p.predictors[$1.predictor] - plan.predictors[$1.predictor].mean) }
    }
    for (j, v) in plan.variables.enumerated() {
      p.means.append(v.mean + moved(v.personEffects) + stream.normal(sd: 1) * v.personSD)
      let tau = Tick.inMinutes(v.reversion) * exp(stream.normal(sd: 1) * v.reversionSpread)
      p.reversions.append(tau)
      p.drift[j, j] = 1 / tau
      for e in v.effects {
        p.effects.append((j, e.source, e.slope + moved(e.by) + stream.normal(sd: 1) * e.slopeSD))
      }
      for e in v.lagged {
        p.drift[j, e.source] -= (e.slope + moved(e.by) + stream.normal(sd: 1) * e.slopeSD) / tau
      }
    }
    p.careless = stream.bernoulli(plan.careless.people)
    return p
  }

  /// The variables at a prompt from their fluctuations: each its mean, fluctuation and
  /// contemporaneous effects (a continuous source centred on its person mean, a binary one
  /// 0/1); a binary variable is 1 when that latent is above 0.
  static func variables(_ plan: AnswersPlan, person: Person, fluctuation e: [Double], state: Double = .nan) -> [Double] {
    var centred = e
    var values = [Double](repeating: 0, count: e.count)
    var cursor = 0
    for (j, v) in plan.variables.enumerated() {
      while cursor < person.effects.count && person.effects[cursor].variable == j {
        let (_, source, slope) = person.effects[cursor]
        if source == EffectPlan.state {
          centred[j] += slope * state
        } else {
          centred[j] += slope * (plan.variables[source].kind == .continuous ? centred[source] : values[source])
        }
        cursor += 1
      }
      let latent = person.means[j] + centred[j]
      values[j] = v.value(latent: latent)
    }
    return values
  }

  /// The items' answers at a prompt (order of draws: each item's error; for a careless
  /// person the position they straight-line at, used when this prompt is one they answer
  /// carelessly, `straight` (``Careless``); each partly shown item's show).
  static func items(_ plan: AnswersPlan, values: [Double], careless: Bool, straight: Bool, _ stream: inout RandomStream)
    -> ([Double], Bool)
  {
    var ys = plan.items.map { item in item.intercept + item.loading * values[item.variable] + stream.normal(sd: 1) * item.errorSD }
    if careless {
      let u = stream.uniform()
      for (i, item) in plan.items.enumerated() { ys[i] = straight ? item.position(u, otherwise: ys[i]) : item.answer(ys[i]) }
    } else {
      for (i, item) in plan.items.enumerated() { ys[i] = item.answer(ys[i]) }
    }
    for (i, item) in plan.items.enumerated() where item.shown < 1 {
      if !stream.bernoulli(item.shown) { ys[i] = .nan }
    }
    return (ys, straight)
  }

  /// The diffusion of the variables' fluctuations: 2·sdⱼ²/τⱼ on the diagonal (so that a
  /// variable without lagged effects has stationary sd sdⱼ), time constants in minutes.
  static func diffusion(_ plan: AnswersPlan, reversions: [Double]) -> SquareMatrix {
    let k = plan.variables.count
    var d = SquareMatrix(n: k)
    for j in 0..<k { d[j, j] = 2 * pow(plan.variables[j].sd, 2) / reversions[j] }
    return d
  }

  /// The within-person sd of each variable at the average person's parameters (person
  /// spreads at 0): √(diag(M·S·Mᵀ) + m²), M the contemporaneous effects' total and m each
  /// variable's total slope on the engine's state deviation (variance `stateVariance`: 1, and
  /// company's part where it is on, ``stateDeviationVariance(_:)``; independent of the
  /// variables' fluctuations); nil for a variable a binary or ordinal variable acts on (not
  /// linear) and for binary and ordinal variables.
  public static func withinSD(_ plan: AnswersPlan, stateVariance: Double = 1) -> [Double?] {
    let k = plan.variables.count
    guard k > 0 else { return [] }
    var drift = SquareMatrix(n: k)
    var total = SquareMatrix.identity(k)
    var linear = [Bool](repeating: true, count: k)
    var onState = [Double](repeating: 0, count: k)
    for (j, v) in plan.variables.enumerated() {
      let tau = Tick.inMinutes(v.reversion)
      drift[j, j] = 1 / tau
      for e in v.lagged { drift[j, e.source] -= e.slope / tau }
      linear[j] = v.kind == .continuous
      for e in v.effects {
        if e.source == EffectPlan.state { onState[j] += e.slope; continue }
        if !linear[e.source] { linear[j] = false; continue }
        onState[j] += e.slope * onState[e.source]
        // Row j of M gains slope × row `source` (effects only from earlier variables).
        for c in 0..<k { total[j, c] += e.slope * total[e.source, c] }
      }
    }
    guard let s = drift.lyapunov(diffusion(plan, reversions: plan.variables.map { Tick.inMinutes($0.reversion) })) else {
      return Array(repeating: nil, count: k)
    }
    let cov = total * s * total.transposed
    return (0..<k).map { linear[$0] ? (cov[$0, $0] + onState[$0] * onState[$0] * stateVariance).squareRoot() : nil }
  }

  /// The within-person variance of the state deviation (in sds) at the average person: 1 for
  /// its own fluctuation, plus company's p(1 − p)·(slope / sd)² where company is on (with
  /// others a share p of the episodes, the state then `slope` higher).
  public static func stateDeviationVariance(_ state: StatePlan) -> Double {
    let c = state.company
    guard c.isOn else { return 1 }
    return 1 + c.share * (1 - c.share) * pow(c.slope / state.sd, 2)
  }
}
