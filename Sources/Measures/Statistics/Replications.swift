import Foundation
import SimKernel

/// A figure over replications: the mean of each replication's value, its spread and 95 %
/// interval across them, and the 95 % interval over participants when every replication
/// carries a standard error over participants.
///
/// - Across replications: Student's t with R − 1 degrees of freedom, from 3 replications
///   (with 2, one degree of freedom gives an interval 6.4 standard errors either side: none
///   is given, and the tables say so). A share's interval is the same on the log-odds scale
///   (delta method: logit m ± t·se/(m(1 − m)), transformed back), so it stays in [0, 1].
/// - Over participants (from one replication on): the replications' standard errors
///   combined, √Σse²/R, with the participants' degrees of freedom summed. A share's is
///   Wilson's score interval with the effective sample size m(1 − m)/se² (Kish's: the
///   participants' clustering kept), or its trials where that is undefined (a share of 0
///   or 1); Wilson's interval lies in [0, 1] and is not degenerate at 0 or 1.
public struct AcrossReplications: Sendable, Equatable {
  public var mean: Double
  public var sd: Double
  public var low: Double
  public var high: Double
  /// Replications with a value (a non-number does not count).
  public var count: Int
  public var participantLow: Double
  public var participantHigh: Double

  /// Fewest replications for an interval across them.
  public static let replicationsForInterval = 3

  /// Summarises `estimates`, one per replication; `share`: the figure is a share in [0, 1];
  /// `nonNegative`: it cannot be below 0 (a count, seconds, an sd), and its intervals are cut there.
  public init(_ estimates: [Estimate], share: Bool = false, nonNegative: Bool = false) {
    var m = Moments()
    var variance = 0.0
    var degrees = 0
    var withError = 0
    var trials = 0.0
    for e in estimates where e.value.isFinite {
      m.add(e.value)
      trials += e.trials
      if e.standardError.isFinite && e.degrees > 0 {
        variance += e.standardError * e.standardError
        degrees += e.degrees
        withError += 1
      }
    }
    mean = m.meanOrNaN
    sd = m.sd
    count = m.count
    (low, high) = (.nan, .nan)
    if m.count >= Self.replicationsForInterval, let t = try? GSL.studentTQuantile(0.975, degrees: Double(m.count - 1)) {
      (low, high) = share ? Self.logitInterval(m.mean, m.standardError, t) : (m.mean - t * m.standardError, m.mean + t * m.standardError)
    }
    (participantLow, participantHigh) = (.nan, .nan)
    if withError == m.count && withError > 0, let t = try? GSL.studentTQuantile(0.975, degrees: Double(degrees)) {
      let se = variance.squareRoot() / Double(withError)
      if share {
        let effective = m.mean > 0 && m.mean < 1 && se > 0 ? m.mean * (1 - m.mean) / (se * se) : trials
        (participantLow, participantHigh) = Self.wilson(m.mean, n: effective, z: t)
      } else {
        (participantLow, participantHigh) = (m.mean - t * se, m.mean + t * se)
      }
    }
    if nonNegative && !share {
      low = low.isNaN ? low : max(low, 0)
      participantLow = participantLow.isNaN ? participantLow : max(participantLow, 0)
    }
  }

  /// A share's interval m ± t·se carried out on the log-odds scale; a share of exactly 0 or
  /// 1 (every replication's) or without spread is its own interval.
  static func logitInterval(_ m: Double, _ se: Double, _ t: Double) -> (Double, Double) {
    guard m > 0, m < 1, se > 0 else { return (m, m) }
    let centre = log(m / (1 - m))
    let half = t * se / (m * (1 - m))
    func expit(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
    return (expit(centre - half), expit(centre + half))
  }

  /// Wilson's score interval for a share `p` of `n` trials (n need not be whole).
  public static func wilson(_ p: Double, n: Double, z: Double = 1.959964) -> (Double, Double) {
    guard n.isFinite, n > 0, p.isFinite else { return (.nan, .nan) }
    // A ratio of counts kept to [0, 1] (a sensor's hour can hold a sample more than expected).
    let p = min(max(p, 0), 1)
    let z2 = z * z
    let centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    let half = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / (1 + z2 / n)
    // At a share of exactly 0 or 1 that end is the share itself (rounding left 1e-17).
    return (p == 0 ? 0 : max(centre - half, 0), p == 1 ? 1 : min(centre + half, 1))
  }
}
