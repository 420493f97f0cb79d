import SimKernel

/// Android's rules for a study app, each with its source and grade of evidence
/// (`docs/sources.md`). Doze, App Standby buckets and manufacturers' battery killers are not
/// modelled yet (`docs/model.md`).
enum AndroidRules {
  /// What stops the app's service while the participant is awake: memory-pressure kills only
  /// (a foreground service is not suspended: [@AndroidServices], A; the rates are the device
  /// condition's, D).
  static func stopRates(_ profile: DeviceProfile) -> StopRates {
    StopRates(kill: profile.killPerHour)
  }

  /// A killed sticky service (`START_STICKY`) is restarted by the system
  /// ([@AndroidServices], A), after this long (assumption, D), on device conditions whose
  /// wakes restore the anchor.
  static let stickyRestartDelay = 5 * Tick.minute

  /// A prompt's exact alarm runs the app's code, which restarts its service
  /// ([@AndroidAlarms], A for the API; D for its reliability, taken as perfect).
  static let alarmRestartsService = true

  /// A boot receiver restarts the service when the phone comes on ([@AndroidBoot], A).
  static let bootRestartsService = true
}
