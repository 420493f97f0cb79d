import SimKernel

/// Fixed clock times with an optional ± jitter in whole minutes, redrawn every day: AWARE
/// iOS's `hours` and `randomize` (awareframework/com.awareframework.ios.sensor.esm
/// `ESMScheduleManager.swift`: each hour fires at h:00 + `Int.random(in: -R...R)` minutes for
/// every pre-scheduled day; [@AWAREiOSESM]).
///
/// With no jitter this is the interval-contingent design (Beiwe weekly timings,
/// ExperienceSampler's diary mode). Times are sorted after jittering, since two close
/// times may swap. Choice: every time ± jitter must lie inside the window, so that the
/// measures, which are normalised to the window, see every signal.
public struct FixedTimes: SignalScheduler, Hashable {
  /// The clock times.
  public var times: [ClockTime]
  /// The jitter R: each time moves by a whole number of minutes in −R…R, drawn per day.
  public var jitter: Int

  /// Creates the scheduler.
  public init(times: [ClockTime], jitter: Int = 0) {
    self.times = times
    self.jitter = jitter
  }

  public func validate(for window: Window) throws(ScheduleError) {
    guard !times.isEmpty else { throw ScheduleError(.times, "give at least one clock time") }
    guard jitter >= 0 else { throw ScheduleError(.jitter, "the jitter must be 0 or more minutes, not \(jitter)") }
    for t in times {
      let o = window.offset(of: t)
      guard o - Double(jitter) >= 0, o + Double(jitter) < window.length else {
        throw ScheduleError(
          .times, "\(t) ± \(jitter) minutes does not lie inside the window \(window)")
      }
    }
  }

  public func schedule(in window: Window, into out: inout [Double], using stream: inout RandomStream) {
    let first = out.count
    for t in times {
      let shift = jitter > 0 ? stream.integer(in: -jitter...jitter) : 0
      out.append(window.offset(of: t) + Double(shift))
    }
    out.sortTail(from: first)
  }
}
