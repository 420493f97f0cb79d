/// A time of day: minutes after midnight, in [0, 1440).
public struct ClockTime: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Minutes after midnight.
  public let minutes: Double

  /// Creates a clock time from minutes after midnight (taken modulo one day).
  public init(minutes: Double) {
    let m = minutes.truncatingRemainder(dividingBy: 1440)
    self.minutes = m < 0 ? m + 1440 : m
  }

  /// Parses `HH:MM` (00:00–23:59; `24:00` is accepted as midnight at the end of a day).
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, parts[0].count == 2, parts[1].count == 2,
      parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let h = Int(parts[0]), let m = Int(parts[1]), (0...24).contains(h), (0..<60).contains(m),
      h < 24 || m == 0
    else { return nil }
    self.init(minutes: Double(h * 60 + m))
  }

  public static func < (a: ClockTime, b: ClockTime) -> Bool { a.minutes < b.minutes }

  /// `HH:MM`, seconds dropped.
  public var description: String {
    let whole = Int(minutes)
    let h = whole / 60
    let m = whole % 60
    return (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
  }
}

/// The part of a day in which signals may be sent: from a clock time, for a length.
///
/// A window may cross midnight (a shift worker's 20:00–06:00). Schedules are expressed in
/// minutes after the window's start.
public struct Window: Sendable, Hashable, CustomStringConvertible {
  /// Where the window starts.
  public let start: ClockTime
  /// Its length in minutes, in (0, 1440].
  public let length: Double

  /// A window from `start` to `end`; `end` before `start` crosses midnight.
  ///
  /// - Throws: ``ScheduleError`` when `start == end` (a window of no length).
  public init(start: ClockTime, end: ClockTime) throws(ScheduleError) {
    var length = end.minutes - start.minutes
    if length < 0 { length += 1440 }
    guard length > 0 else {
      throw ScheduleError(.window, "the window \(start)-\(end) has no length")
    }
    self.start = start
    self.length = length
  }

  /// A window starting at `start` with the given length in minutes (0 < length ≤ 1440).
  public init(start: ClockTime, length: Double) throws(ScheduleError) {
    guard length > 0, length <= 1440, length.isFinite else {
      throw ScheduleError(.window, "a window lasts more than 0 and at most 1440 minutes, not \(length)")
    }
    self.start = start
    self.length = length
  }

  /// Parses `HH:MM-HH:MM`; `00:00-24:00` is the whole day.
  public init(parsing text: String) throws(ScheduleError) {
    let parts = text.split(separator: "-")
    guard parts.count == 2, let a = ClockTime(parts[0]), let b = ClockTime(parts[1]) else {
      throw ScheduleError(.window, "expected HH:MM-HH:MM (for example 08:00-20:00), got '\(text)'")
    }
    if a.minutes == 0 && parts[1] == "24:00" {
      try self.init(start: a, length: 1440)
    } else {
      try self.init(start: a, end: b)
    }
  }

  /// The window's end as a clock time.
  public var end: ClockTime { ClockTime(minutes: start.minutes + length) }

  /// Minutes from the window's start to `time` (a time before the start is read as the next
  /// day's, so a window crossing midnight works).
  public func offset(of time: ClockTime) -> Double {
    let d = time.minutes - start.minutes
    return d < 0 ? d + 1440 : d
  }

  public var description: String { "\(start)-\(end)" }
}

/// A block of the window, in minutes after its start: `[start, end)`.
public struct Block: Sendable, Hashable {
  /// The block's start, minutes after the window start.
  public var start: Double
  /// The block's end, minutes after the window start.
  public var end: Double

  /// Creates a block.
  public init(start: Double, end: Double) {
    self.start = start
    self.end = end
  }

  /// The block's length in minutes.
  public var length: Double { end - start }
}
