/// What a participant's outcome carries beyond what every measure needs: each output asks
/// for its part (``ParticipantSimulation/outcome(plan:seed:replication:participant:detail:heatHours:)``),
/// and the simulation keeps only what someone asked for.
public struct OutcomeDetail: OptionSet, Sendable, Hashable {
  public let rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  /// Per participant-hour coverage rows (`coverage.csv`).
  public static let coverageRows = OutcomeDetail(rawValue: 1 << 0)
  /// The app's Reachability and PowerState events (Beiwe's phone files).
  public static let phoneEvents = OutcomeDetail(rawValue: 1 << 1)
  /// The stretches the sensors recorded in (Beiwe's passive sensor files).
  public static let sensorSamples = OutcomeDetail(rawValue: 1 << 2)
  /// The answers behind the prompts (``ParticipantAnswers``: the variables' true values and
  /// the items' answers), drawn once for every output that writes them; none when the plan
  /// has no variables.
  public static let answers = OutcomeDetail(rawValue: 1 << 3)
}
