import Scenarios
import Study
import StudyModel

/// `aware_esms.csv` (`outputs.aware_esm`): AWARE's esms table as the iOS ESM plugin writes it,
/// a row per item of each prompt.
final class AWARERowsOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink
  /// The table's running row id.
  var nextId = 0

  /// The items' answers, where the plan has them.
  var detail: OutcomeDetail { .answers }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.awareESM }

  /// A row of about 260 bytes per prompt and item.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(tableBytes: work.prompts * work.items * 260) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    sink = try folder.table(.aware)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let plan = folder.variant(v).plan
    let time = folder.clock(o, plan: plan)
    let id = AWAREESMRows.deviceId(variant: v, replication: r, participant: o.participant)
    let own = OwnItemAnswers(o, plan: plan)
    for (i, p) in o.prompts.enumerated() {
      let survey = own.surveyItems(plan.protocolPlan.survey(ofSchedule: p.schedule))
      for row in AWAREESMRows.rows(p, survey: survey, os: o.os, deviceId: id, time: time, nextId: &nextId, own: own.at(i)) {
        try sink.row(row)
      }
    }
  }

  func finish() throws { try sink.close() }
}
