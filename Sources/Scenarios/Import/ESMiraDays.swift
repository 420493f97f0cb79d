import StudyModel

/// The study days an ESMira schedule signals on, as the app's scheduler chains them
/// (ESMira-apps v2.22.2 `Scheduler.kt`, `Schedule.kt`; [@ESMiraNotes]). The participant joins
/// on study day 0. The first candidate is day k = (`skipFirstInLoop` ? `dailyRepeatRate` : 0)
/// + (`startDayOne` ? 1 : 0) (`getInitialDelayDays()`); each candidate is moved forward by
/// `considerDayOptions`: to the questionnaire's first active day
/// (`durationStartingAfterDays`), to the `dayOfMonth` (this month's if not yet past, else the
/// next month's; a day past a month's end rolls into the next month), then to the next of its
/// `weekdays`; past the questionnaire's last active day (`durationPeriodDays`: the join day
/// through that day, inclusive; one fewer under `legacyScheduling`) the chain stops. The next
/// candidate is the day signalled + `dailyRepeatRate`: weekdays and days of the month do not
/// reset the repeat count (every other day on Mon/Wed/Fri is Wed, Fri, Mon, Wed, …).
///
/// Not simulated, and said by the reader: the app tests the day of the month and the weekday
/// on UTC fields (a signal time on another UTC date than the local one moves by a day), a
/// daylight-saving change moves the next one or two signals by an hour, and legacy scheduling
/// counts from the moment of joining (esmsim's participants join at the start of day 0).
struct ESMiraDays: Equatable {
  var repeatRate = 1
  var skipFirstInLoop = false
  /// The app's default since v2.21.6 (June 2026): the first signal the day after joining.
  var startDayOne = true
  /// 0 Monday … 6 Sunday; nil: every day.
  var weekdays: Set<Int>?
  /// 1–31; 0: none.
  var dayOfMonth = 0
  var startingAfterDays = 0
  /// 0: no end.
  var periodDays = 0
  var legacy = false

  /// A questionnaire's last active day: the join day 0 through `durationPeriodDays`, one fewer
  /// under `legacyScheduling` (nil: 0, no end).
  static func lastActiveDay(periodDays: Int, legacy: Bool) -> Int? {
    periodDays == 0 ? nil : (legacy ? periodDays - 1 : periodDays)
  }

  /// The days in 0..<count, from a study that starts (day 0) on `start`.
  func days(start: CalendarDate, count: Int) -> [Int] {
    let epoch = start.daysSinceEpoch
    let last = Self.lastActiveDay(periodDays: periodDays, legacy: legacy).map { min(count - 1, $0) } ?? count - 1
    func consider(_ candidate: Int) -> Int? {
      var d = max(candidate, startingAfterDays)
      if dayOfMonth != 0, let date = CalendarDate(daysSinceEpoch: epoch + d) {
        var (y, m) = (date.year, date.month)
        if date.day > dayOfMonth { (y, m) = m == 12 ? (y + 1, 1) : (y, m + 1) }
        guard let first = CalendarDate(year: y, month: m, day: 1) else { return nil }
        d = first.daysSinceEpoch + dayOfMonth - 1 - epoch
      }
      if let weekdays {
        guard !weekdays.isEmpty else { return nil }
        while !weekdays.contains((start.weekday + d) % 7) { d += 1 }
      }
      return d <= last ? d : nil
    }
    var out: [Int] = []
    var candidate = (skipFirstInLoop ? repeatRate : 0) + (startDayOne ? 1 : 0)
    while candidate <= last, let d = consider(candidate) {
      out.append(d)
      candidate = d + max(repeatRate, 1)
    }
    return out
  }
}
