/// In-day gaps between consecutive signals: minimum, maximum and the share under an hour.
struct GapStatistics: Sendable, Equatable {
  var count = 0
  var under60 = 0
  var min = Double.infinity
  var max = -Double.infinity

  /// Adds the gaps of one day's sorted times.
  mutating func add(_ times: UnsafeBufferPointer<Double>) {
    for (a, b) in zip(times, times.dropFirst()) {
      let g = b - a
      count += 1
      if g < 60 { under60 += 1 }
      if g < min { min = g }
      if g > max { max = g }
    }
  }

  mutating func merge(_ other: GapStatistics) {
    count += other.count
    under60 += other.under60
    min = Swift.min(min, other.min)
    max = Swift.max(max, other.max)
  }

  /// The share of gaps under 60 minutes (`nan` without gaps).
  var shareUnder60: Double { count == 0 ? .nan : Double(under60) / Double(count) }

  /// The shortest gap (`nan` without gaps).
  var minimum: Double { count == 0 ? .nan : min }
}
