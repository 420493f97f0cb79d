/// Plain words for esmsim's internal names (device profiles, miss reasons, statuses,
/// schedulers, gap rules, presets): what a page shows a reader, in one place.
public enum Labels {
  static let table: [String: String] = [
    // Device profiles (AWARE-iOS's conditions).
    "ideal": "ideal", "non_controlled": "ordinary use", "heavy": "heavy use", "low_power": "Low Power Mode",
    // Why a prompt was missed (MissReason).
    "phone_off": "phone off", "cap": "over the notification cap", "not_refilled": "notification plan ran out",
    "replaced": "push replaced while offline", "offline": "push expired while offline", "asleep": "asleep",
    "not_noticed": "not noticed", "unwilling": "declined to answer", "too_late": "could not answer in time",
    "busy": "arrived during another survey", "dropped_out": "dropped out", "app_removed": "app removed",
    "app_stopped": "app force-stopped by the phone", "notifications_off": "notifications turned off", "build_expired": "TestFlight build expired",
    // Schedulers and gap rules.
    "mappiness": "Mappiness (random in blocks)", "fixed-blocks": "random in fixed blocks", "bernoulli": "Bernoulli minutes",
    "fixed-times": "fixed times", "chain": "chain (ExperienceSampler)", "buffered-blocks": "buffered blocks (mEMA)",
    "none": "none", "truncation": "truncation", "sequential-rejection": "sequential rejection",
    "resample-schedule": "resample the schedule", "sort-and-space": "sort and space",
    // Variants with no name of their own.
    "base": "this study",
  ]

  /// The platforms, as their makers write them (the protocol presets).
  public static func platform(_ name: String) -> String {
    ["mappiness": "Mappiness", "esmira": "ESMira", "aware": "AWARE", "beiwe": "Beiwe", "paco": "PACO"][name] ?? name
  }

  /// A variant's name as the scenario gives it; the one a scenario without variants gets
  /// (`base`) as "this study".
  public static func variant(_ name: String) -> String { name == "base" ? table["base"]! : name }

  /// The plain label of `name`, or the name with underscores as spaces.
  public static func plain(_ name: String) -> String { table[name] ?? name.replacingOccurrences(of: "_", with: " ") }
}
