import SimKernel

/// One participant's own phone (``PhonePopulation``), drawn once from a stream of its own, so
/// that a population that differs only in its phones has the same people, days and answers
/// (common random numbers).
public struct PhoneTraits: Sendable {
  /// The location permission given to the app.
  public var location = LocationPermission.always
  /// Background App Refresh is on for the app (iOS).
  public var backgroundRefresh = true
  /// Low Power Mode is kept on throughout (iOS).
  public var lowPowerHabit = false
  /// The participant's own force-quits of the app per day, beyond the device condition's.
  public var forceQuitPerDay = 0.0
  /// When the participant removes the app (`.max`: never).
  public var removesAppAt = SimTime.max
  /// Index into the population's manufacturers (Android).
  public var manufacturer = 0
  /// The app may set exact alarms (Android).
  public var exactAlarms = true

  /// Every phone as its device condition has it.
  public init() {}

  /// Draws a participant's phone.
  public init(_ p: PhonePopulation, os: OperatingSystem, days: Int, stream s: inout RandomStream) {
    location = LocationPermission.allCases[
      s.index(cumulative: (os == .ios ? p.iosLocation : p.androidLocation).cumulativeSums)]
    backgroundRefresh = !(os == .ios && s.bernoulli(p.backgroundRefreshOff))
    lowPowerHabit = os == .ios && s.bernoulli(p.lowPowerHabit)
    forceQuitPerDay = s.bernoulli(p.forceQuitters) ? p.forceQuitterPerDay : 0
    if p.appRemovalPerDay > 0 {
      // The day of removal: geometric, by inverse CDF; at a uniform moment of it.
      let day = log(s.openUniform()) / log1p(-min(p.appRemovalPerDay, 0.999_999))
      let at = (day + s.uniform()) * Double(Tick.day)
      removesAppAt = at < Double(days) * Double(Tick.day) ? SimTime(at) : .max
    }
    manufacturer = os == .android ? s.index(cumulative: p.manufacturers.map(\.share).cumulativeSums) : 0
    exactAlarms = os == .ios || s.bernoulli(p.exactAlarms)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
