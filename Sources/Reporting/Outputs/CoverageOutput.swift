import Study
import StudyModel

/// `coverage.csv` (`outputs.coverage`): a row per participant, sensor and study hour.
final class CoverageOutput: StudyObserver {
  let folder: RunFolder
  let sink: TableSink
  var detail: OutcomeDetail { .coverageRows }

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
