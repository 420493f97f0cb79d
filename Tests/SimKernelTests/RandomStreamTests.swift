import Dispatch
import Testing

@testable import SimKernel

/// Pearson's chi-square statistic of observed counts against expected counts.
func chiSquare(_ observed: [Int], _ expected: [Double]) -> Double {
  zip(observed, expected).reduce(0) { $0 + (Double($1.0) - $1.1) * (Double($1.0) - $1.1) / $1.1 }
}

@Suite("Random streams")
struct RandomStreamTests {
  static let address = StreamAddress(seed: 20_261_122, replication: 3, participant: 41, purpose: Purpose(kind: 4))

  func first(_ n: Int, _ address: StreamAddress) -> [UInt64] {
    var s = RandomStream(address)
    return (0..<n).map { _ in s.next64() }
  }

  @Test("the same address gives the same first 1,000 numbers; each field changes them")
  func sameAddressSameNumbers() {
    let a = first(1_000, Self.address)
    #expect(a == first(1_000, Self.address))
    #expect(Set(a).count == 1_000)
    var other = Self.address
    other.seed += 1
    #expect(first(1_000, other) != a)
    other = Self.address
    other.replication += 1
    #expect(first(1_000, other) != a)
    other = Self.address
    other.participant += 1
    #expect(first(1_000, other) != a)
    other = Self.address
    other.purpose = Purpose(kind: 6)
    #expect(first(1_000, other) != a)
    other = Self.address
    other.purpose = Self.address.purpose.indexed(1)
    #expect(first(1_000, other) != a)
  }

  @Test("numbers do not depend on the thread count or the order of work", arguments: [1, 2, 4, 7])
  func threadCounts(_ threads: Int) {
    let participants = 64
    let reference = (0..<participants).map { p -> [UInt64] in
      var a = Self.address
      a.participant = UInt32(p)
      return first(1_000, a)
    }
    final class Box: @unchecked Sendable {
      var rows: [[UInt64]]
      init(rows: [[UInt64]]) { self.rows = rows }
    }
    let box = Box(rows: Array(repeating: [], count: participants))
    let lock = DispatchQueue(label: "rows")
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
      // Worker w takes participants w, w + threads, …, from the last one down.
      for p in stride(from: participants - 1, through: 0, by: -1) where p % threads == worker {
        var a = Self.address
        a.participant = UInt32(p)
        let row = first(1_000, a)
        lock.sync { box.rows[p] = row }
      }
    }
    #expect(box.rows == reference)
  }

  @Test("uniform draws lie in [0, 1) and open-uniform draws in (0, 1)")
  func uniformRanges() {
    var s = RandomStream(Self.address)
    for _ in 0..<100_000 {
      let u = s.uniform()
      #expect(u >= 0 && u < 1)
      let v = s.openUniform()
      #expect(v > 0 && v < 1)
    }
  }

  @Test("three coarse uniforms are the three 21-bit fields of one draw, each in [0, 1)")
  func threeCoarseUniforms() {
    var s = RandomStream(Self.address)
    var same = RandomStream(Self.address)
    var sums = (0.0, 0.0, 0.0)
    let n = 100_000
    for _ in 0..<n {
      let (a, b, c) = s.threeCoarseUniforms()
      let w = same.next64()
      // Each field, read back from the draw: the bits used once, in order.
      #expect(a * 0x1p21 == Double(w & 0x1F_FFFF) && b * 0x1p21 == Double((w >> 21) & 0x1F_FFFF))
      #expect(c * 0x1p21 == Double((w >> 42) & 0x1F_FFFF))
      #expect(a >= 0 && a < 1 && b >= 0 && b < 1 && c >= 0 && c < 1)
      sums = (sums.0 + a, sums.1 + b, sums.2 + c)
    }
    // Means within 5 standard errors (sd of a uniform 0.289 / sqrt(n) = 0.0009) of 1/2.
    for m in [sums.0, sums.1, sums.2] { #expect(abs(m / Double(n) - 0.5) < 0.0046) }
  }

  @Test("bounded integers are uniform (chi-square, 37 cells, p > 0.001) and in range")
  func boundedIntegers() throws {
    var s = RandomStream(Self.address)
    var counts = Array(repeating: 0, count: 37)
    for _ in 0..<370_000 { counts[Int(s.integer(below: 37))] += 1 }
    let p = try GSL.chiSquareUpperTail(chiSquare(counts, Array(repeating: 10_000, count: 37)), degrees: 36)
    #expect(p > 0.001)
    for _ in 0..<10_000 {
      let x = s.integer(in: -3...4)
      #expect((-3...4).contains(x))
    }
  }

  /// Mean and variance within 4 standard errors, and a chi-square goodness of fit over 50
  /// equiprobable cells (cut at the exponential quantiles) with p > 0.001. Exp(1) has
  /// mean 1, variance 1, and the sample variance has standard error sqrt((mu4 - 1)/n) =
  /// sqrt(8/n).
  func checkExponential(_ draw: (inout RandomStream) -> Double) throws {
    let n = 1_000_000
    var s = RandomStream(Self.address)
    var sum = 0.0
    var sumSq = 0.0
    var counts = Array(repeating: 0, count: 50)
    for _ in 0..<n {
      let x = draw(&s)
      sum += x
      sumSq += x * x
      let cell = Int((-expm1(-x)) * 50)  // F(x) = 1 - exp(-x), in [0, 1)
      counts[min(cell, 49)] += 1
    }
    let mean = sum / Double(n)
    let variance = (sumSq - Double(n) * mean * mean) / Double(n - 1)
    #expect(abs(mean - 1) < 4 / Double(n).squareRoot())
    #expect(abs(variance - 1) < 4 * (8 / Double(n)).squareRoot())
    let p = try GSL.chiSquareUpperTail(
      chiSquare(counts, Array(repeating: Double(n) / 50, count: 50)), degrees: 49)
    #expect(p > 0.001)
  }

  @Test("GSL's exponential sampler over our streams: 10^6 draws fit Exp(1)")
  func gslExponential() throws {
    try checkExponential { $0.gslExponential(mean: 1) }
  }

  @Test("the native exponential (ziggurat): 10^6 draws fit Exp(1)")
  func nativeExponential() throws {
    try checkExponential { $0.exponential(mean: 1) }
  }

  @Test("the exponential ziggurat's layers have equal areas and its tail is exact")
  func exponentialZiggurat() throws {
    typealias Z = ExponentialZiggurat
    // The tables: widths falling to 0, each layer of area v (the base: rectangle and tail).
    #expect(Z.x.count == 257 && Z.y.count == 257 && Z.x[256] == 0)
    #expect(zip(Z.x, Z.x.dropFirst()).allSatisfy { $0 > $1 })
    #expect(abs(Z.x[0] * exp(-Z.r) - Z.v) < 1e-15)
    for i in 1..<256 {
      #expect(abs((Z.y[i + 1] - Z.y[i]) * Z.x[i] / Z.v - 1) < 1e-9, "layer \(i)")
      #expect(Z.y[i] == exp(-Z.x[i]))
    }
    #expect((0..<256).allSatisfy { Z.inner[$0] == Z.x[$0 + 1] / Z.x[$0] })
    // 4 million draws in 200 equiprobable cells (the wedges show here), and the tail beyond r
    // (drawn separately): its share e^(-r) and its mean excess 1, within 4 standard errors.
    let n = 4_000_000
    var s = RandomStream(StreamAddress(seed: 99, purpose: .general))
    var counts = Array(repeating: 0, count: 200)
    var tail = 0
    var excess = 0.0
    for _ in 0..<n {
      let x = s.exponential(mean: 1)
      counts[min(Int(-expm1(-x) * 200), 199)] += 1
      if x > Z.r {
        tail += 1
        excess += x - Z.r
      }
    }
    let p = try GSL.chiSquareUpperTail(chiSquare(counts, Array(repeating: Double(n) / 200, count: 200)), degrees: 199)
    #expect(p > 0.001)
    let expected = Double(n) * exp(-Z.r)
    #expect(abs(Double(tail) - expected) < 4 * expected.squareRoot())
    #expect(abs(excess / Double(tail) - 1) < 4 / Double(tail).squareRoot())
  }

  @Test("GSL's samplers draw from the stream itself: gsl_rng_uniform equals uniform()")
  func adaptorDrawsFromStream() {
    var a = RandomStream(Self.address)
    var b = RandomStream(Self.address)
    for _ in 0..<1_000 { #expect(a.gslUniform() == b.uniform()) }
  }

  @Test("the native normal is GSL's ziggurat draw for draw, tail included, and leaves the stream where GSL does")
  func nativeNormalIsGSL() {
    var native = RandomStream(Self.address)
    var gsl = RandomStream(Self.address)
    var mismatches = 0
    var tail = 0
    for n in 0..<2_000_000 {
      let (mean, sd) = n % 2 == 0 ? (0.0, 1.0) : (Double(n % 7) - 3, 0.5 + Double(n % 5))
      let a = native.normal(mean: mean, sd: sd)
      let b = gsl.gslNormal(mean: mean, sd: sd)
      if a.bitPattern != b.bitPattern { mismatches += 1 }
      if abs(a - mean) > 3.44428647676 * sd { tail += 1 }  // beyond the ziggurat's base: its tail
    }
    #expect(mismatches == 0)
    #expect(tail > 100)
    #expect(native.next64() == gsl.next64())
  }

  @Test("GSL normal, gamma and Poisson samplers have the right means (4 standard errors)")
  func otherSamplers() {
    let n = 200_000
    var s = RandomStream(Self.address)
    var normal = 0.0
    var gamma = 0.0
    var poisson = 0.0
    for _ in 0..<n {
      normal += s.normal(mean: 2, sd: 3)
      gamma += s.gamma(shape: 2, scale: 1.5)  // mean 3, sd sqrt(2)·1.5
      poisson += Double(s.poisson(mean: 4))  // mean 4, sd 2
    }
    let rootN = Double(n).squareRoot()
    #expect(abs(normal / Double(n) - 2) < 4 * 3 / rootN)
    #expect(abs(gamma / Double(n) - 3) < 4 * 2.0.squareRoot() * 1.5 / rootN)
    #expect(abs(poisson / Double(n) - 4) < 4 * 2 / rootN)
  }

  @Test("the discrete distribution follows its weights; bad weights are a GSL error")
  func discrete() throws {
    let weights = [1.0, 0, 3, 6]
    let table = try DiscreteDistribution(weights: weights)
    var s = RandomStream(Self.address)
    var counts = [0, 0, 0, 0]
    for _ in 0..<100_000 { counts[table.draw(&s)] += 1 }
    #expect(counts[1] == 0)
    let p = try GSL.chiSquareUpperTail(
      chiSquare([counts[0], counts[2], counts[3]], [10_000, 30_000, 60_000]), degrees: 2)
    #expect(p > 0.001)
    #expect(throws: GSLError.self) { try DiscreteDistribution(weights: [1, -1]) }
    #expect(throws: GSLError.self) { try DiscreteDistribution(weights: [0, 0]) }
  }

  @Test("a stream refilled eight blocks or two at a time gives the same numbers")
  func refillWidths() {
    let reference = first(2_000, Self.address)
    var s = RandomStream(Self.address)
    var drawn: [UInt64] = []
    var k = 0
    while drawn.count < reference.count {
      if s.position < s.filled {
        drawn.append(s.next64())
      } else {
        // Narrow, narrow, wide, … unless this CPU has no AVX2 (then narrow only).
        k += 1
        drawn.append(s.refill(wide: RandomStream.wide && k % 3 == 0))
      }
    }
    #expect(drawn.count == reference.count)
    #expect(zip(drawn, reference).filter { $0 != $1 }.count == 0)
    #expect(k > 100)
  }

  @Test("GSL status codes become Swift errors instead of aborting")
  func gslErrors() {
    #expect(throws: GSLError.self) { try GSL.check(1, in: "test") }
    #expect(throws: GSLError.self) { try GSL.chiSquareUpperTail(-1, degrees: 3) }
    let error = GSLError(code: 1, function: "f")
    #expect(error.description.contains("f"))
    #expect(!GSL.version.isEmpty)
  }
}

#if canImport(Glibc)
  import Glibc
#endif
