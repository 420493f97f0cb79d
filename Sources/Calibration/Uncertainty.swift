import Foundation
import SimKernel
import StudyModel

/// The calibration's uncertainty: the pilot's moments' covariance by the bootstrap, the
/// moments' derivatives by central differences, and the sandwich that joins them
/// (``Calibrator``), with the small dense linear algebra they need.
extension Calibrator {
  /// The covariance of the pilot's moments over bootstrap resamples of its participants, and
  /// their standard errors (a moment a resample cannot give counts as the pilot's own).
  static func pilotCovariance(_ pilot: ComplianceMoments, moments: [Moment], seed: UInt64, resamples: Int) -> ([[Double]], [Double]) {
    var stream = RandomStream(StreamAddress(seed: seed, replication: 0, participant: 0, purpose: .bootstrap))
    let observed = moments.map { $0.value(pilot) }
    let samples = (0..<max(resamples, 2)).map { _ -> [Double] in
      let r = pilot.resampled(&stream)
      return moments.indices.map { j in
        let v = moments[j].value(r)
        return v.isFinite ? v : observed[j]
      }
    }
    let n = Double(samples.count)
    let means = moments.indices.map { j in samples.reduce(0) { $0 + $1[j] } / n }
    let covariance = moments.indices.map { i in
      moments.indices.map { j in samples.reduce(0) { $0 + ($1[i] - means[i]) * ($1[j] - means[j]) } / (n - 1) }
    }
    return (covariance, moments.indices.map { covariance[$0][$0].squareRoot() })
  }

  /// The derivatives of `f` (a vector) by each coordinate of `u`: central differences of
  /// `step`. Returned by row of `f`.
  static func jacobian(_ u: [Double], _ parameters: [Parameter], step: Double, _ f: ([Double]) -> [Double]) -> [[Double]] {
    var columns: [[Double]] = []
    for k in parameters.indices {
      var up = u
      var down = u
      up[k] += step
      down[k] -= step
      let (a, b) = (f(up), f(down))
      columns.append(zip(a, b).map { ($0 - $1) / (2 * step) })
    }
    let rows = columns.first?.count ?? 0
    return (0..<rows).map { r in columns.map { $0[r] } }
  }

  /// The sandwich (GᵀG + P)⁻¹ (GᵀΩG + P) (GᵀG + P)⁻¹ for G the weighted derivatives (by row
  /// of moments), Ω the weighted moments' covariance and P the prior's precision (diagonal).
  static func sandwich(_ g: [[Double]], _ omega: [[Double]], prior: [Double]) -> [[Double]] {
    let p = prior.count
    guard p > 0 else { return [] }
    let m = g.count
    var a = (0..<p).map { i in (0..<p).map { j in (0..<m).reduce(0) { $0 + g[$1][i] * g[$1][j] } } }
    let og = (0..<m).map { i in (0..<p).map { j in (0..<m).reduce(0) { $0 + omega[i][$1] * g[$1][j] } } }
    var b = (0..<p).map { i in (0..<p).map { j in (0..<m).reduce(0) { $0 + g[$1][i] * og[$1][j] } } }
    for k in 0..<p {
      a[k][k] += prior[k]
      b[k][k] += prior[k]
    }
    let inverse = Self.inverse(a)
    let left = (0..<p).map { i in (0..<p).map { j in (0..<p).reduce(0) { $0 + inverse[i][$1] * b[$1][j] } } }
    return (0..<p).map { i in (0..<p).map { j in (0..<p).reduce(0) { $0 + left[i][$1] * inverse[$1][j] } } }
  }

  /// The inverse of a symmetric positive semi-definite matrix, a ridge of 1e-9 of its trace
  /// added (a direction no moment moves gets a large variance, not a division by zero).
  static func inverse(_ a: [[Double]]) -> [[Double]] {
    let n = a.count
    var trace = 0.0
    for i in 0..<n { trace += a[i][i] }
    let ridge = 1e-9 * max(trace, 1e-12)
    var m: [[Double]] = []
    for i in 0..<n {
      var row = [Double](repeating: 0, count: 2 * n)
      for j in 0..<n { row[j] = a[i][j] + (i == j ? ridge : 0) }
      row[n + i] = 1
      m.append(row)
    }
    for c in 0..<n {
      let pivot = (c..<n).max { abs(m[$0][c]) < abs(m[$1][c]) }!
      m.swapAt(c, pivot)
      let d = m[c][c]
      guard abs(d) > 0 else { continue }
      for j in 0..<(2 * n) { m[c][j] /= d }
      for r in 0..<n where r != c {
        let f = m[r][c]
        if f != 0 { for j in 0..<(2 * n) { m[r][j] -= f * m[c][j] } }
      }
    }
    return m.map { Array($0[n...]) }
  }

  /// The lower Cholesky factor of a covariance (a negative pivot, from rounding, taken as 0).
  static func cholesky(_ a: [[Double]]) -> [[Double]] {
    let n = a.count
    var l = [[Double]](repeating: [Double](repeating: 0, count: n), count: n)
    for i in 0..<n {
      for j in 0...i {
        let s = (0..<j).reduce(a[i][j]) { $0 - l[i][$1] * l[j][$1] }
        if i == j {
          l[i][j] = max(s, 0).squareRoot()
        } else {
          l[i][j] = l[j][j] > 0 ? s / l[j][j] : 0
        }
      }
    }
    return l
  }
}
