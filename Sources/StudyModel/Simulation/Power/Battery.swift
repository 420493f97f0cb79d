import SimKernel

/// The battery: a level in percent that changes linearly between the events that change its
/// rate (waking, sleeping, plugging in, the app starting or stopping).
///
/// The rate is kept per tick, so that bringing the level up to date multiplies and never
/// divides (the rate changes at every start and stop of the app, several times an hour).
public struct Battery: Sendable {
  /// The level at ``updated``.
  public private(set) var level: Double
  /// When the level was last brought up to date.
  public private(set) var updated: SimTime = 0
  /// The current rate, percent per tick (negative: draining).
  public private(set) var ratePerTick: Double = 0

  /// A battery at `level` percent at time 0.
  public init(level: Double) { self.level = min(max(level, 0), 100) }

  /// A rate in percent per hour as percent per tick.
  public static func perTick(_ perHour: Double) -> Double { perHour / Double(Tick.hour) }

  /// Brings the level up to `t` at the current rate.
  @inline(__always)
  public mutating func update(to t: SimTime) {
    guard t > updated else { return }
    level = min(max(level + ratePerTick * Double(t - updated), 0), 100)
    updated = t
  }

  /// Changes the rate (percent per tick) from `t` on.
  public mutating func setRate(perTick rate: Double, at t: SimTime) {
    update(to: t)
    ratePerTick = rate
  }

  /// When the level reaches `threshold` at the current rate, if that is no later than
  /// `limit` (nil: later, or never). Whether it is by `limit` is decided by a multiplication;
  /// the moment itself, a division, is worked out only when it is.
  @inline(__always)
  public func time(reaching threshold: Double, by limit: SimTime = .max) -> SimTime? {
    let gap = threshold - level
    guard ratePerTick != 0, gap != 0, gap.sign == ratePerTick.sign, limit > updated else { return nil }
    guard abs(gap) <= abs(ratePerTick) * Double(limit - updated) else { return nil }
    return updated + SimTime((gap / ratePerTick).rounded(.up))
  }
}
