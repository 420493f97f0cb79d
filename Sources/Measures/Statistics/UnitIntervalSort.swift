/// Sorting a sample of numbers in [0, 1] in linear expected time: a bucket sort with one
/// bucket per value (the bucket of `x` is `⌊x·n⌋`, which never decreases as `x` grows), the
/// values scattered in their input order and each bucket put in order by insertion. The
/// result is the array `sorted()` gives.
///
/// The Kolmogorov–Smirnov sample of a schedule's normalised times is such a sample: spread
/// over [0, 1], about one value per bucket, so each value is read three times and moved twice
/// (a radix sort of the bit patterns needed six passes and a merge of the workers' runs).
enum UnitIntervalSort {
  /// A bucket holding more values than this (a sample bunched on a few times of day, each
  /// with many distinct values near it) is sorted by the standard library, not by insertion.
  static let insertionLimit = 32

  /// `values` in ascending order. Samples of 64 or fewer, or with a value outside [0, 1],
  /// −0 or NaN, are sorted by the standard library (the same order).
  static func sorted(_ values: [Double]) -> [Double] {
    let n = values.count
    guard n > 64, values.allSatisfy({ $0.sign == .plus && $0 <= 1 }) else { return values.sorted() }
    let scale = Double(n)
    @inline(__always) func bucket(_ x: Double) -> Int { min(Int(x * scale), n - 1) }
    // starts[k] is where bucket k begins; after the scatter, where bucket k + 1 begins.
    var starts = [Int](repeating: 0, count: n + 1)
    var out = [Double](repeating: 0, count: n)
    var largest = 0
    starts.withUnsafeMutableBufferPointer { starts in
      values.withUnsafeBufferPointer { values in
        for x in values { starts[bucket(x) + 1] &+= 1 }
        for k in 0..<n {
          largest = max(largest, starts[k + 1])
          starts[k + 1] &+= starts[k]
        }
        out.withUnsafeMutableBufferPointer { out in
          for x in values {
            let k = bucket(x)
            out[starts[k]] = x
            starts[k] &+= 1
          }
        }
      }
    }
    if largest > insertionLimit {
      var begin = 0
      for k in 0..<n {
        let end = starts[k]
        if end - begin > insertionLimit { out[begin..<end].sort() }
        begin = end
      }
    }
    // Insertion over the whole array: a value moves only within its bucket.
    out.withUnsafeMutableBufferPointer { out in
      for i in 1..<n {
        let x = out[i]
        var j = i
        while j > 0 && x < out[j &- 1] {
          out[j] = out[j &- 1]
          j &-= 1
        }
        if j != i { out[j] = x }
      }
    }
    return out
  }
}
