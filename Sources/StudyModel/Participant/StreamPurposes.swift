import Schedules
import SimKernel

/// The model's random streams: each purpose is a kind of draw, and a participant's stream is
/// addressed by (seed, replication, participant, purpose). Each component draws only from
/// its own kind, so adding draws to one never shifts another's numbers; what belongs to the
/// person and the phone never shares a stream with what the protocol causes (common random
/// numbers across variants: `CommonRandomNumbersTests`).
///
/// | kind | purpose | where |
/// |---|---|---|
/// | 0 | ``Purpose/general`` | benchmarks and tests (the kernel's) |
/// | 1 | ``Purpose/schedule`` | signal schedules (`Schedules`) |
/// | 2 | ``Purpose/day`` | wake and sleep times, the signalling window |
/// | 3 | ``Purpose/context`` | the day's contexts; index 1 company |
/// | 4 | ``Purpose/response`` | noticing, willingness, latency, dismissal; index 1 habits |
/// | 5 | ``Purpose/state`` | looks at the state and reporting noise; index 1 the truth's path, 2 the answers' variables and items |
/// | 6 | ``Purpose/phone`` | app lifecycle, memory, battery, network; indices 1–2 phone checks, 3–4 the phone's life and its maker, 5 phone calls |
/// | 7 | ``Purpose/delivery`` | push latency and loss, server ticks |
/// | 8 | ``Purpose/traits`` | person-level traits drawn once; index 1 the participant's own settings (and own times), 2 zone, 3 phone, 4 answering pace, 5 the day they join; 9–11 calibration's draws (its parameters, the predictive check, the bootstrap) |
///
/// Every indexed stream is named below (``Purpose/all``: each address distinct, tested).
extension Purpose {
  /// The participant's day: wake and sleep times, signalling window.
  public static let day = Purpose(kind: 2)
  /// The participant's context through the day (home, work, commuting…).
  public static let context = Purpose(kind: 3)
  /// Compliance: noticing, willingness, latency, dismissal.
  public static let response = Purpose(kind: 4)
  /// The latent momentary state: index 0 the looks at it and the reporting noise, index 1
  /// the truth's own path (drawn whatever the protocol looks at).
  public static let state = Purpose(kind: 5)
  /// The phone: app lifecycle, memory pressure, battery, network.
  public static let phone = Purpose(kind: 6)
  /// Delivery: push latency and loss, server ticks.
  public static let delivery = Purpose(kind: 7)
  /// Person-level traits drawn once (compliance propensity, device assignment).
  public static let traits = Purpose(kind: 8)
}

/// The indexed streams by name: the one registry of every stream a participant (and
/// calibration) draws from.
extension Purpose {
  /// A participant's own settings: their changes of Mappiness' hours and count, or their own
  /// times (`own_times`; never both).
  public static let settings = traits.indexed(1)
  /// The participant's time zone.
  public static let zone = traits.indexed(2)
  /// The phone's traits (maker, permissions, habits).
  public static let phoneTraits = traits.indexed(3)
  /// The person's answering pace (looks, at once, busy, deferral).
  public static let answering = traits.indexed(4)
  /// The day the participant joins (`population.enrolment_days`).
  public static let enrolment = traits.indexed(5)
  /// Calibration: the parameters' simulated people.
  public static let calibration = traits.indexed(9)
  /// Calibration: the predictive check's simulations.
  public static let predictiveCheck = traits.indexed(10)
  /// Calibration: the bootstrap of the pilot's participants.
  public static let bootstrap = traits.indexed(11)
  /// Company ("with others") through the day.
  public static let company = context.indexed(1)
  /// Habits: spontaneous openings and volunteered answers.
  public static let habit = response.indexed(1)
  /// The truth's own path.
  public static let truthPath = state.indexed(1)
  /// The answers researchers analyse (`population.variables`, `protocol.items`): drawn after
  /// the simulation, from nothing else's stream.
  public static let answers = state.indexed(2)
  /// Phone checks: how many an hour, and where in the hour.
  public static let checkCounts = phone.indexed(1)
  public static let checkPlaces = phone.indexed(2)
  /// The phone's own life: charging at night, reboots.
  public static let phoneLife = phone.indexed(3)
  /// An Android maker's force-stops.
  public static let maker = phone.indexed(4)
  /// Phone calls (prompts after a call ends).
  public static let calls = phone.indexed(5)
  /// Schedule `k` of the protocol (each its own).
  public static func schedule(_ k: Int) -> Purpose { schedule.indexed(UInt32(k)) }

  /// Every named stream, with its name (schedules 0 and 1 for the kind's first indices).
  public static let all: [(name: String, purpose: Purpose)] = [
    ("general", general), ("schedule 0", schedule(0)), ("schedule 1", schedule(1)), ("day", day), ("context", context),
    ("company", company), ("response", response), ("habit", habit), ("state", state), ("truthPath", truthPath),
    ("answers", answers),
    ("phone", phone), ("checkCounts", checkCounts), ("checkPlaces", checkPlaces), ("phoneLife", phoneLife),
    ("maker", maker), ("calls", calls), ("delivery", delivery), ("traits", traits), ("settings", settings),
    ("zone", zone), ("phoneTraits", phoneTraits), ("answering", answering), ("enrolment", enrolment), ("calibration", calibration),
    ("predictiveCheck", predictiveCheck), ("bootstrap", bootstrap),
  ]
}
