import SimKernel

/// How the research app keeps itself running in the background: a protocol choice, since the
/// same phone gives very different data under each (`docs/model.md`, "The app's design").
public struct AppDesign: Sendable, Equatable {
  /// What keeps the app running.
  public enum Kind: String, Sendable, CaseIterable {
    /// The app keeps itself alive: continuous location on iOS (AWARE-iOS's anchor), a
    /// foreground service on Android. Today's default: the AWARE-iOS case study's app.
    case keepAlive = "keep_alive"
    /// The app runs only when the operating system wakes it: on iOS significant location
    /// changes and background app refresh; on Android its own periodic alarm (``every``).
    /// Each wake lets it run ``DeviceProfile/wakeRunSeconds`` and record once.
    case osWoken = "os_woken"
    /// The app runs when the study's server wakes it with a push (Beiwe's iOS app): iOS
    /// silent pushes, Android FCM data messages, every `protocol.silent_push`; also
    /// woken as ``osWoken`` is.
    case pushDriven = "push_driven"
  }

  /// Firebase Cloud Messaging priority of an Android app's pushes: high priority wakes a
  /// dozing phone (within the standby bucket's daily quota); normal waits for the next
  /// maintenance window ([@AndroidDoze], A).
  public enum PushPriority: String, Sendable, CaseIterable {
    case high, normal
  }

  public var kind: Kind
  /// The period of an os-woken Android app's alarm (default an hour: Beukenhorst et al. 2021's
  /// hourly location).
  public var every: SimTime
  /// Android pushes' priority (a push-driven app's wakes).
  public var pushPriority: PushPriority
  /// Whether the os-woken Android app sets exact alarms (`setExactAndAllowWhileIdle`, which
  /// fire in Doze, where the phone grants the permission: ``PhoneTraits/exactAlarms``), or
  /// inexact ones, which Doze defers to its maintenance windows ([@AndroidDoze], A).
  public var exactAlarms: Bool

  /// Creates a design.
  public init(kind: Kind = .keepAlive, every: SimTime = Tick.hour, pushPriority: PushPriority = .high, exactAlarms: Bool = true) {
    self.kind = kind
    self.every = every
    self.pushPriority = pushPriority
    self.exactAlarms = exactAlarms
  }

  /// Whether the app keeps itself running in the background.
  public var keepsAlive: Bool { kind == .keepAlive }
}
