import Scenarios
import Study
import StudyModel

/// `prompts.csv` (`outputs.prompts`): a row per prompt and volunteered answer.
final class PromptsOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink
  /// Whether the table has the company columns (some variant records company).
  let company: Bool

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.prompts }

  /// About 190 bytes a prompt.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(tableBytes: work.prompts * 190) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    company = folder.scenario.variants.contains { $0.plan.dailyLife.state.company.isOn }
    sink = try folder.table(.prompts(company: company))
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let (name, plan) = folder.variant(v)
    let time = folder.clock(o, plan: plan)
    let names = plan.protocolPlan.surveyIDs
    for p in o.prompts + o.volunteered {
      // Volunteered answers without a schedule open the protocol's survey.
      try sink.row(
        Rows.prompt(
          p, variant: name, replication: r, participant: o.participant,
          questionnaire: p.schedule < names.count ? names[p.schedule] : plan.protocolPlan.survey.id, time: time,
          company: company))
    }
  }

  func finish() throws { try sink.close() }
}
