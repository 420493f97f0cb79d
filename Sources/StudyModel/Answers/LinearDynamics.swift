#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A small square matrix (a few variables), row-major: what a multivariate
/// Ornstein–Uhlenbeck process needs and nothing more.
struct SquareMatrix: Sendable, Equatable {
  let n: Int
  var values: [Double]

  init(n: Int, values: [Double]? = nil) {
    self.n = n
    self.values = values ?? [Double](repeating: 0, count: n * n)
  }

  static func identity(_ n: Int) -> SquareMatrix {
    var m = SquareMatrix(n: n)
    for i in 0..<n { m[i, i] = 1 }
    return m
  }

  subscript(i: Int, j: Int) -> Double {
    get { values[i * n + j] }
    set { values[i * n + j] = newValue }
  }

  static func * (a: SquareMatrix, b: SquareMatrix) -> SquareMatrix {
    var c = SquareMatrix(n: a.n)
    for i in 0..<a.n {
      for k in 0..<a.n where a[i, k] != 0 {
        for j in 0..<a.n { c[i, j] += a[i, k] * b[k, j] }
      }
    }
    return c
  }

  static func * (a: SquareMatrix, x: [Double]) -> [Double] {
    (0..<a.n).map { i in (0..<a.n).reduce(0) { $0 + a[i, $1] * x[$1] } }
  }

  var transposed: SquareMatrix {
    var t = SquareMatrix(n: n)
    for i in 0..<n { for j in 0..<n { t[j, i] = self[i, j] } }
    return t
  }

  func scaled(_ s: Double) -> SquareMatrix { SquareMatrix(n: n, values: values.map { $0 * s }) }

  /// e^M by scaling and squaring of its Taylor series (the norm scaled to at most 1/2,
  /// terms to machine precision).
  var exponential: SquareMatrix {
    let norm = (0..<n).map { i in (0..<n).reduce(0) { $0 + abs(self[i, $1]) } }.max() ?? 0
    guard norm.isFinite else { return SquareMatrix(n: n, values: Array(repeating: .nan, count: n * n)) }
    // At most 1,025 squarings (the largest finite norm), counted as a Double's exponent.
    var squarings = 0
    if norm > 0.5 { squarings = Int(log2(norm / 0.5).rounded(.up)) }
    let m = scaled(pow(2, -Double(squarings)))
    var sum = SquareMatrix.identity(n)
    var term = SquareMatrix.identity(n)
    for k in 1...30 {
      term = (term * m).scaled(1 / Double(k))
      sum = SquareMatrix(n: n, values: zip(sum.values, term.values).map(+))
      if term.values.allSatisfy({ abs($0) < 1e-18 }) { break }
    }
    for _ in 0..<squarings { sum = sum * sum }
    return sum
  }

  /// The S that solves A·S + S·Aᵀ = Q (A = self, stable): the stationary covariance of
  /// dX = −A·X dt + dW with Cov(dW) = Q dt. Gaussian elimination with partial pivoting on
  /// the n²-by-n² system; nil when it is singular.
  func lyapunov(_ q: SquareMatrix) -> SquareMatrix? {
    let m = n * n
    var a = [Double](repeating: 0, count: m * (m + 1))
    for i in 0..<n {
      for j in 0..<n {
        let row = (i * n + j) * (m + 1)
        for k in 0..<n {
          a[row + k * n + j] += self[i, k]
          a[row + i * n + k] += self[j, k]
        }
        a[row + m] = q[i, j]
      }
    }
    for c in 0..<m {
      var pivot = c
      for r in c..<m where abs(a[r * (m + 1) + c]) > abs(a[pivot * (m + 1) + c]) { pivot = r }
      guard abs(a[pivot * (m + 1) + c]) > 1e-300 else { return nil }
      if pivot != c { for k in 0...m { a.swapAt(c * (m + 1) + k, pivot * (m + 1) + k) } }
      let p = a[c * (m + 1) + c]
      for r in 0..<m where r != c {
        let f = a[r * (m + 1) + c] / p
        if f == 0 { continue }
        for k in c...m { a[r * (m + 1) + k] -= f * a[c * (m + 1) + k] }
      }
    }
    var s = SquareMatrix(n: n)
    for r in 0..<m { s.values[r] = a[r * (m + 1) + m] / a[r * (m + 1) + r] }
    // Symmetric by construction up to rounding: average the two halves.
    for i in 0..<n { for j in (i + 1)..<max(i + 1, n) { let v = (s[i, j] + s[j, i]) / 2; s[i, j] = v; s[j, i] = v } }
    return s
  }

  /// The lower triangular L with L·Lᵀ = self (symmetric, positive semidefinite): a pivot
  /// that rounding left at or below 0 gives a zero column (no spread in that direction).
  var cholesky: SquareMatrix {
    var l = SquareMatrix(n: n)
    for j in 0..<n {
      var d = self[j, j]
      for k in 0..<j { d -= l[j, k] * l[j, k] }
      guard d > 1e-14 * max(1, abs(self[j, j])) else { continue }
      let root = d.squareRoot()
      l[j, j] = root
      for i in (j + 1)..<max(j + 1, n) {
        var s = self[i, j]
        for k in 0..<j { s -= l[i, k] * l[j, k] }
        l[i, j] = s / root
      }
    }
    return l
  }
}
