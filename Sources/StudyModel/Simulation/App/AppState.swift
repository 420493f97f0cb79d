import SimKernel

/// The study app on the phone: whether and how it runs, and the stretches it ran.
///
/// ```
///            start (alarm, boot, sticky restart, a wake that restores the anchor)
///  notRunning ─────────────────────────────────────────────► anchored ◄─┐
///  suspended  ── wake without the anchor (30 s) ──► bounded ──┘ runs out │ leaves
///      ▲   ▲                                                             │
///      │   └──── suspend / kill / force-quit timer (``AppTimer``) ───────┤
///      └──────── the participant opens it ──────────► foreground ────────┘
///  off: the phone is off (any mode → off; back as notRunning)
/// ```
/// Which timers run and what wakes a stopped app are the operating system's rules
/// (``IOSRules``, ``AndroidRules``).
struct AppState {
  /// How the app is (not) running.
  enum Mode {
    /// The phone is off.
    case off
    /// Terminated (killed, force-quit, or not started since the phone came on).
    case notRunning
    /// Suspended by the operating system: runs no code until woken.
    case suspended
    /// Running in the background on its keep-alive anchor (continuous location).
    case anchored
    /// Running in the background for a bounded time after a wake (``DeviceProfile/wakeRunSeconds``).
    case bounded
    /// In the foreground: the participant is using it.
    case foreground
  }

  private(set) var mode = Mode.anchored
  /// Every change of mode with its time, when ``trace`` is on (a participant's week).
  var trace = false
  private(set) var modes: [(SimTime, Mode)] = []

  /// Changes the mode at `t`.
  mutating func set(_ m: Mode, at t: SimTime) {
    mode = m
    if trace { modes.append((t, m)) }
  }
  /// The participant force-quit the app: nothing but the participant relaunches it.
  var forceQuit = false
  /// When the current session in the foreground ends (earlier: no session).
  var sessionUntil: SimTime = -1
  /// When the app was last killed or force-quit (a background push iOS held then is discarded).
  var killedAt: SimTime = -1
  /// The last significant location change that woke the app.
  var lastLocationWake: SimTime = -Tick.hour
  /// Android: the app is in the stopped state (its maker's battery manager force-stopped it):
  /// its alarms are cancelled and no push reaches it until the participant opens it.
  var forceStopped = false
  /// The participant removed the app, or (`expired`) its TestFlight build expired.
  var removed = false
  var expired = false
  /// Android: the last periodic alarm let through (App Standby's limit), and the day and
  /// count of high-priority pushes spent (its quota).
  var lastAlarm: SimTime = -Tick.day
  var pushDay = -1
  var highPushes = 0
  /// Waking time the app was left unattended (neither opened by the participant nor woken in
  /// the background) before ``unattendedSince``, the start of the current unattended waking
  /// stretch (nil: asleep or in the foreground): Low Power Mode suspends it only after
  /// ``DeviceProfile/suspendAfter`` of it.
  var unattended: SimTime = 0
  var unattendedSince: SimTime?
  /// The waking time the app has been left unattended at `t`.
  func unattendedTime(at t: SimTime) -> SimTime { unattended + (unattendedSince.map { t - $0 } ?? 0) }
  /// The participant left the app, or something woke it, at `t`: the unattended clock starts
  /// again from 0 (running while the participant is awake).
  mutating func attended(at t: SimTime, awake: Bool) {
    unattended = 0
    unattendedSince = awake ? t : nil
  }
  /// The participant goes to bed (`awake` false) or wakes at `t`: the unattended clock pauses
  /// or runs on (it runs only while the app is out of the foreground).
  mutating func participant(awake: Bool, at t: SimTime) {
    if let s = unattendedSince { unattended += t - s }
    unattendedSince = awake && mode != .foreground ? t : nil
  }
  /// Stretches in which the app ran, and in which it was in the foreground.
  var runs = Intervals()
  var foreground = Intervals()
  /// Runs of a background wake without the anchor (a subset of ``runs``), and those of them
  /// an Android exemption let run while the phone dozed (an exact alarm, a high-priority push).
  var wakeRuns = Intervals()
  var exemptRuns = Intervals()

  /// Whether the app runs code now.
  var isRunning: Bool { mode == .anchored || mode == .bounded || mode == .foreground }
  /// Whether the app is stopped by the operating system (something may wake it).
  var isStopped: Bool { mode == .suspended || mode == .notRunning }
  /// Whether the app runs in the background (a timer may stop it).
  var isInBackground: Bool { mode == .anchored || mode == .bounded }

  /// Closes the stretches still open at `t`, in place.
  mutating func close(at t: SimTime) {
    runs.end(at: t)
    foreground.end(at: t)
    wakeRuns.end(at: t)
    exemptRuns.end(at: t)
  }
}

/// What the app's lifecycle timer means when it fires.
enum AppTimer: Int32 {
  case suspend, kill, forceQuit, runEnds, androidRestart, makerKill
}

/// What woke the app.
enum WakeSource: Int32 {
  case silentPush, locationChange, backgroundRefresh, androidAlarm, androidPush
}

/// The rates of the competing clocks that stop an app running on its anchor in the
/// background while the participant is awake, per hour (0: that clock does not run).
struct StopRates {
  var suspend = 0.0
  /// Unattended waking time before the suspension clock runs (``DeviceProfile/suspendAfter``).
  var suspendAfter: SimTime = 0
  var kill = 0.0
  var forceQuit = 0.0
  /// The phone maker's battery manager (Android; around the clock, not only while awake).
  var makerKill = 0.0
}
