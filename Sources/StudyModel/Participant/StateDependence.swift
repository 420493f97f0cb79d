#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Answering that depends on the latent state without changing how much is answered:
/// logit p = logit p₀ + b·z − c(p₀), with z the state's momentary deviation in sds (standard
/// normal) and the shift c(p₀) chosen so that the mean of p over z is p₀ exactly. State
/// dependence then changes which moments are answered, not how many (an assumption of the
/// model, D: Rintala et al. 2020 [@Rintala2020] find higher positive affect goes with higher
/// compliance, without saying how overall compliance would differ).
///
/// The shift is tabulated once per slope on 257 values of p₀ (linear in between); each value
/// solves E[expit(logit p₀ + b·z − c)] = p₀ by Newton's method, the expectation by the
/// trapezoid rule on z in [−9, 9] in steps of 0.05 (exact to rounding for this smooth
/// integrand). At p₀ → 0 the shift tends to b²/2 and at p₀ → 1 to −b²/2.
public struct StateDependence: Sendable, Equatable {
  /// The slope b: the change in the log-odds of answering per sd of the state.
  public let slope: Double
  /// c at p₀ = k / (count − 1).
  let shifts: [Double]
  static let count = 257

  /// Tabulates the shift for `slope` (none for 0).
  public init(slope: Double) {
    self.slope = slope
    guard slope != 0 else {
      shifts = []
      return
    }
    let b = slope
    // Trapezoid nodes and weights of the standard normal density.
    let step = 0.05
    let nodes = (-180...180).map { Double($0) * step }
    let weights = nodes.map { exp(-$0 * $0 / 2) / (2 * Double.pi).squareRoot() * step }
    var table = [Double](repeating: 0, count: Self.count)
    table[0] = b * b / 2
    table[Self.count - 1] = -b * b / 2
    var c = b * b / 2
    for k in 1..<(Self.count - 1) {
      let p0 = Double(k) / Double(Self.count - 1)
      let logit = log(p0 / (1 - p0))
      for _ in 0..<50 {
        var mean = 0.0
        var slopeOfMean = 0.0
        for (z, w) in zip(nodes, weights) {
          let p = 1 / (1 + exp(-(logit + b * z - c)))
          mean += w * p
          slopeOfMean += w * p * (1 - p)
        }
        let change = (mean - p0) / slopeOfMean
        c += change
        if abs(change) < 1e-13 { break }
      }
      table[k] = c
    }
    shifts = table
  }

  /// The probability of answering at state deviation `z`, for `p0` the probability without
  /// the state (in [0, 1]).
  public func probability(_ p0: Double, z: Double) -> Double {
    guard slope != 0, p0 > 0, p0 < 1 else { return p0 }
    let x = p0 * Double(Self.count - 1)
    let k = min(Int(x), Self.count - 2)
    let f = x - Double(k)
    let c = shifts[k] * (1 - f) + shifts[k + 1] * f
    return 1 / (1 + exp(-(log(p0 / (1 - p0)) + slope * z - c)))
  }
}
