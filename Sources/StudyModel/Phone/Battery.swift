import SimKernel

/// The battery: a level in percent that changes linearly between the events that change its
/// rate (waking, sleeping, plugging in, the app starting or stopping).
public struct Battery: Sendable {
  /// The level at ``updated``.
  public private(set) var level: Double
  /// When the level was last brought up to date.
  public private(set) var updated: SimTime = 0
  /// The current rate, percent per hour (negative: draining).
  public private(set) var ratePerHour: Double = 0

  /// A battery at `level` percent at time 0.
  public init(level: Double) { self.level = min(max(level, 0), 100) }

  /// Brings the level up to `t` at the current rate.
  public mutating func update(to t: SimTime) {
    guard t > updated else { return }
    level = min(max(level + ratePerHour * Double(t - updated) / Double(Tick.hour), 0), 100)
    updated = t
  }

  /// Changes the rate from `t` on.
  public mutating func setRate(_ perHour: Double, at t: SimTime) {
    update(to: t)
    ratePerHour = perHour
  }

  /// When the level reaches `threshold` at the current rate (nil: never).
  public func time(reaching threshold: Double) -> SimTime? {
    let gap = threshold - level
    guard ratePerHour != 0, gap.sign == ratePerHour.sign || gap == 0 else { return nil }
    if gap == 0 { return nil }
    return updated + SimTime((gap / ratePerHour * Double(Tick.hour)).rounded(.up))
  }
}
