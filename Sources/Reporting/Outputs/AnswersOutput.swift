import SimKernel
import Scenarios
import Study
import StudyModel

/// `answers.csv` (`outputs.answers`): a row per prompt (volunteered answers aside), named by
/// its questionnaire as in `prompts.csv`, with the participant's person-level predictors, the
/// variables' true values at the prompt and the items' answers they would give
/// (``ParticipantAnswers``), whether or not they answered it:
/// `answered` says which the study got. Columns are the union of the variants' names, empty
/// where a variant lacks one.
final class AnswersOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink
  let predictors: [String]
  let variables: [String]
  let items: [String]
  var detail: OutcomeDetail { .answers }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.answers }

  /// Its fixed columns and about 9 bytes a predictor, variable and item, a prompt.
  static func size(_ work: PlanWork) -> OutputSize { let a = work.plan.answers
    let columns = a.predictors.count + a.variables.count + a.items.count
    return OutputSize(tableBytes: work.prompts * (80 + 9 * Double(columns)))
  }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    let plans = folder.scenario.variants.map(\.plan.answers)
    func union(_ names: (AnswersPlan) -> [String]) -> [String] {
      var out: [String] = []
      for p in plans { for n in names(p) where !out.contains(n) { out.append(n) } }
      return out
    }
    predictors = union { $0.predictors.map(\.name) }
    variables = union { $0.variables.map(\.name) }
    items = union { $0.items.map(\.name) }
    sink = try folder.table(.answers(predictors: predictors, variables: variables, items: items))
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let (name, plan) = folder.variant(v)
    let a = plan.answers
    guard a.isOn, let drawn = o.answers else { return }
    let time = folder.clock(o, plan: plan)
    func cells(_ names: [String], _ own: [String], _ values: [Double], digits: (Int) -> Int) -> [String] {
      names.map { n in own.firstIndex(of: n).map { Rows.cell(values[$0], digits($0)) } ?? "" }
    }
    let person = cells(predictors, a.predictors.map(\.name), drawn.predictors) { _ in 4 }
    let itemNames = a.items.map(\.name)
    for (i, p) in o.prompts.enumerated() {
      try sink.row(
        [
          name, String(r + 1), String(o.participant + 1), String(p.index + 1), String(p.day + 1),
          plan.protocolPlan.survey(of: p).id, time.iso(p.scheduled),
          p.status.rawValue, p.status == .answered ? "1" : "0", drawn.careless[i] ? "1" : "0",
        ] + person + cells(variables, a.variables.map(\.name), drawn.values[i]) { a.variables[$0].kind == .continuous ? 4 : 0 }
          + items.map { n in itemNames.firstIndex(of: n).map { Self.text(drawn.items[i][$0], a.items[$0]) } ?? "" })
    }
  }

  func finish() throws { try sink.close() }

  /// An item's answer as a platform's file writes it: whole points on a slider, Likert or
  /// yes/no scale, four decimals for a number; empty when the item was not shown.
  static func text(_ x: Double, _ item: ItemPlan) -> String { Rows.cell(x, item.scale == .number ? 4 : 0) }
}
