import SimKernel

extension Purpose {
  /// Signal schedules (kind 1; index: the scheduler's variant key, so each scheduler has its
  /// own). The table of every kind: `StudyModel/Participant/StreamPurposes.swift`.
  public static let schedule = Purpose(kind: 1)
}
