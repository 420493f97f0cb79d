/// Sorting a large sample of non-negative numbers in linear time: a least-significant-digit
/// radix sort of their bit patterns (for non-negative finite `Double`s the bit patterns, read
/// as unsigned integers, order as the numbers do). The result is the array `sorted()` gives.
public enum RadixSort {
  /// Bits per digit: 2,048 buckets, six passes over 64 bits (a pass whose digit is the same
  /// for every value is skipped: the high digits of a sample in [0, 1]).
  static let digitBits = 11
  static let passes = 6

  /// `values` in ascending order. Samples of 256 or fewer, or with a negative, −0, infinite
  /// or NaN value, are sorted by the standard library (the same order).
  public static func sortedNonNegative(_ values: [Double]) -> [Double] {
    let n = values.count
    guard n > 256, values.allSatisfy({ $0.sign == .plus && $0.isFinite }) else { return values.sorted() }
    let buckets = 1 << digitBits
    let mask = UInt64(buckets - 1)
    var a = values.map(\.bitPattern)
    var b = [UInt64](repeating: 0, count: n)
    var counts = [Int](repeating: 0, count: buckets * passes)
    counts.withUnsafeMutableBufferPointer { c in
      for x in a {
        for d in 0..<passes { c[d * buckets + Int((x >> UInt64(d * digitBits)) & mask)] += 1 }
      }
      for d in 0..<passes {
        let base = d * buckets
        let shift = UInt64(d * digitBits)
        // Skipped when every value has the same digit (the counts do not depend on the order).
        if c[base + Int((a[0] >> shift) & mask)] == n { continue }
        var sum = 0
        for k in base..<(base + buckets) {
          let count = c[k]
          c[k] = sum
          sum += count
        }
        a.withUnsafeBufferPointer { from in
          b.withUnsafeMutableBufferPointer { to in
            for x in from {
              let k = base + Int((x >> shift) & mask)
              to[c[k]] = x
              c[k] += 1
            }
          }
        }
        swap(&a, &b)
      }
    }
    return a.map { Double(bitPattern: $0) }
  }
}
