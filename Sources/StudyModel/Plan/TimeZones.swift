import SimKernel

/// A time zone's offsets from UTC over the study, with its daylight-saving changes: what a
/// phone's clock and a server's clock read.
///
/// esmsim's clock is each participant's wall clock: a study time is milliseconds since
/// midnight of the study's first date on the participant's clock (their days, sleep and
/// local notifications follow it; on the night of a change the skipped or repeated hour is
/// not simulated as elapsed time). An *instant* is milliseconds since that midnight in UTC.
/// A zone converts between the two; the scenario reader fills the changes from the IANA
/// database (Foundation's `TimeZone`).
public struct ZoneOffsets: Sendable, Equatable {
  /// The IANA name (`Europe/London`).
  public let name: String
  /// The offset (ms, wall minus UTC) before the first change, and each change: from the
  /// instant `changes[k]` on, `offsets[k + 1]` holds.
  public let offsets: [SimTime]
  public let changes: [SimTime]
  /// The distinct offsets, largest first (the candidates for a wall-clock time's instant).
  private let candidates: [SimTime]
  /// Whether the zone never changes and is UTC (no conversion needed).
  public let isUTC: Bool

  /// A zone with the given offsets and changes (`offsets.count == changes.count + 1`).
  public init(name: String, offsets: [SimTime], changes: [SimTime]) {
    precondition(offsets.count == changes.count + 1, "one more offset than changes")
    self.name = name
    self.offsets = offsets
    self.changes = changes
    candidates = Set(offsets).sorted(by: >)
    isUTC = changes.isEmpty && offsets == [0]
  }

  /// UTC, without changes.
  public static let utc = ZoneOffsets(name: "UTC", offsets: [0], changes: [])

  /// The zone on the clock of a participant who joins `k` days after the study's first date
  /// (their times count from their own first midnight).
  public func shifted(byDays k: Int) -> ZoneOffsets {
    k == 0 ? self : ZoneOffsets(name: name, offsets: offsets, changes: changes.map { $0 - SimTime(k) * Tick.day })
  }

  /// The offset at instant `u`.
  public func offset(atInstant u: SimTime) -> SimTime {
    var k = 0
    while k < changes.count && changes[k] <= u { k += 1 }
    return offsets[k]
  }

  /// The wall-clock time of instant `u`.
  public func wall(ofInstant u: SimTime) -> SimTime { u + offset(atInstant: u) }

  /// The instant a wall-clock time `w` names: the earlier one when the hour repeats (autumn);
  /// in the hour skipped in spring, the instant the clock would show had it not changed
  /// (`w` under the offset before the change), as calendar alarms fire an hour late then.
  public func instant(ofWall w: SimTime) -> SimTime {
    for o in candidates where offset(atInstant: w - o) == o { return w - o }
    // A skipped wall time: the offset before the change that skipped it.
    var k = 0
    while k < changes.count && changes[k] + offsets[k] <= w { k += 1 }
    return w - offsets[max(k - 1, 0)]
  }
}
