import Schedules
import SimKernel

/// One schedule of a questionnaire: an algorithm, or events of the participant's day, in a
/// window, on some days.
public struct SchedulePart: Sendable, Equatable {
  /// What decides the prompts' times.
  public enum Rule: Sendable, Equatable {
    /// A signal-contingent algorithm and its parameters.
    case signals(ScheduleChoice)
    /// Events of the participant's day (event-contingent prompts).
    case events(EventTrigger)
  }

  /// What decides the prompts' times.
  public var rule: Rule
  /// The algorithm and its parameters (nil for event-contingent prompts).
  public var choice: ScheduleChoice? {
    if case .signals(let c) = rule { return c }
    return nil
  }
  /// The trigger of event-contingent prompts (nil for an algorithm).
  public var trigger: EventTrigger? {
    if case .events(let e) = rule { return e }
    return nil
  }
  /// Whether its prompts are drawn day by day in its window: not the one prompt after joining,
  /// nor follow-ups created while the study runs.
  public var isDrawnDaily: Bool {
    guard let t = trigger else { return true }
    return t.event != .joined && !t.isFollowUp
  }
  /// The window in which it signals.
  public var window: WindowPlan
  /// Signal every this many days (ESMira `dailyRepeatRate`; default 1).
  public var everyDays: Int
  /// The weekdays it signals on (0 Monday … 6 Sunday; nil: every day).
  public var weekdays: Set<Int>?
  /// The study days it signals on (AWARE `start_date` and `end_date`; nil: all).
  public var days: ClosedRange<Int>?
  /// The study days it signals on, listed (ESMira's chain of days, which `everyDays`,
  /// `weekdays` and `days` cannot say; nil: the rule of those three).
  public var studyDays: Set<Int>?
  /// This schedule's own expiry, reminders and questionnaire (an AWARE schedule's or an
  /// ESMira questionnaire's; nil: the protocol's).
  public var expiry: ExpiryPolicy?
  public var reminders: Reminders?
  public var survey: SurveyPlan?

  /// Creates a part of a signal-contingent algorithm.
  public init(
    _ choice: ScheduleChoice, window: WindowPlan, everyDays: Int = 1, weekdays: Set<Int>? = nil, days: ClosedRange<Int>? = nil
  ) {
    self.init(.signals(choice), window: window, everyDays: everyDays, weekdays: weekdays, days: days)
  }

  /// Creates a part.
  public init(
    _ rule: Rule, window: WindowPlan, everyDays: Int = 1, weekdays: Set<Int>? = nil, days: ClosedRange<Int>? = nil
  ) {
    self.rule = rule
    self.window = window
    self.everyDays = everyDays
    self.weekdays = weekdays
    self.days = days
  }

  /// Whether it signals on study day `day` whose weekday is `weekday`.
  public func isActive(day: Int, weekday: Int) -> Bool {
    if let studyDays { return studyDays.contains(day) }
    return Self.runs(onDay: day, weekday: weekday, everyDays: everyDays, weekdays: weekdays, days: days)
  }

  /// The rule of the days a schedule runs on: inside `days` (nil: all), every `everyDays`
  /// days counted from day 0, on `weekdays` (nil: all).
  public static func runs(
    onDay day: Int, weekday: Int, everyDays: Int, weekdays: Set<Int>?, days: ClosedRange<Int>? = nil
  ) -> Bool {
    (days?.contains(day) ?? true) && day % max(everyDays, 1) == 0 && (weekdays?.contains(weekday) ?? true)
  }
}

/// Weekdays as esmsim numbers them: 0 Monday … 6 Sunday.
public enum Weekdays {
  /// Their short names, Monday first.
  public static let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
  /// Monday to Friday.
  public static let workdays: Set<Int> = [0, 1, 2, 3, 4]

  /// The weekday a name gives by its first three letters, in any case (`Mon`, `monday`); nil
  /// for a name shorter than three letters or of no weekday.
  public static func index(of name: String) -> Int? {
    name.count >= 3 ? names.firstIndex(of: String(name.lowercased().prefix(3))) : nil
  }

  /// The weekdays of a bitmask counted from Sunday (Sunday = 1, Monday = 2, … Saturday = 64),
  /// as PACO and ESMira store them.
  public static func fromSundayFirstMask(_ mask: Int) -> Set<Int> {
    Set((0..<7).filter { mask & (1 << (($0 + 1) % 7)) != 0 })
  }

  /// The weekday of the `k`-th column of a week listed from Sunday (Beiwe's timings).
  public static func fromSundayFirst(_ k: Int) -> Int { (k + 6) % 7 }
}

/// A scheduling algorithm by name with its parameters; built into a scheduler for each
/// participant's window.
public struct ScheduleChoice: Sendable, Equatable {
  /// The algorithm.
  public var algorithm: AnyScheduler.Name
  /// Its parameters.
  public var parameters: ScheduleParameters

  /// Creates a choice.
  public init(_ algorithm: AnyScheduler.Name, _ parameters: ScheduleParameters = ScheduleParameters()) {
    self.algorithm = algorithm
    self.parameters = parameters
  }
}

/// Where a participant's signalling window comes from.
public enum WindowPlan: Sendable, Equatable {
  /// The study's window, possibly different at weekends.
  case fixed(weekday: Window, weekend: Window)
  /// The participant's own hours, chosen once: from the usual weekday wake time plus
  /// `afterWake` to the usual bedtime minus `beforeBed`, to the nearest quarter hour (as
  /// Mappiness lets participants set them).
  case participant(afterWake: Double, beforeBed: Double)

  /// The fixed windows (weekday and weekend), none for the participant's own hours.
  public var fixedWindows: [Window] {
    switch self {
    case .fixed(let weekday, let weekend): weekday == weekend ? [weekday] : [weekday, weekend]
    case .participant: []
    }
  }
}


/// Event-contingent prompts: a prompt a set time after an event of the participant's day
/// (leaving or entering a context, unlocking the phone), as movisensXS's and AWARE's context
/// triggers do ([@movisensXS]), in the schedule's window, no sooner than `minGap` after the schedule's
/// previous prompt and at most `maxPerDay` a day. Events are not prompted on outside the
/// window, during the gap, or after the day's last prompt. Joining the study (``Event/joined``)
/// is one event a participant, prompted on after its delay whatever the window, on a day the
/// schedule is active (ESMira's event triggers, [@ESMiraNotes]); a follow-up (a questionnaire
/// finished, a notification posted) is created while the study runs (``FollowUps``).
public struct EventTrigger: Sendable, Equatable {
  /// The events that can trigger a prompt.
  public enum Event: Sendable, Equatable {
    /// The participant leaves a context (for example home).
    case leaving(Context)
    /// The participant enters a context.
    case entering(Context)
    /// The participant unlocks the phone (a phone check).
    case phoneUnlock
    /// A phone call ends (``PhoneCalls``).
    case callEnd
    /// The participant joins the study: at their first waking moment of day 0 (assumption,
    /// D: the app installed and the study joined as the day begins).
    case joined
    /// The participant finishes (submits) a questionnaire of one of these schedules (their
    /// indices in the protocol's schedules), prompted or volunteered: a follow-up created
    /// while the study runs (ESMira's `questionnaire` event, `EventTrigger.triggerCheck`).
    case finished(Set<Int>)
    /// A prompt of one of these schedules reaches the phone (its notification is posted):
    /// ESMira's `invitation` and `notification` events, which its Android app logs when it
    /// posts a notification.
    case notified(Set<Int>)
  }

  /// Whether the trigger's prompts are follow-ups created while the study runs (after a
  /// questionnaire finished or a notification posted), not drawn when it starts.
  public var isFollowUp: Bool {
    switch event {
    case .finished, .notified: true
    default: false
    }
  }

  /// The schedules whose events cue a follow-up (empty for other triggers).
  public var followUpSources: Set<Int> {
    switch event {
    case .finished(let s), .notified(let s): s
    default: []
    }
  }

  /// The event.
  public var event: Event
  /// The time from the event to the prompt (the least, with ``delaySpread``).
  public var delay: SimTime
  /// A random part of the delay: uniform in 0..<delaySpread, drawn per event (ESMira's
  /// `randomDelay`, between `delayMinimumSec` and `delaySec`); 0: none.
  public var delaySpread: SimTime = 0
  /// The chance that an eligible event triggers a prompt (movisensXS' sampling of events).
  public var probability: Double
  /// The least time since the schedule's previous prompt.
  public var minGap: SimTime
  /// The most prompts a day.
  public var maxPerDay: Int
  /// The only phones on which the event fires (nil: every phone): ESMira's Android app alone
  /// logs a notification as it is posted.
  public var onlyOn: OperatingSystem?

  /// Creates a trigger.
  public init(
    event: Event, delay: SimTime = 0, delaySpread: SimTime = 0, probability: Double = 1, minGap: SimTime = 0, maxPerDay: Int = 10,
    onlyOn: OperatingSystem? = nil
  ) {
    self.onlyOn = onlyOn
    self.event = event
    self.delay = delay
    self.delaySpread = delaySpread
    self.probability = probability
    self.minGap = minGap
    self.maxPerDay = maxPerDay
  }
}
