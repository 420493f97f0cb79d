import SimKernel

/// A participant's random streams that the simulation's events draw from, each of its own
/// purpose (``Purpose``), so that variants share what they do not change (docs/model.md,
/// "What variants share"). Streams whose draws follow only the participant's days are kept
/// apart from those the protocol's events consume.
struct ParticipantStreams {
  /// Noticing, willingness, latency, dismissal.
  var response: RandomStream
  /// App lifecycle, memory pressure, battery, network.
  var phone: RandomStream
  /// Push latency and loss, server ticks.
  var delivery: RandomStream
  /// Looks at the state and the reporting noise.
  var state: RandomStream
  /// The participant's own use of the app (spontaneous openings, volunteered entries): one
  /// set of draws a day, whatever the protocol does.
  var habit: RandomStream
  /// The phone's own life (charging at night, reboots): draws at the day's start and at
  /// bedtime only, whatever the protocol does.
  var phoneLife: RandomStream
  /// An Android maker's force-stops of an app that does not keep itself alive.
  var maker: RandomStream
}

/// A participant's phone as the simulation sees it: its device profile, its traits, its
/// maker (Android) and what its operating system does to the app.
struct PhoneSetup {
  let profile: DeviceProfile
  let phone: PhoneTraits
  /// The phone's maker (Android).
  let maker: Manufacturer
  /// What the phone's operating system does to the app (iOS's rules or Android's).
  let platform: PlatformRules
  /// How long the app may go unused before the maker puts it to sleep and into deep sleep
  /// (``Manufacturer/sleepsAfterDays``; nil: never).
  let sleepsAfter: SimTime?
  let deepSleepsAfter: SimTime?

  init(plan: StudyPlan, person: Person, stream: inout RandomStream) {
    var profile = plan.devices[person.device].profile
    // People's own charging habit, where a scenario or a calibration sets it.
    if let charge = plan.compliance.chargeNightly { profile.chargeNightly = charge }
    self.profile = profile
    phone = PhoneTraits(plan.phones, os: person.os, days: plan.days, stream: &stream)
    maker = plan.phones.manufacturers[phone.manufacturer].maker
    platform = PlatformRules(os: person.os, doze: plan.phones.doze)
    let sleeps = platform.makerStops && plan.phones.unusedAppsSleep
    sleepsAfter = sleeps ? maker.sleepsAfterDays.map { Tick.minutes($0 * 1440) } : nil
    deepSleepsAfter = sleeps ? maker.deepSleepsAfterDays.map { Tick.minutes($0 * 1440) } : nil
  }
}

extension ParticipantSimulation {
  // The phone's parts by their names (``PhoneSetup``).
  var profile: DeviceProfile { device.profile }
  var phone: PhoneTraits { device.phone }
  var maker: Manufacturer { device.maker }
  var platform: PlatformRules { device.platform }
  var sleepsAfter: SimTime? { device.sleepsAfter }
  var deepSleepsAfter: SimTime? { device.deepSleepsAfter }
}

extension ParticipantSimulation {
  // Each schedule's expiry and reminders by their names.
  var expiries: [ExpiryPolicy] { perSchedule.expiries }
  var reminders: [Reminders] { perSchedule.reminders }
  // The run's counts and mode by their names.
  var eventsHandled: Int {
    get { running.eventsHandled }
    set { running.eventsHandled = newValue }
  }
  var handedOver: Int {
    get { running.handedOver }
    set { running.handedOver = newValue }
  }
  var queuesEverything: Bool {
    get { running.queuesEverything }
    set { running.queuesEverything = newValue }
  }
}
