/// Simulated time: integer milliseconds from the start of a study.
///
/// The whole simulator works in `Int64` milliseconds, never `Double` seconds, so that ties are
/// exact and a run never depends on rounding. `SimTime` is a plain alias to keep the queue's
/// events small; the constants in ``Tick`` give the units.
public typealias SimTime = Int64

/// Units of ``SimTime``.
public enum Tick {
  /// One millisecond, the resolution of the clock.
  public static let millisecond: SimTime = 1
  /// One second.
  public static let second: SimTime = 1_000
  /// One minute.
  public static let minute: SimTime = 60_000
  /// One hour.
  public static let hour: SimTime = 3_600_000
  /// One day (24 hours; the simulator has no daylight-saving days).
  public static let day: SimTime = 86_400_000

  /// Converts a duration in (fractional) minutes to ticks, rounding to the nearest millisecond.
  @inlinable @inline(__always)
  public static func minutes(_ m: Double) -> SimTime { nearest(m * 60_000) }

  /// Converts a duration in (fractional) seconds to ticks, rounding to the nearest millisecond.
  @inlinable @inline(__always)
  public static func seconds(_ s: Double) -> SimTime { nearest(s * 1_000) }

  /// A duration in ticks as (fractional) minutes: for the model's arithmetic in minutes (the
  /// daily life, the clock windows), converted where it is used.
  @inlinable @inline(__always)
  public static func inMinutes(_ t: SimTime) -> Double { Double(t) / Double(minute) }

  /// A duration in ticks as (fractional) seconds.
  @inlinable @inline(__always)
  public static func inSeconds(_ t: SimTime) -> Double { Double(t) / Double(second) }

  /// Rounds a number of milliseconds to the nearest tick, halves away from zero.
  ///
  /// Written with truncation rather than `rounded()`: on the x86-64 baseline `rounded()` is a
  /// call into libm, and this runs once per drawn delay.
  @inlinable @inline(__always)
  public static func nearest(_ ms: Double) -> SimTime {
    ms >= 0 ? SimTime(ms + 0.5) : -SimTime(-ms + 0.5)
  }
}
