import SimKernel

/// A participant's answering, drawn once from a stream of its own (so the other traits keep
/// their numbers): their class (``ComplianceClass``), their first-day probability of
/// answering a noticed prompt, how fast it falls over the weeks, and how quickly they open a
/// prompt they mean to answer.
///
/// One latent engagement, standard normal, orders them: its place decides the class (the
/// classes in order of level, the lowest first) and the level within it (a Beta quantile),
/// so a person's class and level move together, and it is correlated with the person's own
/// level of the latent state (``CompliancePlan/stateCorrelation``). The decline is the
/// class's, times a Gamma factor between people (mean 1): who falls fastest is a class's
/// matter (März et al. 2025: the two lower classes fall, the upper two stay).
public struct Engagement: Sendable {
  /// The person's class (index into ``CompliancePlan/effectiveClasses``).
  public let classIndex: Int
  /// The probability of answering a noticed prompt on the first study day.
  public let level: Double
  /// The relative decline of that probability per day beyond the first days'.
  public let declinePerDay: Double
  /// The factor on every delay to opening a prompt (1: the population's median).
  public let speed: Double

  /// Draws a person's answering; `stateZ` is their state level in sds (0 when it does not
  /// vary between people).
  init(_ c: CompliancePlan, stateZ: Double, stream s: inout RandomStream) {
    let classes = c.effectiveClasses
    let rho = min(max(c.stateCorrelation, -0.99), 0.99)
    let latent = rho * stateZ + (1 - rho * rho).squareRoot() * s.normal(sd: 1)
    let u = GSL.normalCDF(latent)
    // The classes by level, lowest first; the latent's place picks one and the place in it.
    let order = classes.indices.sorted { (classes[$0].level, $0) < (classes[$1].level, $1) }
    let total = classes.reduce(0) { $0 + $1.share }
    var below = 0.0
    var pick = order.last!
    var within = 0.5
    for k in order {
      let share = classes[k].share / total
      if u < below + share || k == order.last! {
        pick = k
        within = share > 0 ? min(max((u - below) / share, 0), 1) : 0.5
        break
      }
      below += share
    }
    let cls = classes[pick]
    classIndex = pick
    level = Engagement.betaQuantile(within, mean: cls.level, sd: cls.levelSD)
    var decline = cls.declinePerWeek
    if decline > 0 {
      if cls.declineSD > 0 {
        let shape = (decline / cls.declineSD) * (decline / cls.declineSD)
        decline *= s.gamma(shape: shape, scale: 1 / shape)
      }
    }
    declinePerDay = decline / 7
    speed = c.speedSD > 0 ? exp(c.speedSD * s.normal(sd: 1)) : 1
  }

  /// The Beta quantile at `p` with the given mean and sd (the mean itself when sd is 0 or the
  /// mean is 0 or 1).
  static func betaQuantile(_ p: Double, mean m: Double, sd: Double) -> Double {
    guard sd > 0, m > 0, m < 1 else { return m }
    let v = min(sd * sd, m * (1 - m) * 0.99)
    let k = m * (1 - m) / v - 1
    let q = GSL.betaQuantile(p, m * k, (1 - m) * k)
    return q.isFinite ? q : m
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
