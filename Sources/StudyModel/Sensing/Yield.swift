import SimKernel

/// Sensor yields counted arithmetically over the stretches in which the app runs: a periodic
/// sensor restarted at `s` samples at s, s + P, s + 2P, … while the app runs, so its count in
/// any window is a difference of two ceilings, never one event per sample. `SensingTests` checks every function against a per-sample count.
public enum Yield {
  /// The number of grid points `origin + k·period` (k ≥ 0) in `[lo, hi)`.
  @inlinable @inline(__always)
  static func gridCount(origin: SimTime, period: Divisor, from lo: SimTime, to hi: SimTime) -> Int {
    guard hi > lo, hi > origin else { return 0 }
    // No division where the answer is 0 (a stretch counted from its own start).
    let first = lo <= origin ? 0 : period.ceilQuotient(lo - origin)
    return Int(period.ceilQuotient(hi - origin) - first)
  }

  /// Division by a sensor's period without the division instruction (a 64-bit division is
  /// tens of cycles, and the coverage count divides a few times per run stretch and sensor):
  /// ⌊a / d⌋ is the high half of a·m with m = ⌊(2⁶⁴ − 1) / d⌋ + 1. Exact for 0 ≤ a < 2⁴⁰ (35
  /// years of milliseconds) and 2 ≤ d < 2²⁴ (4.6 hours): a·m / 2⁶⁴ = a/d + a·ε/2⁶⁴ with
  /// 0 ≤ ε < 1, and that excess, below 2⁻²⁴, cannot carry a/d past the next whole number,
  /// which is at least 1/d > 2⁻²⁴ away. Other values are divided with the instruction
  /// (tested against it).
  @usableFromInline
  struct Divisor {
    /// The period d.
    @usableFromInline let value: SimTime
    /// m, or 0 where d is out of the exact range.
    @usableFromInline let magic: UInt64

    @usableFromInline
    init(_ d: SimTime) {
      precondition(d > 0, "a period is positive")
      value = d
      magic = d >= 2 && d < 1 << 24 ? UInt64.max / UInt64(d) + 1 : 0
    }

    /// ⌊a / d⌋ for a ≥ 0.
    @inlinable @inline(__always)
    func quotient(_ a: SimTime) -> SimTime {
      if magic != 0 && a >= 0 && a < 1 << 40 { return SimTime(UInt64(a).multipliedFullWidth(by: magic).high) }
      return a / value
    }

    /// ⌈a / d⌉.
    @inlinable @inline(__always)
    func ceilQuotient(_ a: SimTime) -> SimTime {
      a >= 0 ? quotient(a + value - 1) : -((-a) / value)
    }
  }

  /// Samples of a periodic sensor in `[lo, hi)`: each run stretch restarts the grid at its
  /// start. `runs` are the app's run stretches (closed, in order); `usable`, when given,
  /// restricts samples to the stretches where they succeed (a web API needs the network).
  /// The reference the tests check the coverage's faster counts against.
  static func periodic(
    runs: Intervals, period: SimTime, from lo: SimTime, to hi: SimTime, usable: Intervals? = nil, cursor: inout Int
  ) -> Int {
    let period = Divisor(period)
    var n = 0
    let spans = runs.spans
    while cursor < spans.count && spans[cursor].end <= lo { cursor += 1 }
    var i = cursor
    while i < spans.count && spans[i].start < hi {
      let r = spans[i]
      let a = max(r.start, lo)
      let b = min(r.end, hi)
      if a < b {
        if let usable {
          var k = usable.startIndex(after: a)
          while k < usable.spans.count && usable.spans[k].start < b {
            let u = usable.spans[k]
            n += gridCount(origin: r.start, period: period, from: max(u.start, a), to: min(u.end, b))
            k += 1
          }
        } else {
          n += gridCount(origin: r.start, period: period, from: a, to: b)
        }
      }
      i += 1
    }
    return n
  }

  /// Samples of a coprocessor sensor (the pedometer): recorded by the phone itself on a fixed
  /// grid from the study start whenever the phone is on, and backfilled when the app next
  /// runs (AWARE-iOS §5.3: "the pedometer sensor collected ideal amounts of data").
  public static func coprocessor(on: Intervals, period: SimTime, from lo: SimTime, to hi: SimTime, cursor: inout Int) -> Int {
    let period = Divisor(period)
    var n = 0
    let spans = on.spans
    while cursor < spans.count && spans[cursor].end <= lo { cursor += 1 }
    var i = cursor
    while i < spans.count && spans[i].start < hi {
      n += gridCount(origin: 0, period: period, from: max(spans[i].start, lo), to: min(spans[i].end, hi))
      i += 1
    }
    return n
  }

  /// The total length of the overlap of `a` and `b` inside `[lo, hi)`, without building the
  /// intersection. Windows must come in order: the cursors carry the search forward.
  public static func overlap(
    _ a: Intervals, _ b: Intervals, from lo: SimTime, to hi: SimTime, cursor i: inout Int, otherCursor j: inout Int
  ) -> SimTime {
    let x = a.spans
    let y = b.spans
    while i < x.count && x[i].end <= lo { i += 1 }
    while j < y.count && y[j].end <= lo { j += 1 }
    var p = i
    var q = j
    var total: SimTime = 0
    while p < x.count && q < y.count && x[p].start < hi && y[q].start < hi {
      let s = max(x[p].start, y[q].start, lo)
      let e = min(x[p].end, y[q].end, hi)
      if s < e { total += e - s }
      if x[p].end < y[q].end { p += 1 } else { q += 1 }
    }
    return total
  }

  /// The total length of `spans` inside `[lo, hi)`.
  public static func overlap(_ spans: Intervals, from lo: SimTime, to hi: SimTime) -> SimTime {
    var total: SimTime = 0
    var k = spans.startIndex(after: lo)
    while k < spans.spans.count && spans.spans[k].start < hi {
      total += min(spans.spans[k].end, hi) - max(spans.spans[k].start, lo)
      k += 1
    }
    return total
  }
}

/// RAPIDS phone data yield (Carnegie Mellon, `PHONE_DATA_YIELD`; [@RAPIDS],
/// A): a minute is valid when any sensor logged at least one row in it; an hour is valid
/// when its valid minutes are strictly more than half of it (`MINUTE_RATIO_THRESHOLD` 0.5,
/// compared with `>` as the RAPIDS code does); the features are valid minutes and hours as
/// ratios of the minutes and hours observed.
public struct DataYield: Sendable, Equatable {
  /// Valid minutes.
  public var validMinutes = 0
  /// Minutes observed.
  public var observedMinutes = 0
  /// Valid hours.
  public var validHours = 0
  /// Hours observed.
  public var observedHours = 0

  /// Creates an empty count.
  public init() {}

  /// The share of valid minutes.
  public var minuteRatio: Double { observedMinutes == 0 ? .nan : Double(validMinutes) / Double(observedMinutes) }
  /// The share of valid hours.
  public var hourRatio: Double { observedHours == 0 ? .nan : Double(validHours) / Double(observedHours) }

  /// Adds another count.
  public mutating func add(_ other: DataYield) {
    validMinutes += other.validMinutes
    observedMinutes += other.observedMinutes
    validHours += other.validHours
    observedHours += other.observedHours
  }

  /// The RAPIDS validity test of one hour.
  @inlinable
  public static func isValidHour(validMinutes: Int, minutes: Int = 60) -> Bool {
    2 * validMinutes > min(minutes, 60)  // more than half: validMinutes / minutes > 0.5
  }

  /// Counts one hour `[h, h + 1 h)`: `sampleMinutes` receives each minute (0–59) in which
  /// some sensor logged a row.
  public static func hour(_ minutesWithRows: Set<Int>) -> DataYield {
    var y = DataYield()
    y.observedMinutes = 60
    y.observedHours = 1
    y.validMinutes = minutesWithRows.filter { (0..<60).contains($0) }.count
    y.validHours = isValidHour(validMinutes: y.validMinutes) ? 1 : 0
    return y
  }
}
