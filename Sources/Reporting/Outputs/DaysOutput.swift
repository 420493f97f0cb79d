import Scenarios
import SimKernel
import Study
import StudyModel

/// `days.csv` (`outputs.days`): a row per participant and study day with the prompts due that
/// day and what became of them: the table of daily compliance per person (its decline over
/// the study, the days a participant answered nothing) that analyses otherwise build from
/// `prompts.csv`.
final class DaysOutput: RunOutput {
  let folder: RunFolder
  let sink: TableSink

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.days }

  /// About 60 bytes a participant-day.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(tableBytes: work.participantDays * 60) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    sink = try folder.table(.days)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let (name, plan) = folder.variant(v)
    let time = folder.clock(o, plan: plan)
    // Per day: due, delivered, opened, answered.
    var counts = [[Int]](repeating: [0, 0, 0, 0], count: plan.days)
    for p in o.prompts where p.day >= 0 && p.day < plan.days {
      counts[p.day][0] += 1
      if p.delivered >= 0 { counts[p.day][1] += 1 }
      if p.opened >= 0 { counts[p.day][2] += 1 }
      if p.status == .answered { counts[p.day][3] += 1 }
    }
    for day in 0..<plan.days {
      let start = SimTime(day) * Tick.day
      try sink.row(
        [
          name, String(r + 1), String(o.participant + 1), String(day + 1), time.date(ofDay: day),
          start < o.enrolledUntil ? "1" : "0",
        ] + counts[day].map(String.init))
    }
  }

  func finish() throws { try sink.close() }
}

extension TableSchema {
  /// `days.csv`.
  static let days = TableSchema(
    "days", file: "days.csv",
    [
      ("variant", .text), ("replication", .integer), ("participant", .integer), ("day", .integer), ("date", .text),
      ("enrolled", .flag), ("scheduled", .integer), ("delivered", .integer), ("opened", .integer), ("answered", .integer),
    ])
}
