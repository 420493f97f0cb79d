import Schedules
import SimKernel

/// How participants' own phones differ, drawn per participant so that a cohort is a mixture
/// (``PhoneTraits``): the location permission, settings and habits of iPhone users, and the
/// manufacturer and exact-alarm permission of Android phones. Each default names its source
/// in `docs/sources.md`; the defaults leave every phone as the device condition has it (a
/// study-provided phone set up by staff), and the `own_phones` population preset
/// (`docs/populations.md`) gives participants' own phones.
public struct PhonePopulation: Sendable, Equatable {
  /// Shares of iPhone users by location permission (always, while using, denied).
  public var iosLocation: [Double] = [1, 0, 0]
  /// The same for Android phones.
  public var androidLocation: [Double] = [1, 0, 0]
  /// Share of iPhone users with Background App Refresh off for the app (or for all apps).
  public var backgroundRefreshOff = 0.0
  /// Share of iPhone users who keep Low Power Mode on throughout.
  public var lowPowerHabit = 0.0
  /// Share of participants who habitually force-quit apps, and how often they do, per day.
  public var forceQuitters = 0.0
  public var forceQuitterPerDay = 1.0
  /// Chance per study day that a participant removes the app (and does not reinstall it).
  public var appRemovalPerDay = 0.0
  /// Android manufacturers and their shares.
  public var manufacturers: [(maker: Manufacturer, share: Double)] = [(.stock, 1)]
  /// Share of Android phones on which the app may set exact alarms (`SCHEDULE_EXACT_ALARM`).
  public var exactAlarms = 1.0
  /// Whether Android's Doze and App Standby buckets apply ([@AndroidDoze], A). On by default:
  /// every Android phone since 6.0 (Doze) and 9 (buckets) has them.
  public var doze = true
  /// Whether makers put apps unused for days to sleep and deep sleep
  /// (``Manufacturer/sleepsAfterDays``: Samsung's One UI does, [@SamsungAppManagement], A).
  /// On by default; a study of phones from before it (2016–17) switches it off.
  public var unusedAppsSleep = true
  /// Shares of participants by the ringer mode their phone is in when a prompt arrives
  /// (silent, vibrate, sound; [@Mehrotra2016], C: 25.5 %, 21.5 %, 53 % of notifications).
  public var ringer: [Double] = [0.255, 0.215, 0.53]
  /// The share of participants whose notifications for the study app are off (permission
  /// denied at install, or withdrawn later), and after how many days of the study they go
  /// off (0: from the start). Their prompts are not shown (`notifications_off`). Default
  /// none: an assumption (the seeds say the apps need the permission and ESMira's app notes
  /// help participants whose notifications do not work, but give no rate).
  public var notificationsOffShare = 0.0
  public var notificationsOffAfterDays = 0.0
  /// The share of participants with a daily Focus (iOS) or Do Not Disturb (Android) that
  /// silences the study app, and its hours on the phone's clock, minutes after midnight (the
  /// end before the start: across midnight). Its notifications arrive without a sound, a
  /// vibration or a lit screen: found at the next look at the phone. Default none (no rate
  /// is published: an assumption); hours 22:00-07:00 (a sleep Focus, assumption; a
  /// ``Window`` may cross midnight).
  public var focusShare = 0.0
  public var focusHours = try! Window(parsing: "22:00-07:00")
  /// The share of participants whose phone has little storage (16 or 32 GB; ``LocalStorage``):
  /// their free space is drawn (80 % under 1.5 GB, seed 004 §3.2) and the app's unsynced data
  /// can fill it. Default 0 (today's phones are larger: an assumption); the paper's 2016 sample
  /// had 15 of 54.
  public var smallStorageShare = 0.0

  /// Creates the default population (every phone as its device condition has it).
  public init() {}

  public static func == (a: PhonePopulation, b: PhonePopulation) -> Bool {
    a.iosLocation == b.iosLocation && a.androidLocation == b.androidLocation
      && a.backgroundRefreshOff == b.backgroundRefreshOff && a.lowPowerHabit == b.lowPowerHabit
      && a.forceQuitters == b.forceQuitters && a.forceQuitterPerDay == b.forceQuitterPerDay
      && a.appRemovalPerDay == b.appRemovalPerDay && a.manufacturers.map(\.maker) == b.manufacturers.map(\.maker)
      && a.manufacturers.map(\.share) == b.manufacturers.map(\.share) && a.exactAlarms == b.exactAlarms
      && a.doze == b.doze && a.ringer == b.ringer && a.unusedAppsSleep == b.unusedAppsSleep
      && a.notificationsOffShare == b.notificationsOffShare && a.notificationsOffAfterDays == b.notificationsOffAfterDays
      && a.focusShare == b.focusShare && a.focusHours == b.focusHours && a.smallStorageShare == b.smallStorageShare
  }
}

/// The location permission a participant gave the app.
public enum LocationPermission: Int, Sendable, CaseIterable {
  /// "Always" (iOS) or "Allow all the time" (Android 10+): location in the background, and
  /// on iOS significant location changes relaunch the app ([@AppleLocation], A).
  case always
  /// "While using the app": location while the app is in use, and while location updates
  /// started in the foreground go on; no relaunch by location changes ([@AppleLocation],
  /// [@AndroidLocation], A).
  case whileUsing
  /// No location at all.
  case denied

  /// The names in scenario files.
  public static let names = ["always", "while_using", "denied"]
}

/// An Android phone maker's battery management beyond Android's own: how often it kills a
/// study app running in the background, and whether its kill also cancels the app's alarms
/// (a force-stop: nothing but the participant opening the app brings it back, and no
/// notification is shown until then).
public struct Manufacturer: Sendable, Equatable {
  /// The maker's name in scenario files.
  public var name: String
  /// Kills of the background app per day (around the clock; assumptions, D, ordered as
  /// dontkillmyapp.com ranks the makers, [@DontKillMyApp], C).
  public var killsPerDay: Double
  /// Whether a kill cancels the app's alarms (seed 002: Huawei and Oppo "close apps without
  /// any warning making them unable to issue notifications anymore", [@ESMiraNotes], B).
  public var stopsAlarms: Bool
  /// Days without use after which the maker puts the app to sleep (App Standby's restricted
  /// bucket: one alarm a day) and into deep sleep (no background work, no notifications
  /// until opened); nil: never. Samsung: "about 3 days" and 16 days ([@SamsungAppManagement],
  /// A).
  public var sleepsAfterDays: Double?
  public var deepSleepsAfterDays: Double?

  /// Creates a maker.
  public init(
    name: String, killsPerDay: Double, stopsAlarms: Bool, sleepsAfterDays: Double? = nil, deepSleepsAfterDays: Double? = nil
  ) {
    self.name = name
    self.killsPerDay = killsPerDay
    self.stopsAlarms = stopsAlarms
    self.sleepsAfterDays = sleepsAfterDays
    self.deepSleepsAfterDays = deepSleepsAfterDays
  }

  /// Stock Android (Pixel, Android One): Android's own rules only.
  public static let stock = Manufacturer(name: "stock", killsPerDay: 0, stopsAlarms: false)
  /// The makers esmsim knows by name.
  public static let builtIn: [Manufacturer] = [
    .stock,
    Manufacturer(name: "samsung", killsPerDay: 0.2, stopsAlarms: false, sleepsAfterDays: 3, deepSleepsAfterDays: 16),
    Manufacturer(name: "xiaomi", killsPerDay: 0.5, stopsAlarms: false),
    Manufacturer(name: "oneplus", killsPerDay: 0.5, stopsAlarms: false),
    Manufacturer(name: "huawei", killsPerDay: 0.5, stopsAlarms: true),
    Manufacturer(name: "oppo", killsPerDay: 0.5, stopsAlarms: true),
    Manufacturer(name: "other", killsPerDay: 0.1, stopsAlarms: false),
  ]
}
