import Testing

@testable import Measures

/// The radix sort of the Kolmogorov–Smirnov sample gives exactly what `sorted()` gives.
@Suite("RadixSort: non-negative samples sorted in linear time, as sorted() sorts them")
struct RadixSortTests {
  /// A uniform draw in [0, 1) from the tests' SplitMix64 (``SplitMix``).
  static func unit(_ g: inout SplitMix) -> Double { Double(g.next() >> 11) / Double(1 << 53) }

  @Test("samples in [0, 1] with ties, zeros, ones, tiny and subnormal values: equal to sorted()")
  func equalsSorted() {
    var g = SplitMix(seed: 42)
    for n in [257, 1_000, 50_000] {
      var xs = (0..<n).map { _ in Self.unit(&g) }
      // Ties (rounded to a grid), exact 0 and 1, tiny and subnormal values: every digit varies.
      for i in stride(from: 0, to: n, by: 7) { xs[i] = (xs[i] * 64).rounded() / 64 }
      xs[3] = 0
      xs[5] = 1
      xs[11] = 1e-300
      xs[13] = Double.leastNonzeroMagnitude
      xs[17] = 3.5e6
      #expect(RadixSort.sortedNonNegative(xs) == xs.sorted(), "n = \(n)")
    }
  }

  @Test("negatives, −0, infinities and NaN fall back to the standard sort; short samples too")
  func fallsBack() {
    var g = SplitMix(seed: 7)
    var xs = (0..<1_000).map { _ in Self.unit(&g) }
    xs[10] = -0.5
    #expect(RadixSort.sortedNonNegative(xs) == xs.sorted())
    xs[10] = -0.0
    let sorted = RadixSort.sortedNonNegative(xs)
    #expect(sorted.first?.sign == .minus)  // −0 first, as sorted() keeps it (a radix of bits would put it last)
    xs[10] = .infinity
    #expect(RadixSort.sortedNonNegative(xs) == xs.sorted())
    let short = [0.3, 0.1, 0.2]
    #expect(RadixSort.sortedNonNegative(short) == [0.1, 0.2, 0.3])
    #expect(RadixSort.sortedNonNegative([]) == [])
  }
}
