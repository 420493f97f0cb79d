import SimKernel

/// One participant's own phone (``PhonePopulation``), drawn once from a stream of its own, so
/// that a population that differs only in its phones has the same people, days and answers
/// (common random numbers). The default population gives every phone "Always", Background App
/// Refresh on, no habits, the stock maker and exact alarms: as its device condition has it.
public struct PhoneTraits: Sendable {
  /// The location permission given to the app.
  public let location: LocationPermission
  /// Background App Refresh is on for the app (iOS).
  public let backgroundRefresh: Bool
  /// Low Power Mode is kept on throughout (iOS).
  public let lowPowerHabit: Bool
  /// The participant's own force-quits of the app per day, beyond the device condition's.
  public let forceQuitPerDay: Double
  /// When the participant removes the app (`.max`: never).
  public let removesAppAt: SimTime
  /// Index into the population's manufacturers (Android).
  public let manufacturer: Int
  /// The app may set exact alarms (Android).
  public let exactAlarms: Bool
  /// When the app's notifications go off (permission denied or withdrawn; `.max`: never).
  public let notificationsOffAt: SimTime
  /// The daily Focus that silences the app's notifications: its start, ticks after midnight
  /// on the phone's clock, and its length (nil: none).
  public let focus: (start: SimTime, length: SimTime)?
  /// Free storage for the app's unsynced data, bytes (infinity: a large phone that never fills).
  public let freeStorage: Double

  /// Draws a participant's phone.
  public init(_ p: PhonePopulation, os: OperatingSystem, days: Int, stream s: inout RandomStream) {
    location = LocationPermission.allCases[
      s.index(cumulative: (os == .ios ? p.iosLocation : p.androidLocation).cumulativeSums)]
    backgroundRefresh = !(os == .ios && s.bernoulli(p.backgroundRefreshOff))
    lowPowerHabit = os == .ios && s.bernoulli(p.lowPowerHabit)
    forceQuitPerDay = s.bernoulli(p.forceQuitters) ? p.forceQuitterPerDay : 0
    var removal = SimTime.max
    if p.appRemovalPerDay > 0 {
      // The day of removal (geometric), at a uniform moment of it.
      let at = (s.geometricFailures(p.appRemovalPerDay) + s.uniform()) * Double(Tick.day)
      if at < Double(days) * Double(Tick.day) { removal = SimTime(at) }
    }
    removesAppAt = removal
    manufacturer = os == .android ? s.index(cumulative: p.manufacturers.map(\.share).cumulativeSums) : 0
    exactAlarms = os == .ios || s.bernoulli(p.exactAlarms)
    // Drawn last, and only when some participants have them off: a population without it
    // draws exactly as before.
    notificationsOffAt =
      p.notificationsOffShare > 0 && s.bernoulli(p.notificationsOffShare)
      ? SimTime(p.notificationsOffAfterDays * Double(Tick.day)) : .max
    focus =
      p.focusShare > 0 && s.bernoulli(p.focusShare)
      ? (Tick.minutes(p.focusHours.start.minutes), Tick.minutes(p.focusHours.length)) : nil
    freeStorage =
      p.smallStorageShare > 0 && s.bernoulli(p.smallStorageShare)
      ? s.exponential(mean: LocalStorage.meanFreeGB) * 1e9 : .infinity
  }

  /// Whether the Focus silences a notification arriving at `t` (the participant's clock).
  @inline(__always)
  public func focused(at t: SimTime) -> Bool {
    guard let f = focus else { return false }
    return ((t - f.start) % Tick.day + Tick.day) % Tick.day < f.length
  }
}
