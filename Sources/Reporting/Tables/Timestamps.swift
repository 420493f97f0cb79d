import Presentation
import Scenarios
import SimKernel
import StudyModel

/// Simulated times as text: ISO local date-times from the study's start date (the
/// participant's wall clock), and Unix milliseconds for the AWARE and Beiwe formats (the
/// instant, from the participant's time zone).
public struct Timestamps: Sendable {
  /// Milliseconds since the Unix epoch at the study's first midnight in UTC.
  public let origin: Int64
  let originDays: Int
  /// The participant's time zone.
  public let zone: ZoneOffsets

  /// Times of a study starting on `date`, for a participant in `zone`.
  public init(start date: CalendarDate, zone: ZoneOffsets = .utc) {
    origin = date.epochMilliseconds
    originDays = date.daysSinceEpoch
    self.zone = zone
  }

  /// The same study's times for a participant in `zone`.
  public func `in`(_ zone: ZoneOffsets) -> Timestamps {
    Timestamps(origin: origin, originDays: originDays, zone: zone)
  }

  /// The times of a participant who joined `k` days after the study's first date: their
  /// wall clock counts from their own first midnight (``StudyPlan/joining(on:)``).
  public func joining(on k: Int) -> Timestamps {
    k == 0 ? self : Timestamps(origin: origin + Int64(k) * Tick.day, originDays: originDays + k, zone: zone.shifted(byDays: k))
  }

  private init(origin: Int64, originDays: Int, zone: ZoneOffsets) {
    self.origin = origin
    self.originDays = originDays
    self.zone = zone
  }

  /// Unix milliseconds of a wall-clock time.
  public func unix(_ t: SimTime) -> Int64 { origin + (zone.isUTC ? t : zone.instant(ofWall: t)) }

  /// The zone's offset from UTC in whole hours at wall-clock time `t` (AWARE's `timezone`
  /// column: the iOS client's seconds from GMT / 3600, an integer division).
  public func offsetHours(_ t: SimTime) -> Int {
    zone.isUTC ? 0 : Int(zone.offset(atInstant: zone.instant(ofWall: t)) / Tick.hour)
  }

  /// `YYYY-MM-DDTHH:MM:SS.mmm`, or "" for a time that did not happen (negative).
  public func iso(_ t: SimTime) -> String {
    guard t >= 0 else { return "" }
    let day = Int(t / Tick.day)
    var ms = Int(t % Tick.day)
    let (y, m, d) = Self.civil(originDays + day)
    let h = ms / 3_600_000
    ms %= 3_600_000
    let mi = ms / 60_000
    ms %= 60_000
    let s = ms / 1000
    ms %= 1000
    func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
    func three(_ x: Int) -> String { x < 10 ? "00\(x)" : (x < 100 ? "0\(x)" : "\(x)") }
    return "\(y)-\(two(m))-\(two(d))T\(two(h)):\(two(mi)):\(two(s)).\(three(ms))"
  }

  /// `YYYY-MM-DD`: the date of study day `day` (from 0) on this clock.
  public func date(ofDay day: Int) -> String {
    let (y, m, d) = Self.civil(originDays + day)
    return "\(y)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
  }

  /// The calendar date of a day count since 1970-01-01 (Howard Hinnant's civil-from-days).
  static func civil(_ days: Int) -> (Int, Int, Int) { CalendarDate.civil(days) }
}
