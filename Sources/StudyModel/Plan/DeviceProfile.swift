import SimKernel
/// A phone condition: how the operating system treats the study app, and the battery.
///
/// The four profiles are the device conditions of the AWARE-iOS case study (Nishiyama et al.
/// 2020, Table 6 and §5.3): an ideal phone, a phone in ordinary use, a heavily used phone
/// (more than 10 memory warnings a day) and a phone in Low Power Mode throughout. Rates the
/// paper does not give are assumptions calibrated to its Fig. 9 pattern; each is marked in
/// `docs/model.md` with its grade of evidence ([@Nishiyama2020]).
public struct DeviceProfile: Sendable, Equatable {
  /// The profile's name (`ideal`, `non_controlled`, `heavy`, `low_power`, or a custom one).
  public var name: String
  /// Rate at which iOS suspends the app while it runs in the background, per waking hour.
  public var suspendPerHour: Double
  /// Waking time the app must have been left unattended (since the participant last left it or
  /// something last woke it in the background) before the suspension clock runs (0: from the
  /// first moment).
  public var suspendAfter: SimTime = 0
  /// Rate of memory-pressure terminations (jetsam) of the background app, per hour awake.
  public var killPerHour: Double
  /// Whether a background wake (silent push, location change, app refresh) brings back
  /// continuous collection (the location anchor); otherwise the app runs ``wakeRunSeconds``
  /// and is suspended again.
  public var wakeRestoresAnchor: Bool
  /// Low Power Mode throughout the study.
  public var lowPowerMode: Bool
  /// Chance that a silent push delivered to the phone wakes the app (normal power).
  public var silentPushWake: Double
  /// The same in Low Power Mode.
  public var silentPushWakeLowPower: Double
  /// Whether significant location changes wake the app.
  public var significantChangeWake: Bool
  /// Background app refreshes per day (opportunistic; none in Low Power Mode).
  public var backgroundRefreshPerDay: Double
  /// User force-quits of the app per day (then nothing but the user relaunches it).
  public var forceQuitPerDay: Double
  /// Reboots per day.
  public var rebootPerDay: Double
  /// Battery drain while the participant is awake (phone in use), percent per hour.
  public var drainAwake: Double
  /// Battery drain while asleep, percent per hour.
  public var drainAsleep: Double
  /// Extra drain while the study app runs (sensing), percent per hour.
  public var drainApp: Double
  /// Chance the phone is plugged in overnight, each night (assumption, D: charging is
  /// "nightly, typically"; the own-phones population lowers it, calibrated to Beukenhorst et
  /// al. 2021's night deficit).
  public var chargeNightly = 0.95

  /// Seconds a background wake without the anchor lets the app run. 30 s: Apple's limit for a
  /// background notification ([@AppleBackgroundUpdates], A); the AWARE paper saw the heavy
  /// phone's app run 30 s after each silent push ([@Nishiyama2020] §5.3).
  public static let wakeRunSeconds = 30.0
  /// Charging speed, percent per hour (assumption).
  public static let chargePerHour = 40.0
  /// Chance a participant who is awake when the battery reaches the low-battery warning
  /// (20 %) charges it soon (an instance's: the ideal phone is always charged), within how
  /// many minutes (uniformly), and for how long, minutes (assumptions, grade D).
  public var chargeWhenLow = 0.85
  public static let chargeWithinMinutes = 30.0
  public static let daytimeChargeMinutes = 90.0
  /// Battery level at which iOS offers Low Power Mode, and the chance it is accepted (an
  /// instance's: the ideal phone declines it) (iOS offers it at 20 % and turns it off at 80 %
  /// while charging; the acceptance is an assumption).
  public static let lowPowerOfferLevel = 20.0
  public var lowPowerAccept = 0.5
  /// Seconds a reboot keeps the phone off (assumption).
  public static let rebootSeconds = 90.0

  /// Creates a profile.
  public init(
    name: String, suspendPerHour: Double, killPerHour: Double, wakeRestoresAnchor: Bool, lowPowerMode: Bool,
    silentPushWake: Double, silentPushWakeLowPower: Double, significantChangeWake: Bool,
    backgroundRefreshPerDay: Double, forceQuitPerDay: Double, rebootPerDay: Double, drainAwake: Double,
    drainAsleep: Double, drainApp: Double
  ) {
    self.name = name
    self.suspendPerHour = suspendPerHour
    self.killPerHour = killPerHour
    self.wakeRestoresAnchor = wakeRestoresAnchor
    self.lowPowerMode = lowPowerMode
    self.silentPushWake = silentPushWake
    self.silentPushWakeLowPower = silentPushWakeLowPower
    self.significantChangeWake = significantChangeWake
    self.backgroundRefreshPerDay = backgroundRefreshPerDay
    self.forceQuitPerDay = forceQuitPerDay
    self.rebootPerDay = rebootPerDay
    self.drainAwake = drainAwake
    self.drainAsleep = drainAsleep
    self.drainApp = drainApp
  }

  /// The AWARE paper's ideal condition: a fresh iPhone 11 with only the study app; the app
  /// never suspended (§5.3, Fig. 11: no memory warnings); never left to run low (charged
  /// every night and at the low-battery warning, Low Power Mode declined), since the ideal
  /// phones collected 100 % of the location data in all four cases (§5.3).
  public static let ideal: DeviceProfile = {
    var p = DeviceProfile(
      name: "ideal", suspendPerHour: 0, killPerHour: 0, wakeRestoresAnchor: true, lowPowerMode: false,
      silentPushWake: 0.95, silentPushWakeLowPower: 0.9, significantChangeWake: true, backgroundRefreshPerDay: 2,
      forceQuitPerDay: 0, rebootPerDay: 0, drainAwake: 3.0, drainAsleep: 1.0, drainApp: 1.0)
    p.chargeNightly = 1
    p.chargeWhenLow = 1
    p.lowPowerAccept = 0
    return p
  }()

  /// A phone in ordinary use: rare suspensions and terminations, the odd force-quit and
  /// reboot (assumptions; the paper's non-controlled phone was almost always Comp in BL).
  public static let nonControlled = DeviceProfile(
    name: "non_controlled", suspendPerHour: 0.0005, killPerHour: 0.001, wakeRestoresAnchor: true, lowPowerMode: false,
    silentPushWake: 0.95, silentPushWakeLowPower: 0.9, significantChangeWake: true, backgroundRefreshPerDay: 2,
    forceQuitPerDay: 0.005, rebootPerDay: 1.0 / 30, drainAwake: 4.0, drainAsleep: 1.0, drainApp: 1.0)

  /// Heavy use: more than 10 memory warnings a day (§5.3), read as 12 a day over about 16
  /// waking hours; after a termination a silent push lets the app run only 30 s (§5.3:
  /// 86.11 % of the heavy phone's hours Incomp under SPN).
  public static let heavy = DeviceProfile(
    name: "heavy", suspendPerHour: 0, killPerHour: 0.75, wakeRestoresAnchor: false, lowPowerMode: false,
    silentPushWake: 0.95, silentPushWakeLowPower: 0.9, significantChangeWake: true, backgroundRefreshPerDay: 1,
    forceQuitPerDay: 0.05, rebootPerDay: 1.0 / 30, drainAwake: 6.0, drainAsleep: 1.2, drainApp: 1.0)

  /// Low Power Mode throughout (Table 6, §5.3): background network off, no background app
  /// refresh, and the app suspended in the background once it has been left unattended (not
  /// opened, not woken) for twelve hours, then within the hour (1 an hour): the paper's
  /// BL phones stopped "after 12:00 hours on Day 1", and "in the cases of ESM and ESM+SPN, data
  /// collection was restarted after interaction with the app", which kept them nearly 100 %
  /// Comp (§5.3, Fig. 9a; the twelve hours and the rate calibrated to these, D). Silent pushes still woke it
  /// in the paper (SPN near 100 % Comp), although Apple says they may not (§1.3).
  public static let lowPower: DeviceProfile = {
    var p = DeviceProfile(
      name: "low_power", suspendPerHour: 1, killPerHour: 0, wakeRestoresAnchor: true, lowPowerMode: true,
      silentPushWake: 0.95, silentPushWakeLowPower: 0.9, significantChangeWake: false, backgroundRefreshPerDay: 0,
      forceQuitPerDay: 0, rebootPerDay: 0, drainAwake: 2.5, drainAsleep: 0.8, drainApp: 0.8)
    p.suspendAfter = 12 * Tick.hour
    return p
  }()

  /// The built-in profiles by name.
  public static let builtIn: [DeviceProfile] = [.ideal, .nonControlled, .heavy, .lowPower]
}

/// The phone's operating system.
public enum OperatingSystem: String, Sendable, CaseIterable {
  case ios, android
}
