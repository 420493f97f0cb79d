/// Count, mean and standard deviation of a stream of numbers, mergeable (Welford's update
/// and Chan et al.'s merge). Non-finite values are skipped.
public struct Moments: Sendable, Equatable {
  /// Values counted.
  public private(set) var count = 0
  /// Their mean (0 when empty).
  public private(set) var mean = 0.0
  var m2 = 0.0

  /// Creates an empty accumulator.
  public init() {}

  /// Adds a value.
  public mutating func add(_ x: Double) {
    guard x.isFinite else { return }
    count += 1
    let d = x - mean
    mean += d / Double(count)
    m2 += d * (x - mean)
  }

  /// Merges another accumulator.
  public mutating func merge(_ o: Moments) {
    guard o.count > 0 else { return }
    guard count > 0 else {
      self = o
      return
    }
    let n = Double(count + o.count)
    let d = o.mean - mean
    mean += d * Double(o.count) / n
    m2 += o.m2 + d * d * Double(count) * Double(o.count) / n
    count += o.count
  }

  /// The sample standard deviation (nan for fewer than two values).
  public var sd: Double { count < 2 ? .nan : (m2 / Double(count - 1)).squareRoot() }

  /// The standard error of the mean.
  public var standardError: Double { count < 2 ? .nan : sd / Double(count).squareRoot() }

  /// The root mean square of the values.
  public var rootMeanSquare: Double {
    count == 0 ? .nan : ((m2 + Double(count) * mean * mean) / Double(count)).squareRoot()
  }

  /// The mean, nan when empty.
  public var meanOrNaN: Double { count == 0 ? .nan : mean }

  /// The median of sorted values (the mean of the middle two for an even count).
  public static func median(sorted v: [Double]) -> Double {
    guard !v.isEmpty else { return .nan }
    let m = v.count / 2
    return v.count % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2
  }

  /// The same median as ``median(sorted:)`` of the values sorted, found by selection in
  /// linear expected time instead of sorting (a participant's response times: hundreds a
  /// year). Reorders `v`.
  public static func median(selecting v: inout [Double]) -> Double {
    guard !v.isEmpty else { return .nan }
    if v.contains(where: \.isNaN) {
      v.sort()
      return median(sorted: v)
    }
    let m = v.count / 2
    select(&v, m)
    // Everything before m is at most v[m]: the largest of it is the (m − 1)-th smallest.
    return v.count % 2 == 1 ? v[m] : (v[0..<m].max()! + v[m]) / 2
  }

  /// Puts the k-th smallest value at `k`, none larger before it and none smaller after
  /// (Hoare's selection, the pivot the median of the range's first, middle and last values;
  /// a range still not settled after 64 rounds is sorted).
  static func select(_ v: inout [Double], _ k: Int) {
    var lo = 0
    var hi = v.count - 1
    var rounds = 0
    while lo < hi {
      rounds += 1
      if rounds > 64 {
        v[lo...hi].sort()
        return
      }
      let (a, b, c) = (v[lo], v[lo + (hi - lo) / 2], v[hi])
      let pivot = max(min(a, b), min(max(a, b), c))
      var i = lo
      var j = hi
      while i <= j {
        while v[i] < pivot { i += 1 }
        while v[j] > pivot { j -= 1 }
        if i <= j {
          v.swapAt(i, j)
          i += 1
          j -= 1
        }
      }
      // Now lo...j hold values up to the pivot, i...hi values from it, and between them
      // only the pivot's value.
      if k <= j {
        hi = j
      } else if k >= i {
        lo = i
      } else {
        return
      }
    }
  }
}

/// A histogram of non-negative values in fixed-width bins, for medians and quantiles of
/// quantities too numerous to keep (response latencies of millions of prompts).
public struct Histogram: Sendable, Equatable {
  /// Bin width.
  public let binWidth: Double
  var counts: [Int]
  /// Values past the fine bins, in `coarseBins` bins of `coarseWidth` from where they end
  /// (allocated with the first such value).
  let coarseWidth: Double
  let coarseBins: Int
  var coarse: [Int] = []
  var overflow = 0
  /// Values counted.
  public private(set) var count = 0

  /// A histogram of `bins` bins of `binWidth`, then `coarseBins` bins of `coarseWidth`;
  /// larger values count as overflow.
  public init(binWidth: Double, bins: Int, coarseWidth: Double = 1, coarseBins: Int = 0) {
    self.binWidth = binWidth
    counts = Array(repeating: 0, count: bins)
    self.coarseWidth = coarseWidth
    self.coarseBins = coarseBins
  }

  /// Adds a value (non-finite and negative values are skipped).
  @inline(__always)
  public mutating func add(_ x: Double) {
    guard x.isFinite, x >= 0 else { return }
    count += 1
    let b = Int(x / binWidth)
    if b < counts.count {
      counts[b] += 1
    } else {
      addCoarse(x)
    }
  }

  mutating func addCoarse(_ x: Double) {
    let c = (x - Double(counts.count) * binWidth) / coarseWidth
    guard c < Double(coarseBins) else {
      overflow += 1
      return
    }
    if coarse.isEmpty { coarse = Array(repeating: 0, count: coarseBins) }
    coarse[Int(c)] += 1
  }

  /// Merges another histogram with the same bins.
  public mutating func merge(_ o: Histogram) {
    for i in counts.indices { counts[i] += o.counts[i] }
    if !o.coarse.isEmpty {
      if coarse.isEmpty { coarse = Array(repeating: 0, count: coarseBins) }
      for i in coarse.indices { coarse[i] += o.coarse[i] }
    }
    overflow += o.overflow
    count += o.count
  }

  /// The q-quantile as R's default (type 7) reads it: between the values of ranks ⌊h⌋ and
  /// ⌊h⌋ + 1, h = q (n − 1), each value at the middle of its bin (so an even count's median is
  /// the mean of its middle two, as a median of `prompts.csv`'s times is: it was the lower
  /// one); nan when empty, infinity where it needs a value in the overflow.
  public func quantile(_ q: Double) -> Double {
    guard count > 0 else { return .nan }
    let h = q * Double(count - 1)
    let lower = Int(h.rounded(.down))
    let a = value(atRank: lower)
    guard h > Double(lower) else { return a }
    let b = value(atRank: lower + 1)
    guard a.isFinite && b.isFinite else { return .infinity }
    return a + (h - Double(lower)) * (b - a)
  }

  /// The value of rank `k` (from 0, ascending) at the middle of its bin; infinity in the
  /// overflow.
  func value(atRank k: Int) -> Double {
    var seen = 0
    for (i, c) in counts.enumerated() where c > 0 {
      seen += c
      if seen > k { return (Double(i) + 0.5) * binWidth }
    }
    let fineEnd = Double(counts.count) * binWidth
    for (i, c) in coarse.enumerated() where c > 0 {
      seen += c
      if seen > k { return fineEnd + (Double(i) + 0.5) * coarseWidth }
    }
    return .infinity
  }
}
