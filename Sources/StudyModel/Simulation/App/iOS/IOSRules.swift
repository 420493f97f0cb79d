import SimKernel

/// iOS's rules for a study app in the background, each with its source and grade of evidence
/// (A vendor documentation or a peer-reviewed source; B a framework's code or an Apple
/// engineer; C a small study; D an assumption; `docs/sources.md`).
enum IOSRules {
  /// What stops an app running in the background while the participant is awake: the OS
  /// suspending it (rates per device condition: calibrated, D; a phone that went into Low Power
  /// Mode mid-study is suspended as the Low Power Mode condition's, after as long unattended), memory-pressure kills
  /// (jetsam: [@AppleJetsam], A for the mechanism, D for the rates) and force-quits (the
  /// device condition's and the participant's own habit, ``PhoneTraits/forceQuitPerDay``).
  static func stopRates(_ profile: DeviceProfile, lowPower: Bool, ownForceQuits: Double = 0) -> StopRates {
    let suspending = lowPower && !profile.lowPowerMode ? DeviceProfile.lowPower : profile
    return StopRates(
      suspend: suspending.suspendPerHour, suspendAfter: suspending.suspendAfter, kill: profile.killPerHour,
      forceQuit: (profile.forceQuitPerDay + ownForceQuits) / forceQuitHoursPerDay)
  }

  /// Force-quits happen while the participant uses the phone: a day's rate is spread over
  /// this many waking hours (the default day, 07:00–23:00; assumption, D).
  static let forceQuitHoursPerDay = 16.0

  /// A force-quit app is relaunched by nothing but the participant: no silent push, no
  /// location change, no background refresh wakes it ([@AppleBackgroundUpdates], A).
  static let forceQuitBlocksWakes = true

  /// A significant location change is a trip's start or end, at least this long after the
  /// last one that woke the app (Core Location coalesces them; assumption, D).
  static let locationChangeGap = 5 * Tick.minute

  /// Share of trips' starts and ends that relaunch the app: the change must pass 500 m
  /// ([@AppleLocation], A); at 750 m only half are seen, at 2.5 km 95 % ([@LocationField2010],
  /// C). 0.5, the short trip's figure, is calibrated to Beukenhorst et al. 2021's iPhones
  /// (their night odds ratio; [@Beukenhorst2021]) (D).
  static let locationRelaunchChance = 0.5

  /// How far ahead the search for the next location wake looks: a wake further away is
  /// drawn afresh when something changes first (numerical, not a model parameter).
  static let locationSearchDays: SimTime = 3

  /// Background app refresh follows the participant's use of the app: iOS's scheduler
  /// learns "which apps people will use and when" and launches them for it (WWDC 2020,
  /// "Background execution demystified", the app-usage factor, [@AppleBackgroundExecution],
  /// A for the rule; the size is an assumption, D): the full rate within a day of the last
  /// opening, then falling as 1/(days since it).
  static func refreshUsage(idle: SimTime) -> Double {
    let days = Double(idle) / Double(Tick.day)
    return days <= 1 ? 1 : 1 / days
  }
}
