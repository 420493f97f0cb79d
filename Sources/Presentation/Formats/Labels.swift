import Schedules
import StudyModel

/// Plain words for esmsim's internal names, as a page shows them to a reader. What an enum
/// names is labelled by the enum itself, with an exhaustive switch (``MissReason/label``,
/// ``AnyScheduler/Name/label``, ``GapMethod/label``): a new case cannot go unlabelled. Device
/// profiles are names (a scenario may add its own): their table is here.
public enum Labels {
  /// The built-in device profiles (AWARE-iOS's conditions); a scenario's own keep their name.
  static let devices: [String: String] = [
    "ideal": "ideal", "non_controlled": "ordinary use", "heavy": "heavy use", "low_power": "Low Power Mode",
  ]

  /// The platforms, as their makers write them (the protocol presets).
  public static func platform(_ name: String) -> String {
    ["mappiness": "Mappiness", "esmira": "ESMira", "aware": "AWARE", "beiwe": "Beiwe", "paco": "PACO"][name] ?? name
  }

  /// A variant's name as the scenario gives it; the one a scenario without variants gets
  /// (`base`) as "this study".
  public static func variant(_ name: String) -> String { name == "base" ? "this study" : name }

  /// A device profile's plain label, or its name with underscores as spaces.
  public static func device(_ name: String) -> String { devices[name] ?? name.replacingOccurrences(of: "_", with: " ") }
}

extension MissReason {
  /// Why the prompt was missed, in plain words.
  public var label: String {
    switch self {
    case .none: ""
    case .phoneOff: "phone off"
    case .cap: "over the notification cap"
    case .notRefilled: "notification plan ran out"
    case .replaced: "push replaced while offline"
    case .offline: "push expired while offline"
    case .asleep: "asleep"
    case .notNoticed: "not noticed"
    case .unwilling: "declined to answer"
    case .tooLate: "could not answer in time"
    case .busy: "arrived during another survey"
    case .droppedOut: "dropped out"
    case .appRemoved: "app removed"
    case .appStopped: "app force-stopped by the phone"
    case .brokeOff: "broke off"
    case .notificationsOff: "notifications turned off"
    case .buildExpired: "TestFlight build expired"
    }
  }
}

extension AnyScheduler.Name {
  /// The algorithm in plain words.
  public var label: String {
    switch self {
    case .mappiness: "Mappiness (random in blocks)"
    case .fixedBlocks: "random in fixed blocks"
    case .bernoulli: "Bernoulli minutes"
    case .fixedTimes: "fixed times"
    case .chain: "chain (ExperienceSampler)"
    case .bufferedBlocks: "buffered blocks (mEMA)"
    }
  }
}

extension GapMethod {
  /// The gap rule in plain words.
  public var label: String {
    switch self {
    case .none: "none"
    case .truncation: "truncation"
    case .sequentialRejection: "sequential rejection"
    case .resampleSchedule: "resample the schedule"
    case .sortAndSpace: "sort and space"
    }
  }
}
