/// What the participant's operating system does to the study app, chosen once when the
/// participant is set up: the iOS rules (``IOSRules``) or the Android ones (``AndroidRules``),
/// so that the simulation asks the rule, not which system it is.
struct PlatformRules: Sendable {
  let os: OperatingSystem
  /// The mode an app that stops running is left in: suspended in memory on iOS, not running
  /// on Android (whose service ends).
  let stoppedMode: AppState.Mode
  /// iOS wakes a stopped app itself (background refresh, significant location change:
  /// ``IOSRules``); Android apps restart through their alarms and boot receiver.
  let systemWakes: Bool
  /// Android: the app's own periodic wake (WorkManager, AlarmManager), its boot receiver
  /// restarting the service, an alarm restarting the service, a killed keep-alive service
  /// restarted (START_STICKY), the maker's force-stops.
  let ownWakes: Bool
  let bootRestartsService: Bool
  let alarmRestartsService: Bool
  let stickyRestart: Bool
  let makerStops: Bool
  /// Android's Doze and App Standby hold the app's runs back (`population.phones.doze`).
  let dozes: Bool
  /// iOS asks for the location permission to run on a location anchor ("Always" from the
  /// background, "While using" from the foreground only).
  let anchorNeedsPermission: Bool

  init(os: OperatingSystem, doze: Bool) {
    self.os = os
    let android = os == .android
    stoppedMode = android ? .notRunning : .suspended
    systemWakes = !android
    ownWakes = android
    bootRestartsService = android && AndroidRules.bootRestartsService
    alarmRestartsService = android && AndroidRules.alarmRestartsService
    stickyRestart = android
    makerStops = android
    dozes = android && doze
    anchorNeedsPermission = !android
  }

  /// The rates at which an app running on its anchor is stopped (suspended, killed,
  /// force-quit, the maker's kill).
  func stopRates(_ profile: DeviceProfile, lowPower: Bool, ownForceQuits: Double, maker: Manufacturer) -> StopRates {
    os == .ios
      ? IOSRules.stopRates(profile, lowPower: lowPower, ownForceQuits: ownForceQuits)
      : AndroidRules.stopRates(profile, maker: maker)
  }
}
