/// A study metric from one run with its standard error over participants: participants are
/// independent, so one run already says how precise its figures are.
///
/// A mean over participants has the usual standard error s/√n. A share pooled over
/// participants (answered prompts of all scheduled ones, Comp hours of all hours) is a ratio
/// of sums R = Σyᵢ/Σxᵢ; its standard error is the linearised (cluster-robust, "sandwich")
/// one, √(n/(n − 1) · Σ(yᵢ − R·xᵢ)²) / Σxᵢ, with participants as the clusters (Cochran 1977,
/// Sampling Techniques, §6.4; the form survey software uses for ratio means). Both have
/// n − 1 degrees of freedom.
public struct Estimate: Sendable, Equatable {
  /// The value.
  public var value: Double
  /// Its standard error over participants (nan: none, or fewer than two participants).
  public var standardError: Double
  /// The degrees of freedom of that standard error (participants − 1).
  public var degrees: Int
  /// For a share, the trials it counts (prompts, hours, participants): the sample size of
  /// its Wilson interval where the standard error cannot give one (a share of 0 or 1). Nan
  /// for other figures.
  public var trials: Double = .nan

  /// A value without a standard error (a figure not pooled over participants).
  public init(_ value: Double) {
    self.value = value
    standardError = .nan
    degrees = 0
  }

  /// A value with its standard error.
  public init(_ value: Double, standardError: Double, degrees: Int) {
    self.value = value
    self.standardError = standardError
    self.degrees = degrees
  }

  /// The mean of accumulated values over participants, with its standard error (and, for a
  /// share of participants, the participants as its trials).
  public init(_ m: Moments) {
    self.init(m.meanOrNaN, standardError: m.standardError, degrees: max(m.count - 1, 0))
    trials = Double(m.count)
  }

  /// The mean of `values` over participants (non-numbers left out).
  public static func mean(_ values: some Sequence<Double>) -> Estimate {
    var m = Moments()
    for v in values where v.isFinite { m.add(v) }
    return Estimate(m)
  }

  /// The ratio Σy/Σx of per-participant pairs, with its linearised standard error
  /// (participants with x = 0 add nothing to either sum, and count as clusters).
  public static func ratio(_ pairs: [(y: Double, x: Double)]) -> Estimate {
    var sy = 0.0
    var sx = 0.0
    for p in pairs {
      sy += p.y
      sx += p.x
    }
    guard sx > 0 else { return Estimate(.nan) }
    let r = sy / sx
    let n = pairs.count
    guard n >= 2 else {
      var e = Estimate(r)
      e.trials = sx
      return e
    }
    var ss = 0.0
    for p in pairs {
      let d = p.y - r * p.x
      ss += d * d
    }
    var e = Estimate(r, standardError: (Double(n) / Double(n - 1) * ss).squareRoot() / sx, degrees: n - 1)
    e.trials = sx
    return e
  }

  /// The `q` quantile of `values` (R's default, type 7: linear between order statistics).
  public static func quantile(_ values: [Double], _ q: Double) -> Double {
    let v = values.filter(\.isFinite).sorted()
    guard !v.isEmpty else { return .nan }
    let h = Double(v.count - 1) * q
    let lo = Int(h.rounded(.down))
    let hi = min(lo + 1, v.count - 1)
    return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
  }
}
