import SimKernel

/// A participant's answering, drawn once from a stream of its own (so the other traits keep
/// their numbers): their class (``ComplianceClass``), their willingness on the log-odds scale
/// (level, first days' change, weekly change), how often they look at the phone, and how they
/// open a prompt they mean to answer (at once, after being busy, or later).
///
/// One latent engagement, standard normal, orders them: its place decides the class (the
/// classes in order of level, the lowest first) and the level within it (the class's
/// log-odds normal at that place), so a person's class and level move together, and it is
/// correlated with the person's own level of the latent state
/// (``CompliancePlan/stateCorrelation``). The other traits are independent normals on their
/// scales (log for looks, log-odds for shares).
public struct Engagement: Sendable {
  /// The person's class (index into ``CompliancePlan/classes``).
  public let classIndex: Int
  /// Log-odds of answering a noticed prompt on the first study day.
  public let logitLevel: Double
  /// The change of that log-odds over the first days and per week.
  public let firstDaysChange: Double
  public let weeklyChange: Double
  /// Phone looks per waking hour with the phone at hand.
  public let looksPerHour: Double
  /// The chances that a willing decision opens at once, and that it meets a busy stretch.
  public let atOnce: Double
  public let busy: Double
  /// The rate per minute of answering at which they break a survey off part-way.
  public let breakOffPerMinute: Double

  /// The probability of answering a noticed prompt on the first study day.
  public var level: Double { 1 / (1 + exp(-logitLevel)) }

  /// Draws a person's answering; `stateZ` is their state level in sds (0 when it does not
  /// vary between people).
  init(_ c: CompliancePlan, stateZ: Double, stream s: inout RandomStream) {
    let classes = c.classes
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
    let z = GSL.normalQuantile(min(max(within, 1e-12), 1 - 1e-12))
    logitLevel = cls.logitLevel + c.levelShift + cls.spread * z
    firstDaysChange = c.firstDaysChange + s.normal(sd: c.firstDaysSD)
    weeklyChange = cls.weeklyChange + s.normal(sd: cls.weeklyChangeSD)
    looksPerHour = c.looksPerHour * exp(s.normal(sd: c.looksSD))
    atOnce = Self.share(c.atOnce, sd: c.atOnceSD, &s)
    busy = Self.share(c.busy, sd: c.busySD, &s)
    // Lognormal around the population's rate, its mean the rate (drawn last: the other
    // traits keep their numbers).
    let sd = c.breakOffSD
    breakOffPerMinute = sd > 0 ? c.breakOffPerMinute * exp(s.normal(sd: sd) - sd * sd / 2) : c.breakOffPerMinute
  }

  /// A person's share: the population's `mean` (in (0, 1); 0 and 1 are everyone's) moved on
  /// the log-odds scale by a normal of `sd`.
  static func share(_ mean: Double, sd: Double, _ s: inout RandomStream) -> Double {
    let z = s.normal(sd: sd)
    guard mean > 0, mean < 1 else { return mean }
    return 1 / (1 + exp(-(log(mean / (1 - mean)) + z)))
  }

  /// The log-odds change of willingness by study day `day` (from 0): the first days' change
  /// × (1 − e^(−(day − onset)/scale)) once `day` passes `onset` (level before it), plus the
  /// weekly change × day / 7 (``CompliancePlan/firstDaysOnset``).
  public func change(day: Int, onset: Double, scale: Double) -> Double {
    let d = Double(day)
    let after = max(d - onset, 0)
    // Time constant 0: a step, whole from day 1 without an onset, after the onset with one.
    let stepped = after > 0 || onset == 0
    let early = scale > 0 ? firstDaysChange * (1 - exp(-after / scale)) : (stepped ? firstDaysChange : 0)
    return early + weeklyChange * d / 7
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
