import SimKernel

/// Android's Doze ([@AndroidDoze], A; the timings are AOSP's `DeviceIdleController`
/// defaults, [@AOSPDeviceIdle], B). A phone left still, unplugged, with its screen off goes
/// inactive; 30 minutes later it looks for motion for another 30, and then dozes: no
/// network, wakelocks ignored, jobs and ordinary alarms deferred. Doze is broken by short
/// maintenance windows in which deferred work runs: the dozing stretches grow from an hour,
/// doubling, to six hours; the windows from 5 minutes, doubling, to 10. Moving the phone,
/// plugging it in or turning its screen on ends it.
///
/// A stretch in which the phone is still, unplugged and not in use is *quiet*
/// (``quietSpans(timeline:charging:foreground:phoneOn:until:)``): the participant asleep or
/// away from the phone, not travelling, the app not in the foreground. What dozes in it is a
/// pure function of its start, so the simulation asks it at a moment
/// (``phase(at:quietSince:)``) and the sensors' count subtracts it afterwards
/// (``dozing(in:)``).
enum Doze {
  /// From the start of a quiet stretch to Doze: `inactive_to` + `idle_after_inactive_to`.
  static let onset = 60 * Tick.minute
  /// The first dozing stretch and the longest (`idle_to`, `max_idle_to`, factor 2).
  static let firstIdle = Tick.hour
  static let maxIdle = 6 * Tick.hour
  /// The first maintenance window and the longest (`idle_pending_to`, `max_idle_pending_to`,
  /// factor 2).
  static let firstWindow = 5 * Tick.minute
  static let maxWindow = 10 * Tick.minute

  /// The dozing stretches of a quiet stretch that began at `q`, in order, handed to `body`
  /// until it returns false: the cycle both ``phase(at:quietSince:)`` and ``dozing(in:)`` walk.
  static func stretches(quietSince q: SimTime, _ body: (_ start: SimTime, _ end: SimTime) -> Bool) {
    var cursor = q + onset
    var idle = firstIdle
    var window = firstWindow
    while body(cursor, cursor + idle) {
      cursor += idle + window
      idle = min(2 * idle, maxIdle)
      window = min(2 * window, maxWindow)
    }
  }

  /// Whether the phone dozes at `t` in a quiet stretch that began at `q`, and until when
  /// that lasts (dozing: the next maintenance window; not dozing: the next dozing stretch).
  static func phase(at t: SimTime, quietSince q: SimTime) -> (dozing: Bool, until: SimTime) {
    var answer = (dozing: false, until: SimTime.max)
    stretches(quietSince: q) { start, end in
      guard t >= end else {
        answer = t < start ? (false, start) : (true, end)
        return false
      }
      return true
    }
    return answer
  }

  /// The dozing stretches of the quiet stretches `quiet`.
  static func dozing(in quiet: Intervals) -> Intervals {
    var out: [(SimTime, SimTime)] = []
    for span in quiet.spans {
      stretches(quietSince: span.start) { start, end in
        guard start < span.end else { return false }
        out.append((start, min(end, span.end)))
        return true
      }
    }
    return Intervals(out)
  }

  /// Whether the phone lies still in an episode: the participant asleep or away from it, and
  /// not travelling.
  static func isStill(_ e: Episode) -> Bool { (e.context == .asleep || !e.phoneAtHand) && !e.context.involvesTravel }

  /// The stretches in which the phone is still (``isStill(_:)``), unplugged, on and not in
  /// use by the app, until `end`.
  static func quietSpans(
    timeline: Timeline, charging: Intervals, foreground: Intervals, phoneOn: Intervals, until end: SimTime
  ) -> Intervals {
    let still = timeline.spans(where: isStill)
    return still.intersection(phoneOn).intersection(charging.complement(from: 0, to: end))
      .intersection(foreground.complement(from: 0, to: end))
  }
}

/// Android's App Standby buckets ([@AndroidDoze], A; the times are AOSP's
/// `AppStandbyController` defaults, [@AOSPStandby], B): an app drops a bucket as time passes
/// since it was last used — working set after 12 hours, frequent after 24, rare after 48,
/// restricted after 8 days (Android 12 and later) — and each bucket limits its alarms and
/// its high-priority pushes (the limits apply on battery).
enum StandbyBucket: Int, Comparable {
  case active, workingSet, frequent, rare, restricted

  /// The bucket of an app last used `idle` ago; restricted after `restrictedAfter` (8 days,
  /// or sooner where the maker puts unused apps to sleep: ``Manufacturer/sleepsAfterDays``).
  init(idle: SimTime, restrictedAfter: SimTime = 8 * Tick.day) {
    self =
      idle >= restrictedAfter
      ? .restricted
      : idle < 12 * Tick.hour ? .active : idle < 24 * Tick.hour ? .workingSet : idle < 48 * Tick.hour ? .frequent : .rare
  }

  /// The shortest gap between two of the app's alarms: none up to the rare bucket (10, 2 and
  /// 1 an hour: an hourly alarm is never held back), one a day when restricted.
  var alarmGap: SimTime { self == .restricted ? Tick.day : 0 }

  /// High-priority FCM messages a day (beyond them, normal priority): no limit while active
  /// or in the working set, 10 when frequent, 5 when rare or restricted.
  var highPriorityPushesPerDay: Int { self < .frequent ? .max : self == .frequent ? 10 : 5 }

  static func < (a: StandbyBucket, b: StandbyBucket) -> Bool { a.rawValue < b.rawValue }
}
