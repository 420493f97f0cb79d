#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel
import Testing

@testable import StudyModel

/// The answers' truth model (``ParticipantAnswers``): its dynamics, effects, items and
/// careless responding against their closed forms, each statistical check within four
/// standard errors of its sample.
@Suite("Answers: variables, items and careless responding")
struct AnswersTests {
  static func stream(_ p: Int) -> RandomStream {
    RandomStream(StreamAddress(seed: 7, replication: 0, participant: UInt32(p), purpose: .answers))
  }

  static func variable(_ name: String, sd: Double, minutes: Int, mean: Double = 0, personSD: Double = 0) -> VariablePlan {
    VariablePlan(name: name, mean: mean, personSD: personSD, sd: sd, reversion: SimTime(minutes) * Tick.minute)
  }

  /// Draws `n` participants at `times` (minutes).
  static func draws(_ plan: AnswersPlan, n: Int, minutes: [Int]) -> [ParticipantAnswers] {
    (0..<n).map { p in
      var s = stream(p)
      let careless = Careless(plan.careless, seed: 7, replication: 0, participant: UInt32(p))
      return ParticipantAnswers.draw(plan, times: minutes.map { SimTime($0) * Tick.minute }, careless: careless, stream: &s)
    }
  }

  static func correlation(_ x: [Double], _ y: [Double]) -> Double {
    let n = Double(x.count)
    let mx = x.reduce(0, +) / n
    let my = y.reduce(0, +) / n
    let sxy = zip(x, y).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
    let sxx = x.reduce(0) { $0 + ($1 - mx) * ($1 - mx) }
    let syy = y.reduce(0) { $0 + ($1 - my) * ($1 - my) }
    return sxy / (sxx * syy).squareRoot()
  }

  @Test("one variable: stationary sd and an autocorrelation of e^(-Δ/τ) over unequal intervals")
  func autocorrelation() {
    var plan = AnswersPlan()
    plan.variables = [Self.variable("mood", sd: 10, minutes: 120, mean: 50)]
    let n = 20_000
    let d = Self.draws(plan, n: n, minutes: [0, 60, 240])
    let x = (0..<3).map { t in d.map { $0.values[t][0] } }
    // The correlation's standard error (1 − ρ²)/√n.
    for (a, b, gap) in [(0, 1, 60.0), (1, 2, 180.0)] {
      let rho = exp(-gap / 120)
      #expect(abs(Self.correlation(x[a], x[b]) - rho) < 4 * (1 - rho * rho) / Double(n).squareRoot(), "lag \(gap)")
    }
    for t in 0..<3 {
      let mean = x[t].reduce(0, +) / Double(n)
      let sd = (x[t].reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(n - 1)).squareRoot()
      #expect(abs(mean - 50) < 4 * 10 / Double(n).squareRoot())
      // The sd's standard error σ/√(2n).
      #expect(abs(sd - 10) < 4 * 10 / (2 * Double(n)).squareRoot(), "sd at time \(t): \(sd)")
    }
  }

  @Test("a lagged effect: the drift's exponential and the stationary covariance match their closed forms")
  func laggedClosedForm() {
    let (ts, tm, c, sds, sdm) = (60.0, 180.0, -2.0, 1.5, 12.0)
    var a = SquareMatrix(n: 2)
    a[0, 0] = 1 / ts
    a[1, 1] = 1 / tm
    a[1, 0] = -c / tm
    var q = SquareMatrix(n: 2)
    q[0, 0] = 2 * sds * sds / ts
    q[1, 1] = 2 * sdm * sdm / tm
    let s = try! #require(a.lyapunov(q))
    // A·S + S·Aᵀ = Q.
    let residual = zip((a * s).values, (s * a.transposed).values).map(+)
    for (r, want) in zip(residual, q.values) { #expect(abs(r - want) < 1e-12 * max(1, abs(want))) }
    #expect(abs(s[0, 0] - sds * sds) < 1e-12)
    #expect(abs(s[1, 0] - c * sds * sds * ts / (ts + tm)) < 1e-12)
    // e^(−AΔ) of a lower triangular A: its corner k(e^(−λsΔ) − e^(−λmΔ))/(λm − λs), k = c/τm.
    let gap = 90.0
    let e = a.scaled(-gap).exponential
    #expect(abs(e[0, 0] - exp(-gap / ts)) < 1e-14)
    #expect(abs(e[1, 1] - exp(-gap / tm)) < 1e-14)
    #expect(abs(e[0, 1]) < 1e-15)
    let corner = (c / tm) * (exp(-gap / ts) - exp(-gap / tm)) / (1 / tm - 1 / ts)
    #expect(abs(e[1, 0] - corner) < 1e-13)
    // A long step by squaring: e^(−A·10 days) ≈ 0.
    #expect(a.scaled(-14_400).exponential.values.allSatisfy { abs($0) < 1e-20 })
  }

  @Test("a lagged effect: the simulated cross-covariance over a gap is e^(−AΔ)·S's")
  func laggedSimulated() {
    var plan = AnswersPlan()
    plan.variables = [Self.variable("stress", sd: 1.5, minutes: 60), Self.variable("mood", sd: 12, minutes: 180)]
    plan.variables[1].lagged = [EffectPlan(source: 0, slope: -6)]
    let n = 20_000
    let d = Self.draws(plan, n: n, minutes: [0, 90])
    let stress0 = d.map { $0.values[0][0] }
    let mood1 = d.map { $0.values[1][1] }
    let cov = zip(stress0, mood1).reduce(0) { $0 + $1.0 * $1.1 } / Double(n)
    var a = SquareMatrix(n: 2)
    a[0, 0] = 1 / 60.0
    a[1, 1] = 1 / 180.0
    a[1, 0] = 6 / 180.0
    var q = SquareMatrix(n: 2)
    q[0, 0] = 2 * 1.5 * 1.5 / 60
    q[1, 1] = 2 * 144.0 / 180
    let s = a.lyapunov(q)!
    let want = (a.scaled(-90).exponential * s)[1, 0]
    // The standard error of a mean product of two normals: √(σx²σy² + cov²)/√n.
    let se = (s[0, 0] * s[1, 1] + want * want).squareRoot() / Double(n).squareRoot()
    #expect(want < -1, "the effect is visible: \(want)")
    #expect(abs(cov - want) < 4 * se, "\(cov) against \(want) ± \(se)")
  }

  @Test("contemporaneous effects: each person's slope, moved by a person-level predictor, and the person means")
  func effectsAndPredictors() {
    var plan = AnswersPlan()
    plan.predictors = [PersonPredictor(name: "neuroticism", mean: 0, sd: 1)]
    plan.variables = [Self.variable("stress", sd: 1, minutes: 60, mean: 3), Self.variable("mood", sd: 12, minutes: 180, mean: 60, personSD: 10)]
    plan.variables[1].personEffects = [Moderation(predictor: 0, weight: -4)]
    plan.variables[1].effects = [EffectPlan(source: 0, slope: -3, slopeSD: 1, by: [Moderation(predictor: 0, weight: -1)])]
    let n = 10_000
    var slopes: [Double] = []
    var z: [Double] = []
    var means: [Double] = []
    for p in 0..<n {
      var s = Self.stream(p)
      let person = ParticipantAnswers.drawPerson(plan, &s)
      slopes.append(person.effects[0].slope)
      z.append(person.predictors[0])
      means.append(person.means[1])
      // The variables from their fluctuations: mood = its mean + its own + slope × stress's.
      let v = ParticipantAnswers.variables(plan, person: person, fluctuation: [0.5, 2])
      #expect(abs(v[1] - (person.means[1] + 2 + person.effects[0].slope * 0.5)) < 1e-12)
      #expect(abs(v[0] - (person.means[0] + 0.5)) < 1e-12)
    }
    let mean = slopes.reduce(0, +) / Double(n)
    // sd of a slope: √(1² + 1²) (the predictor's part and its own).
    #expect(abs(mean + 3) < 4 * 2.0.squareRoot() / Double(n).squareRoot())
    let zbar = z.reduce(0, +) / Double(n)
    let b = zip(z, slopes).reduce(0) { $0 + ($1.0 - zbar) * ($1.1 - mean) } / z.reduce(0) { $0 + ($1 - zbar) * ($1 - zbar) }
    // The regression slope's standard error: residual sd 1 over √n.
    #expect(abs(b + 1) < 4 / Double(n).squareRoot(), "cross-level interaction \(b)")
    let bm = zip(z, means).reduce(0) { $0 + ($1.0 - zbar) * ($1.1 - 60) } / z.reduce(0) { $0 + ($1 - zbar) * ($1 - zbar) }
    #expect(abs(bm + 4) < 4 * 10 / Double(n).squareRoot(), "person-level effect \(bm)")
  }

  @Test("a binary variable with share 0.4 is 1 at 40 % of prompts; the within-person sd includes effects")
  func binaryAndWithinSD() {
    var plan = AnswersPlan()
    let share = 0.4
    var alone = Self.variable("alone", sd: 1, minutes: 60, personSD: 0.5)
    alone.kind = .binary
    alone.mean = GSL.normalQuantile(share) * (1 + 0.25).squareRoot()
    plan.variables = [Self.variable("stress", sd: 2, minutes: 60), alone]
    let n = 20_000
    let d = Self.draws(plan, n: n, minutes: [0])
    let ones = Double(d.filter { $0.values[0][1] == 1 }.count) / Double(n)
    #expect(abs(ones - share) < 4 * (share * (1 - share) / Double(n)).squareRoot(), "\(ones)")
    // mood = own (sd 12) + (−3) × stress (sd 2): √(144 + 36).
    plan.variables.append(Self.variable("mood", sd: 12, minutes: 180))
    plan.variables[2].effects = [EffectPlan(source: 0, slope: -3)]
    let within = ParticipantAnswers.withinSD(plan)
    #expect(abs(within[0]! - 2) < 1e-9)
    #expect(within[1] == nil)
    #expect(abs(within[2]! - (144.0 + 36).squareRoot()) < 1e-9)
    plan.variables[2].effects.append(EffectPlan(source: 1, slope: 5))
    #expect(ParticipantAnswers.withinSD(plan)[2] == nil, "a binary variable acts on it: not linear")
  }

  @Test("an item's reliability is its squared correlation with the variable; planned missingness hides its share")
  func itemReliability() {
    var plan = AnswersPlan()
    plan.variables = [Self.variable("mood", sd: 12, minutes: 120, mean: 50)]
    let r = 0.7
    var item = ItemPlan(name: "happy", variable: 0, errorSD: 12 * ((1 - r) / r).squareRoot())
    item.loading = 1
    var half = ItemPlan(name: "calm", variable: 0, errorSD: 5)
    half.shown = 0.3
    half.scale = .likert(low: 1, high: 7)
    half.loading = 0.06
    half.intercept = 1
    plan.items = [item, half]
    let n = 20_000
    let d = Self.draws(plan, n: n, minutes: [0])
    let rho = Self.correlation(d.map { $0.values[0][0] }, d.map { $0.items[0][0] })
    // The standard error of ρ² by the delta method: 2ρ(1 − ρ²)/√n.
    #expect(abs(rho * rho - r) < 4 * 2 * rho * (1 - rho * rho) / Double(n).squareRoot(), "\(rho * rho)")
    let hidden = Double(d.filter { $0.items[0][1].isNaN }.count) / Double(n)
    #expect(abs(hidden - 0.7) < 4 * (0.21 / Double(n)).squareRoot())
    let shown = d.map { $0.items[0][1] }.filter { !$0.isNaN }
    #expect(shown.allSatisfy { $0 >= 1 && $0 <= 7 && $0 == $0.rounded() })
  }

  @Test("careless responding: a share of people straight-line a share of their prompts, every item at one position")
  func careless() {
    var plan = AnswersPlan()
    plan.variables = [Self.variable("mood", sd: 12, minutes: 120, mean: 50), Self.variable("stress", sd: 1, minutes: 60, mean: 3)]
    var a = ItemPlan(name: "happy", variable: 0, errorSD: 5)
    a.scale = .slider
    var b = ItemPlan(name: "sad", variable: 0, errorSD: 5)
    b.scale = .slider
    b.loading = -1
    b.intercept = 100
    plan.items = [a, b]
    plan.careless = CarelessPlan(people: 0.2, prompts: 0.5)
    let n = 10_000
    let d = Self.draws(plan, n: n, minutes: Array(stride(from: 0, to: 600, by: 60)))
    let people = Double(d.filter(\.carelessPerson).count) / Double(n)
    #expect(abs(people - 0.2) < 4 * (0.16 / Double(n)).squareRoot())
    #expect(d.filter { !$0.carelessPerson }.allSatisfy { !$0.careless.contains(true) })
    let rows = d.filter(\.carelessPerson).flatMap(\.careless)
    let share = Double(rows.filter { $0 }.count) / Double(rows.count)
    #expect(abs(share - 0.5) < 4 * (0.25 / Double(rows.count)).squareRoot())
    // Straight-lined rows: both sliders at one position (an attentive person's differ: sad = 100 − happy ± noise).
    for p in d where p.carelessPerson {
      for (row, straight) in zip(p.items, p.careless) where straight { #expect(row[0] == row[1]) }
    }
  }

  @Test("the same participant's answers are the same whatever order the times come in")
  func order() {
    var plan = AnswersPlan()
    plan.variables = [Self.variable("mood", sd: 12, minutes: 120, mean: 50)]
    var s1 = Self.stream(3)
    var s2 = Self.stream(3)
    let t: [SimTime] = [0, 90, 30, 400].map { $0 * Tick.minute }
    let a = ParticipantAnswers.draw(plan, times: t, stream: &s1)
    let b = ParticipantAnswers.draw(plan, times: [t[0], t[2], t[1], t[3]], stream: &s2)
    #expect(a.values[1] == b.values[2] && a.values[2] == b.values[1] && a.values[3] == b.values[3])
  }
}
