import Measures
import Scenarios
import Study
import StudyModel

/// `participants.csv` (`outputs.participants`): a row per participant, built the way the
/// study's accumulator builds it.
final class ParticipantsOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.participants }

  /// About 120 bytes a participant.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(tableBytes: Double(work.plan.participants) * 120) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    sink = try folder.table(.participants)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let (name, plan) = folder.variant(v)
    var single = StudyAccumulator(plan: plan, detailParticipants: 0, heatParticipants: 0)
    single.add(o)
    let joined = folder.clock(o, plan: plan).date(ofDay: 0)
    for pr in single.participantRows {
      try sink.row(
        Rows.participant(
          pr, variant: name, replication: r, device: plan.devices[o.device].profile.name,
          timeZone: plan.timeZones[o.zone].zone.name, person: o.engagement, classes: plan.compliance.classes,
          joined: joined, ownTimesShift: o.ownTimesShift))
    }
  }

  func finish() throws { try sink.close() }
}
