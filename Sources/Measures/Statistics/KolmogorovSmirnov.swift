/// The one-sample Kolmogorov–Smirnov test against Uniform(0, 1), computed as
/// `scipy.stats.kstest(x, "uniform")` does (two-sided, `method="auto"`, which for the
/// one-sample test always means the exact distribution of D_n: `scipy.stats.kstwo.sf`).
///
/// The p-value follows the method selection of Simard & L'Ecuyer (2011), "Computing the
/// two-sided Kolmogorov-Smirnov distribution", J. Stat. Softw. 39(11), as scipy implements
/// it (`scipy/stats/_ksstats.py`, `_kolmogn`): Ruben–Gambino closed forms at the extremes,
/// the Durbin matrix (Marsaglia, Tsang & Wang 2003) and Pomeranz (1974) recursions for
/// small samples, twice the one-sided Smirnov probability (Birnbaum & Tingey 1951) in the
/// upper tail, and the Pelz–Good (1976) asymptotic series for large samples. Everything here
/// is in plain double precision; `MeasuresTests` checks it against scipy's values.
public enum KolmogorovSmirnov {
  /// The statistic D and its p-value.
  public struct Result: Sendable, Equatable {
    /// D = sup |F_n(x) − x|.
    public var d: Double
    /// P(D_n ≥ d) under uniformity.
    public var p: Double
  }

  /// Tests sorted values in [0, 1] against the uniform distribution.
  public static func uniform(sorted u: [Double]) -> Result {
    let n = u.count
    guard n > 0 else { return Result(d: .nan, p: .nan) }
    var dPlus = -Double.infinity
    var dMinus = -Double.infinity
    let N = Double(n)
    for (i, x) in u.enumerated() {
      dPlus = max(dPlus, Double(i + 1) / N - x)
      dMinus = max(dMinus, x - Double(i) / N)
    }
    let d = max(dPlus, dMinus)
    return Result(d: d, p: survival(n: n, d: d))
  }

  /// P(D_n ≥ d) for the two-sided statistic (scipy's `kstwo.sf(d, n)`).
  public static func survival(n: Int, d: Double) -> Double {
    kolmogn(n, d, cdf: false)
  }

  /// P(D_n ≤ d) (scipy's `kstwo.cdf(d, n)`).
  public static func cdf(n: Int, d: Double) -> Double {
    kolmogn(n, d, cdf: true)
  }

  static func clip(_ p: Double) -> Double { min(max(p, 0), 1) }

  static func select(_ cdfProb: Double, _ sfProb: Double, _ cdf: Bool) -> Double {
    clip(cdf ? cdfProb : sfProb)
  }

  static func kolmogn(_ n: Int, _ x: Double, cdf: Bool) -> Double {
    guard n > 0, !x.isNaN else { return .nan }
    if x >= 1 { return select(1, 0, cdf) }
    if x <= 0 { return select(0, 1, cdf) }
    let N = Double(n)
    let t = N * x
    if t <= 1 {  // Ruben–Gambino: 1/(2n) ≤ x ≤ 1/n
      if t <= 0.5 { return select(0, 1, cdf) }
      let prob: Double
      if n <= 140 {
        var p = 1.0
        for i in 1...n { p *= Double(i) * (1 / N) * (2 * t - 1) }
        prob = p
      } else {
        prob = exp(logFactorialOverPower(n) + N * log(2 * t - 1))
      }
      return select(prob, 1 - prob, cdf)
    }
    if t >= N - 1 {  // Ruben–Gambino
      let prob = 2 * pow(1 - x, N)
      return select(1 - prob, prob, cdf)
    }
    if x >= 0.5 {  // exact: twice the one-sided probability
      let prob = 2 * smirnov(n, x)
      return select(1 - prob, prob, cdf)
    }
    let nx2 = t * x
    if n <= 140 {
      if nx2 <= 0.754693 {
        let prob = durbin(n, x)
        return select(prob, 1 - prob, cdf)
      }
      if nx2 <= 4 {
        let prob = pomeranz(n, x)
        return select(prob, 1 - prob, cdf)
      }
      let prob = 2 * smirnov(n, x)
      return select(1 - prob, prob, cdf)
    }
    if !cdf {
      if nx2 >= 370 { return 0 }
      if nx2 >= 2.2 { return clip(2 * smirnov(n, x)) }
    }
    let cdfProb: Double
    if nx2 >= 18 {
      cdfProb = 1
    } else if n <= 100_000 && N * pow(x, 1.5) <= 1.4 {
      cdfProb = durbin(n, x)
    } else {
      cdfProb = pelzGood(n, x)
    }
    return select(cdfProb, 1 - cdfProb, cdf)
  }

  /// log(n! / n^n) by Stirling's series, with n·log n taken out first to avoid cancellation.
  static func logFactorialOverPower(_ n: Int) -> Double {
    // Stirling coefficients B_2j / (2j (2j − 1)), j = 8 … 1.
    let c: [Double] = [
      -2.955065359477124183e-2, 6.4102564102564102564e-3, -1.9175269175269175269e-3,
      8.4175084175084175084e-4, -5.952380952380952381e-4, 7.9365079365079365079e-4,
      -2.7777777777777777778e-3, 8.3333333333333333333e-2,
    ]
    let N = Double(n)
    let rn = 1 / N
    let z = rn / N
    var poly = 0.0
    for ci in c { poly = poly * z + ci }
    return log(N) / 2 - N + log(2 * Double.pi) / 2 + rn * poly
  }

  // MARK: - Durbin's matrix (Marsaglia, Tsang & Wang 2003)

  static let bigExponent = 128
  static let big = Double(sign: .plus, exponent: 128, significand: 1)
  static let small = Double(sign: .plus, exponent: -128, significand: 1)

  /// P(D_n ≤ d) by the k-th diagonal entry of H^n, H an m×m matrix, m = 2k − 1, k = ⌈nd⌉.
  static func durbin(_ n: Int, _ d: Double) -> Double {
    if d >= 1 { return 1 }
    let nd = Double(n) * d
    if nd <= 0.5 { return 0 }
    let k = Int(nd.rounded(.up))
    let h = Double(k) - nd
    let m = 2 * k - 1
    var v = (1...m).map { 1 - pow(h, Double($0)) }
    var w = [Double](repeating: 0, count: m)
    var fac = 1.0
    for j in 1...m {
      w[j - 1] = fac
      fac /= Double(j)
      v[j - 1] *= fac
    }
    let tt = pow(max(2 * h - 1, 0), Double(m)) - 2 * pow(h, Double(m))
    v[m - 1] = (1 + tt) * fac
    var H = [Double](repeating: 0, count: m * m)  // row-major
    for i in 1..<m {
      for r in (i - 1)..<m { H[r * m + i] = w[r - (i - 1)] }
    }
    for r in 0..<m { H[r * m] = v[r] }
    for c in 0..<m { H[(m - 1) * m + c] = v[m - 1 - c] }

    var power = [Double](repeating: 0, count: m * m)
    for i in 0..<m { power[i * m + i] = 1 }
    var nn = n
    var exponent = 0
    var hExponent = 0
    while nn > 0 {
      if nn % 2 == 1 {
        power = multiply(power, H, m)
        exponent += hExponent
      }
      H = multiply(H, H, m)
      hExponent *= 2
      if abs(H[(k - 1) * m + (k - 1)]) > big {
        for i in H.indices { H[i] /= big }
        hExponent += bigExponent
      }
      nn /= 2
    }
    var p = power[(k - 1) * m + (k - 1)]
    for i in 1...n {
      p = Double(i) * p / Double(n)
      if abs(p) < small {
        p *= big
        exponent -= bigExponent
      }
    }
    if exponent != 0 { p = scalbn(p, exponent) }
    return clip(p)
  }

  static func multiply(_ a: [Double], _ b: [Double], _ m: Int) -> [Double] {
    var c = [Double](repeating: 0, count: m * m)
    a.withUnsafeBufferPointer { a in
      b.withUnsafeBufferPointer { b in
        c.withUnsafeMutableBufferPointer { c in
          for i in 0..<m {
            for l in 0..<m {
              let ail = a[i * m + l]
              if ail == 0 { continue }
              for j in 0..<m { c[i * m + j] += ail * b[l * m + j] }
            }
          }
        }
      }
    }
    return c
  }

  // MARK: - Pomeranz (1974)

  /// The interval of row i of the Pomeranz recursion.
  static func pomeranzBounds(_ i: Int, _ n: Int, _ ll: Int, _ ceilf: Int, _ roundf: Int) -> (Int, Int) {
    var j1: Int
    var j2: Int
    if i == 0 {
      j1 = -ll - ceilf - 1
      j2 = ll + ceilf - 1
    } else {
      let half = (i + 1) / 2
      if (i + 1) % 2 == 0 {  // i odd
        if half == n + 1 {
          j1 = n - ll - ceilf - 1
          j2 = n + ll + ceilf - 1
        } else {
          j1 = half - 1 - ll - roundf - 1
          j2 = half + ll - 1 + ceilf - 1
        }
      } else {
        j1 = half - 1 - ll - 1
        j2 = half + ll + roundf - 1
      }
    }
    return (max(j1 + 2, 0), min(j2, n))
  }

  /// P(D_n ≤ x) by Pomeranz's recursion (small n).
  static func pomeranz(_ n: Int, _ x: Double) -> Double {
    let N = Double(n)
    let t = N * x
    let ll = Int(t.rounded(.down))
    let f = t - Double(ll)
    let g = min(f, 1 - f)
    let ceilf = f > 0 ? 1 : 0
    let roundf = f > 0.5 ? 1 : 0
    let powers = 2 * (ll + 1)
    var gPower = [Double](repeating: 1, count: powers)
    var twoGPower = [Double](repeating: 1, count: powers)
    var oneMinusTwoGPower = [Double](repeating: 1, count: powers)
    for m in 1..<powers {
      gPower[m] = gPower[m - 1] * (g / N) / Double(m)
      twoGPower[m] = twoGPower[m - 1] * (2 * g / N) / Double(m)
      oneMinusTwoGPower[m] = oneMinusTwoGPower[m - 1] * ((1 - 2 * g) / N) / Double(m)
    }
    var v0 = [Double](repeating: 0, count: powers)
    var v1 = [Double](repeating: 0, count: powers)
    v1[0] = 1
    var v0s = 0
    var v1s = 0
    var exponent = 0
    var (j1, j2) = pomeranzBounds(0, n, ll, ceilf, roundf)
    for i in 1..<(2 * n + 2) {
      let k1 = j1
      swap(&v0, &v1)
      swap(&v0s, &v1s)
      for j in v1.indices { v1[j] = 0 }
      (j1, j2) = pomeranzBounds(i, n, ll, ceilf, roundf)
      let pw = (i == 1 || i == 2 * n + 1) ? gPower : (i % 2 == 1 ? twoGPower : oneMinusTwoGPower)
      let ln2 = j2 - k1 + 1
      if ln2 > 0 {
        // conv = convolve(V0[k1 − V0s ..< k1 − V0s + ln2], pw[..<ln2]); keep entries
        // j1 − k1 ..< j1 − k1 + (j2 − j1 + 1).
        let start = j1 - k1
        let count = j2 - j1 + 1
        for out in 0..<max(count, 0) {
          let c = start + out
          if c < 0 { continue }
          var s = 0.0
          for a in max(0, c - (ln2 - 1))...min(c, ln2 - 1) {
            let idx = k1 - v0s + a
            if idx >= 0 && idx < v0.count { s += v0[idx] * pw[c - a] }
          }
          v1[out] = s
        }
        let mx = v1.max() ?? 0
        if mx > 0 && mx < small {
          for j in v1.indices { v1[j] *= big }
          exponent -= bigExponent
        }
        v1s = v0s + j1 - k1
      }
    }
    var answer = v1[n - v1s]
    for m in 1...n {
      if abs(answer) > big {
        answer *= small
        exponent += bigExponent
      }
      answer *= Double(m)
    }
    if exponent != 0 { answer = scalbn(answer, exponent) }
    return clip(answer)
  }

  // MARK: - Pelz–Good (1976)

  static func pelzGood(_ n: Int, _ x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let N = Double(n)
    let z = N.squareRoot() * x
    let z2 = z * z
    let z3 = z2 * z
    let z4 = z2 * z2
    let z6 = z4 * z2
    let pi2 = Double.pi * Double.pi
    let pi4 = pi2 * pi2
    let pi6 = pi4 * pi2
    let qlog = -pi2 / 8 / z2
    if qlog < -708 { return 0 }
    var q = exp(qlog)
    let k1a = -z2
    let k1b = pi2 / 4
    let k2a = 6 * z6 + 2 * z4
    let k2b = (2 * z4 - 5 * z2) * pi2 / 4
    let k2c = pi4 * (1 - 2 * z2) / 16
    let k3d = pi6 * (5 - 30 * z2) / 64
    let k3c = pi4 * (-60 * z2 + 212 * z4) / 16
    let k3b = pi2 * (135 * z4 - 96 * z6) / 4
    let k3a = -30 * z6 - 90 * pow(z, 8)
    var K = [0.0, 0.0, 0.0, 0.0]
    let maxk = Int((16 * z / Double.pi).rounded(.up))
    var kk = maxk
    while kk >= 1 {
      let m = Double(2 * kk - 1)
      let m2 = m * m
      let m4 = m2 * m2
      let m6 = m4 * m2
      let qpower = pow(q, Double(8 * kk))
      let coeffs = [
        1.0, k1a + k1b * m2, k2a + k2b * m2 + k2c * m4, k3a + k3b * m2 + k3c * m4 + k3d * m6,
      ]
      for i in 0..<4 { K[i] = K[i] * qpower + coeffs[i] }
      kk -= 1
    }
    let sqrt2pi = (2 * Double.pi).squareRoot()
    let divisors = [z, 6 * z4, 72 * pow(z, 7), 6480 * pow(z, 10)]
    for i in 0..<4 { K[i] = K[i] * q * sqrt2pi / divisors[i] }
    q = exp(-pi2 / 2 / z2)
    var k2extra = 0.0
    var k3extra = 0.0
    let sqrt3z = 3.0.squareRoot() * z
    kk = maxk
    while kk >= 1 {
      let ks = Double(kk)
      let ks2 = ks * ks
      let qp = pow(q, ks2)
      k2extra += ks2 * qp
      let kspi = Double.pi * ks
      k3extra += (sqrt3z + kspi) * (sqrt3z - kspi) * ks2 * qp
      kk -= 1
    }
    K[2] += k2extra * pi2 * sqrt2pi / (-36 * z3)
    K[3] += k3extra * pi2 * sqrt2pi / (216 * z6)
    for i in 0..<4 { K[i] /= pow(N, Double(i) / 2) }
    return K.reduce(0, +)
  }

  // MARK: - Smirnov's one-sided probability

  /// P(D_n^+ ≥ x), the one-sided statistic (scipy's `smirnov(n, x)`), by the Birnbaum–Tingey
  /// sum: x · Σ_{j=0}^{⌊n(1−x)⌋} C(n, j) (1 − x − j/n)^(n−j) (x + j/n)^(j−1), every term
  /// positive, summed in log space.
  static func smirnov(_ n: Int, _ x: Double) -> Double {
    guard n > 0, x >= 0, x <= 1 else { return .nan }
    if n == 1 { return 1 - x }
    if x == 0 { return 1 }
    if x == 1 { return 0 }
    let N = Double(n)
    let nx = N * x
    var nxFloor = Int(nx.rounded(.down))
    var alpha = nx - Double(nxFloor)
    if alpha >= 1 {
      nxFloor += 1
      alpha = 0
    }
    if nxFloor == 0 || (nxFloor == 1 && alpha == 0) {  // x ≤ 1/n
      let cdf = x * pow(1 + x, N - 1)
      return min(max(1 - cdf, 0), 1)
    }
    if -2 * N * x * x < -7.08396418532264106224e2 { return 0 }
    if nxFloor >= n - 1 { return pow(1 - x, N) }
    if n > 1_000_000 {
      let logp = -pow(6 * nx + 1, 2) / 18 / N
      return logp < -log(2.0) ? exp(logp) : 1 - (-expm1(logp))
    }
    // Terms j = 0 … ⌊n(1 − x)⌋; when n(1 − x) is a whole number its last term is 0, so the
    // sum stops at n − ⌊nx⌋ − 1 in both cases.
    let top = n - nxFloor - 1
    var logChoose = 0.0  // log C(n, 0)
    var maxLog = -Double.infinity
    var scaled = 0.0
    for j in 0...max(top, 0) {
      if j > 0 { logChoose += log(Double(n - j + 1) / Double(j)) }
      // 1 − x − j/n = (n − ⌊nx⌋ − j − alpha)/n, without cancellation.
      let a = (Double(n - nxFloor - j) - alpha) / N
      let b = (Double(nxFloor + j) + alpha) / N  // x + j/n
      guard a > 0 else { break }
      let l = logChoose + Double(n - j) * log(a) + Double(j - 1) * log(b)
      if l > maxLog {
        scaled = scaled * exp(maxLog - l) + 1
        maxLog = l
      } else {
        scaled += exp(l - maxLog)
      }
    }
    let sf = x * scaled * exp(maxLog)
    return min(max(sf, 0), 1)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
