import SimKernel

// RAPIDS data yield's minute masks (one bit a minute of each hour; [@RAPIDS]): the minutes
// in which a periodic sensor or an event sensor has a row. Part of ``CoverageCalculator``.
extension CoverageCalculator {
  /// Every minute of an hour.
  static let allMinutes: UInt64 = (1 << 60) - 1

  /// Marks the minutes holding the grid points `origin + k·period` in `[a, b)`, skipping
  /// hours already full. An hour wholly inside `[a, b)` gets the same minutes as every other
  /// (periods divide the hour), marked at once.
  static func markGrid(_ mask: inout [UInt64], origin: SimTime, period divisor: Yield.Divisor, from a: SimTime, to b: SimTime) {
    guard a < b else { return }
    let period = divisor.value
    var g = origin + divisor.ceilQuotient(a - origin) * period
    var whole: UInt64 = 0  // the minutes of a whole hour, worked out when first needed
    while g < b {
      let h = Int(g / Tick.hour)
      let lo = SimTime(h) * Tick.hour
      let hi = lo + Tick.hour
      if mask[h] == allMinutes {
        g += divisor.ceilQuotient(hi - g) * period  // the first grid point of the next hour
        continue
      }
      if lo >= a && hi <= b {
        // This hour and the next ones up to the stretch's last whole hour get the same
        // minutes, in one pass (a phone on all year is one stretch of 8,760 hours).
        if whole == 0 { whole = wholeHourMinutes(origin: origin, period: period) }
        let last = Int(b / Tick.hour)
        mark(&mask, hours: h..<last, minutes: whole)
        g += SimTime(last - h) * Tick.hour  // g was the hour's first grid point; periods divide the hour
        continue
      }
      while g < b && g < hi {
        mask[h] |= 1 << UInt64((g - lo) / Tick.minute)
        g += period
      }
    }
  }

  /// Marks the same `minutes` in each of `hours`, in one pass (a stretch's whole hours).
  static func mark(_ mask: inout [UInt64], hours: Range<Int>, minutes: UInt64) {
    mask.withUnsafeMutableBufferPointer { m in
      for h in hours { m[h] |= minutes }
    }
  }

  /// The minutes of an hour holding a grid point `origin + k·period` (every minute when
  /// the period is at most a minute).
  static func wholeHourMinutes(origin: SimTime, period: SimTime) -> UInt64 {
    if period <= Tick.minute { return allMinutes }
    var minutes: UInt64 = 0
    var t = (origin % period + period) % period
    while t < Tick.hour {
      minutes |= 1 << UInt64(t / Tick.minute)
      t += period
    }
    return minutes
  }

  /// Marks the minutes holding a sample of a sensor whose period is at most a minute:
  /// between its first and last sample in a run stretch, every minute has one.
  static func markRuns(_ mask: inout [UInt64], runs: Intervals, period: SimTime, end: SimTime) {
    let divisor = Yield.Divisor(period)
    for r in runs.spans where r.start < end {
      let b = min(r.end, end)
      guard r.start < b else { continue }
      let last = r.start + (divisor.ceilQuotient(b - r.start) - 1) * period  // the last sample
      let firstHour = Int(r.start / Tick.hour)
      let lastHour = Int(last / Tick.hour)
      let m0 = Int((r.start - SimTime(firstHour) * Tick.hour) / Tick.minute)
      let m1 = Int((last - SimTime(lastHour) * Tick.hour) / Tick.minute)
      if firstHour == lastHour {
        mask[firstHour] |= bits(m0, m1)
        continue
      }
      // The first hour from the stretch's start, the hours between whole, the last to its
      // last sample (an app that runs all year is one stretch of 8,760 hours).
      mask[firstHour] |= bits(m0, 59)
      mark(&mask, hours: (firstHour + 1)..<lastHour, minutes: allMinutes)
      mask[lastHour] |= bits(0, m1)
    }
  }

  static func bits(_ m0: Int, _ m1: Int) -> UInt64 {
    guard m1 >= m0 else { return 0 }
    let width = m1 - m0 + 1
    let ones: UInt64 = width >= 64 ? ~0 : (1 << UInt64(width)) - 1
    return ones << UInt64(m0)
  }

  /// Battery events in `[lo, hi)`: each whole percent the level passes (the level is linear
  /// between trace points); collected when the app ran at that moment.
  /// The hours must come in order: `cursor` carries the search forward.
  static func batteryEvents(
    _ trace: [(SimTime, Double)], runs: Intervals, lo: SimTime, hi: SimTime, lastSync: SimTime, cursor: inout Int,
    _ minutes: inout UInt64
  ) -> (Int, Int, Int) {
    var expected = 0
    var collected = 0
    var received = 0
    while cursor + 1 < trace.count && trace[cursor + 1].0 <= lo { cursor += 1 }
    var k = cursor
    while k + 1 < trace.count && trace[k].0 < hi {
      let (t0, l0) = trace[k]
      let (t1, l1) = trace[k + 1]
      k += 1
      guard t1 > lo, t0 < hi, l1 != l0 else { continue }
      let lower = min(l0, l1)
      let upper = max(l0, l1)
      var level = lower.rounded(.up)
      if level == lower { level += 1 }
      while level <= upper {
        let t = t0 + SimTime(Double(t1 - t0) * (level - l0) / (l1 - l0))
        if t >= lo && t < hi {
          expected += 1
          if runs.contains(t) {
            collected += 1
            minutes |= 1 << UInt64((t - lo) / Tick.minute)
            if t < lastSync { received += 1 }
          }
        }
        level += 1
      }
    }
    return (expected, collected, received)
  }
}
