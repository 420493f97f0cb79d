import SimKernel

/// How much of an hour's expected data a sensor collected, in the AWARE-iOS paper's terms
/// (Nishiyama et al. 2020, §5.3): Comp (collected = expected), Incomp (0 < collected <
/// expected), Loss (none).
public enum CoverageStatus: String, Sendable, CaseIterable {
  case comp, incomp, loss

  /// Classifies an hour. More than expected (an app restarted within the hour samples at
  /// once) counts as complete.
  public static func classify(expected: Int, collected: Int) -> CoverageStatus {
    collected >= expected ? .comp : (collected > 0 ? .incomp : .loss)
  }
}

/// One sensor's participant-hour.
public struct CoverageRecord: Sendable, Equatable {
  /// The study hour (0-based from the start of the study).
  public var hour: Int
  /// The sensor's index in the protocol.
  public var sensor: Int
  /// Samples expected.
  public var expected: Int
  /// Samples collected on the phone.
  public var collected: Int
  /// Samples that reached the server before the study ended.
  public var received: Int

  /// The hour's status (by collected samples).
  public var status: CoverageStatus { CoverageStatus.classify(expected: expected, collected: collected) }
}
