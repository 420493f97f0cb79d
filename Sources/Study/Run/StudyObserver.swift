import StudyModel

/// What records, writes or shows a simulation as it runs: an output file, the planner's
/// answers by hour. The simulation never asks where rows go; it keeps in each participant's
/// outcome what its observers ask for (``detail``) and hands every outcome to each of them, in
/// participant order, on the calling thread.
public protocol StudyObserver: AnyObject {
  /// What each participant's outcome must carry for this observer.
  var detail: OutcomeDetail { get }
  /// A participant's outcome in variant `variant` (its index) and replication `replication`
  /// (from 0).
  func participant(_ outcome: ParticipantOutcome, variant: Int, replication: Int) throws
  /// Every participant of every variant and replication was seen: close what is open.
  func finish() throws
}

extension StudyObserver {
  public var detail: OutcomeDetail { [] }
  public func finish() throws {}
}

/// Keeps every participant's outcome, in participant order (calibration reads the
/// simulated pilot's prompts from them).
public final class OutcomeCollector: StudyObserver {
  /// The outcomes seen, in order.
  public private(set) var outcomes: [ParticipantOutcome] = []

  public init(capacity: Int = 0) { outcomes.reserveCapacity(capacity) }

  public func participant(_ outcome: ParticipantOutcome, variant: Int, replication: Int) throws {
    outcomes.append(outcome)
  }
}
