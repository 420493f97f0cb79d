/// Least squares by Levenberg–Marquardt (Levenberg 1944; Marquardt 1963): minimises the sum
/// of squared residuals r(u) by steps that solve (JᵀJ + λ·diag(JᵀJ)) Δ = −Jᵀr, J the
/// residuals' derivatives by central differences, λ shrinking after a step that lowers the
/// sum and growing after one that does not. Each moment of a pilot is moved mostly by one or
/// two parameters, so the steps find the minimum in a few iterations, where a simplex search
/// over a dozen parameters would need hundreds of simulations. Deterministic: the same
/// residuals give the same path.
struct LevenbergMarquardt {
  struct Result {
    var point: [Double]
    var value: Double
    /// The residuals' derivatives at the point (for the sandwich).
    var jacobian: [[Double]]
    var evaluations: Int
  }

  /// Minimises Σ r(u)² from `start`; derivatives with `step`; at most `maxEvaluations`
  /// evaluations of `r` (each Jacobian costs 2 per coordinate); no coordinate moves more than
  /// `maxStep` in a step.
  static func minimise(
    _ r: ([Double]) -> [Double], start: [Double], step: Double, maxEvaluations: Int, tolerance: Double = 1e-3,
    maxStep: Double = 1
  ) -> Result {
    let n = start.count
    var evaluations = 0
    func eval(_ u: [Double]) -> [Double] {
      evaluations += 1
      return r(u)
    }
    func sum(_ x: [Double]) -> Double {
      let s = x.reduce(0) { $0 + $1 * $1 }
      return s.isFinite ? s : .infinity
    }
    func jacobian(_ u: [Double]) -> [[Double]] {
      var columns: [[Double]] = []
      for k in 0..<n {
        var up = u
        var down = u
        up[k] += step
        down[k] -= step
        columns.append(zip(eval(up), eval(down)).map { ($0 - $1) / (2 * step) })
      }
      let m = columns.first?.count ?? 0
      return (0..<m).map { i in columns.map { $0[i] } }
    }
    var u = start
    var residuals = eval(u)
    var value = sum(residuals)
    var lambda = 1e-2
    var j = jacobian(u)
    while evaluations + 2 * n + 1 <= maxEvaluations {
      // JᵀJ and Jᵀr.
      let m = residuals.count
      let a = (0..<n).map { p in (0..<n).map { q in (0..<m).reduce(0) { $0 + j[$1][p] * j[$1][q] } } }
      let g = (0..<n).map { p in (0..<m).reduce(0) { $0 + j[$1][p] * residuals[$1] } }
      var improved = false
      for _ in 0..<6 where evaluations < maxEvaluations {
        var damped = a
        for p in 0..<n { damped[p][p] += lambda * max(a[p][p], 1e-6) }
        let inverse = Calibrator.inverse(damped)
        var delta = (0..<n).map { p in -(0..<n).reduce(0) { $0 + inverse[p][$1] * g[$1] } }
        // A trust region: no coordinate moves more than `maxStep` in one step (a direction the
        // moments hardly see would otherwise be jumped along to where the derivatives no
        // longer hold).
        let largest = delta.map(abs).max() ?? 0
        if largest > maxStep { delta = delta.map { $0 * maxStep / largest } }
        let trial = zip(u, delta).map { $0 + $1 }
        let r = eval(trial)
        let v = sum(r)
        if v < value {
          let gain = (value - v) / max(value, 1e-12)
          (u, residuals, value) = (trial, r, v)
          lambda = max(lambda / 3, 1e-7)
          improved = true
          if gain < tolerance { return Result(point: u, value: value, jacobian: jacobian(u), evaluations: evaluations) }
          break
        }
        lambda *= 4
      }
      guard improved, evaluations + 2 * n <= maxEvaluations else { break }
      j = jacobian(u)
    }
    return Result(point: u, value: value, jacobian: j, evaluations: evaluations)
  }
}
