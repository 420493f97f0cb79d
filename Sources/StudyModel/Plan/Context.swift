/// Where a participant is and what they are doing: the states of the daily-life process.
///
/// Each context sets the five conditions of MacKerron's thesis ("Reachability and
/// response"): having the phone, reception, hearing the alert, being able to answer safely,
/// and willingness (``ContextConditions``).
public enum Context: Int, Sendable, CaseIterable, CustomStringConvertible {
  case asleep, home, work, transit, underground, driving, social, exercise

  /// The name used in files (`prompts.csv`, scenario keys).
  public var description: String {
    switch self {
    case .asleep: "asleep"
    case .home: "home"
    case .work: "work"
    case .transit: "transit"
    case .underground: "underground"
    case .driving: "driving"
    case .social: "social"
    case .exercise: "exercise"
    }
  }

  /// The contexts of the waking day (everything but `asleep`).
  public static let waking: [Context] = allCases.filter { $0 != .asleep }

  /// Whether moving between this context and another covers ground (≥ 500 m), which can
  /// wake an iOS app through the significant-location-change service.
  public var involvesTravel: Bool { self == .transit || self == .underground || self == .driving }
}

/// How the network reaches the phone.
public enum Network: Int, Sendable, CaseIterable {
  case wifi, cellular, unreachable
}

/// What a context means for a prompt and for the phone.
///
/// Defaults (`ContextConditions.defaults`) and their sources are in `docs/model.md`.
public struct ContextConditions: Sendable, Equatable {
  /// The chance that the phone is with the participant (within reach, so an alert can be
  /// heard and the phone checked) during one episode of this context.
  public var phoneWithParticipant: Double
  /// The chance of hearing an alert, relative to the ringer mode's own (1: quiet place).
  public var hearing: Double
  /// Whether a prompt can safely be answered now (false: driving, exercising).
  public var canAnswer: Bool
  /// Willingness in this context, an odds ratio on the participant's usual (1: no effect; 0:
  /// never answers here).
  public var willingness: Double
  /// The chance the phone is on wifi in an episode (otherwise cellular; underground: none).
  public var wifi: Double
  /// The mean of the latent momentary state in this context (the ground truth's pull).
  public var stateMean: Double

  /// Creates conditions.
  public init(
    phoneWithParticipant: Double, hearing: Double, canAnswer: Bool, willingness: Double, wifi: Double,
    stateMean: Double
  ) {
    self.phoneWithParticipant = phoneWithParticipant
    self.hearing = hearing
    self.canAnswer = canAnswer
    self.willingness = willingness
    self.wifi = wifi
    self.stateMean = stateMean
  }
}
