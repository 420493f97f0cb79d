import SimKernel

/// A figure over replications: the mean of each replication's value, its spread and 95 %
/// interval across them (Student's t with R − 1 degrees of freedom; an interval needs two
/// replications), and the 95 % interval over participants (from one replication on: the
/// replications' standard errors over participants combined, √Σse²/R, Student's t with the
/// participants' degrees of freedom summed) when every replication carries one.
public struct AcrossReplications: Sendable, Equatable {
  public var mean: Double
  public var sd: Double
  public var low: Double
  public var high: Double
  /// Replications with a value (a non-number does not count).
  public var count: Int
  public var participantLow: Double
  public var participantHigh: Double

  /// Summarises `estimates`, one per replication.
  public init(_ estimates: [Estimate]) {
    var m = Moments()
    var variance = 0.0
    var degrees = 0
    var withError = 0
    for e in estimates where e.value.isFinite {
      m.add(e.value)
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
    if m.count >= 2, let t = try? GSL.studentTQuantile(0.975, degrees: Double(m.count - 1)) {
      let half = t * m.standardError
      (low, high) = (m.mean - half, m.mean + half)
    }
    (participantLow, participantHigh) = (.nan, .nan)
    if withError == m.count && withError > 0, let t = try? GSL.studentTQuantile(0.975, degrees: Double(degrees)) {
      let half = t * variance.squareRoot() / Double(withError)
      (participantLow, participantHigh) = (m.mean - half, m.mean + half)
    }
  }
}
