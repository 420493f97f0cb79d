import Testing

@testable import Measures

/// The bucket sort of the Kolmogorov–Smirnov sample gives exactly what `sorted()` gives.
@Suite("UnitIntervalSort: samples in [0, 1] sorted in linear time, as sorted() sorts them")
struct UnitIntervalSortTests {
  /// A uniform draw in [0, 1) from the tests' SplitMix64 (``SplitMix``).
  static func unit(_ g: inout SplitMix) -> Double { Double(g.next() >> 11) / Double(1 << 53) }

  @Test("samples in [0, 1] with ties, zeros, ones, tiny and subnormal values: equal to sorted()")
  func equalsSorted() {
    var g = SplitMix(seed: 42)
    for n in [65, 1_000, 50_000] {
      var xs = (0..<n).map { _ in Self.unit(&g) }
      // Ties (rounded to a grid), exact 0 and 1, tiny and subnormal values.
      for i in stride(from: 0, to: n, by: 7) { xs[i] = (xs[i] * 64).rounded() / 64 }
      xs[3] = 0
      xs[5] = 1
      xs[11] = 1e-300
      xs[13] = Double.leastNonzeroMagnitude
      xs[17] = 1
      #expect(UnitIntervalSort.sorted(xs) == xs.sorted(), "n = \(n)")
    }
  }

  @Test("bunched samples: thousands of distinct values in one bucket, whole days on a few times")
  func bunched() {
    var g = SplitMix(seed: 9)
    // 3,000 distinct values within 10⁻⁶ of 0.5 (one bucket: sorted by the standard library),
    // and 2,000 spread ones.
    var xs = (0..<3_000).map { _ in 0.5 + 1e-6 * Self.unit(&g) } + (0..<2_000).map { _ in Self.unit(&g) }
    xs.reverse()
    #expect(UnitIntervalSort.sorted(xs) == xs.sorted())
    // A fixed schedule: five times a day, every day the same (long runs of ties).
    let fixed = (0..<4_000).map { i in [0.1, 0.3, 0.5, 0.7, 0.9][(i * 3) % 5] }
    #expect(UnitIntervalSort.sorted(fixed) == fixed.sorted())
    // Descending input: every value moves.
    let descending = (0..<1_000).map { Double(999 - $0) / 999 }
    #expect(UnitIntervalSort.sorted(descending) == descending.sorted())
  }

  @Test("values outside [0, 1] and −0 fall back to the standard sort; short samples too")
  func fallsBack() {
    var g = SplitMix(seed: 7)
    var xs = (0..<1_000).map { _ in Self.unit(&g) }
    xs[10] = -0.5
    #expect(UnitIntervalSort.sorted(xs) == xs.sorted())
    xs[10] = 3.5
    #expect(UnitIntervalSort.sorted(xs) == xs.sorted())
    xs[10] = -0.0
    let sorted = UnitIntervalSort.sorted(xs)
    #expect(sorted.first?.sign == .minus)  // −0 first, as sorted() keeps it
    let short = [0.3, 0.1, 0.2]
    #expect(UnitIntervalSort.sorted(short) == [0.1, 0.2, 0.3])
    #expect(UnitIntervalSort.sorted([]) == [])
  }
}
