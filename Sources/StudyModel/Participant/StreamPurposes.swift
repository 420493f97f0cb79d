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
/// | 5 | ``Purpose/state`` | looks at the state and reporting noise; index 1 the truth's path |
/// | 6 | ``Purpose/phone`` | app lifecycle, memory, battery, network; indices 1–2 phone checks, 3–4 the phone's life and its maker, 5 phone calls |
/// | 7 | ``Purpose/delivery`` | push latency and loss, server ticks |
/// | 8 | ``Purpose/traits`` | person-level traits drawn once; indices 2–3 zone and phone |
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
