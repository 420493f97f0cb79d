import SimKernel

/// Android's rules for a study app, each with its source and grade of evidence
/// (`docs/sources.md`). Doze and App Standby buckets: ``Doze``, ``StandbyBucket``; the
/// app's own alarm and pushes: `AndroidWakes.swift`.
enum AndroidRules {
  /// What stops the app's service: memory-pressure kills while the participant is awake (a
  /// foreground service is not suspended: [@AndroidServices], A; the rates are the device
  /// condition's, D), and the maker's battery manager around the clock (``Manufacturer``).
  static func stopRates(_ profile: DeviceProfile, maker: Manufacturer) -> StopRates {
    StopRates(kill: profile.killPerHour, makerKill: maker.killsPerDay / 24)
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
