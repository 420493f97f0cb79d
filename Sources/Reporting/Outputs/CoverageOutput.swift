import Scenarios
import Study
import StudyModel

/// `coverage.csv` (`outputs.coverage`): a row per participant, sensor and study hour.
final class CoverageOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink
  var detail: OutcomeDetail { .coverageRows }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.coverage }

  /// A row of about 70 bytes per participant-hour and sensor.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(tableBytes: work.participantDays * 24 * Double(work.plan.protocolPlan.sensors.count) * 70) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    sink = try folder.table(.coverage)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let (name, plan) = folder.variant(v)
    let device = plan.devices[o.device].profile.name
    for c in o.coverageRows {
      try sink.row(
        Rows.coverage(
          c, variant: name, replication: r, participant: o.participant, device: device, os: o.os.rawValue,
          sensor: plan.protocolPlan.sensors[c.sensor].name))
    }
  }

  func finish() throws { try sink.close() }
}
