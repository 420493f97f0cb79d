import Study
import Presentation
import Measures
import Scenarios
import SimKernel
import StudyModel

/// The per-row tables of a run: headers and how one record becomes a row.
public enum Rows {
  /// `prompts.csv`: one row per prompt (and per volunteered answer), in the columns of
  /// ``TableSchema/prompts(company:)``. Participants, prompts and study days are numbered from
  /// 1 in every table, as the report and the planner number them (the model counts from 0).
  /// A prompt's row; `questionnaire` names the questionnaire its schedule opens; `company`
  /// adds the company columns.
  public static func prompt(
    _ p: PromptRecord, variant: String, replication: Int, participant: Int, questionnaire: String, time: Timestamps,
    company: Bool = false
  ) -> [String] {
    let row = [
      variant, String(replication + 1), String(participant + 1), String(p.index + 1), String(p.day + 1), questionnaire,
      time.iso(p.scheduled),
      time.iso(p.delivered), time.iso(p.noticed), time.iso(p.opened), time.iso(p.submitted), p.status.rawValue,
      p.reason.rawValue, cell(p.responseSeconds, 3), p.delivered >= 0 ? p.context.description : "",
      cell(p.trueState, 3), cell(p.reported, 3), cell(p.reached, 3), p.status == .answered ? (p.received ? "1" : "0") : "",
      p.volunteered ? "1" : "0",
    ]
    guard company else { return row }
    return row + [flag(p.withOthers), cell(p.dueState, 3), flag(p.dueWithOthers)]
  }

  /// A 0/1 flag, empty when unknown (negative).
  static func flag(_ x: Int8) -> String { x < 0 ? "" : String(x) }

  /// `coverage.csv`: one row per participant-hour and sensor (``TableSchema/coverage``).
  public static func coverage(
    _ c: CoverageRecord, variant: String, replication: Int, participant: Int, device: String, os: String, sensor: String
  ) -> [String] {
    [
      variant, String(replication + 1), String(participant + 1), device, os, String(c.hour / 24 + 1), String(c.hour % 24), sensor,
      String(c.expected), String(c.collected), String(c.received), c.status.rawValue,
    ]
  }

  /// `participants.csv`: Mappiness' participant statistics and the bias (``TableSchema/participants``).
  /// The person's answering traits follow (``Engagement``): their class, first-day willingness,
  /// its change over the first days and per week (log-odds), looks an hour, and the chances
  /// they open at once and that a busy stretch holds them, and their break-off rate.
  public static func participant(
    _ r: ParticipantRow, variant: String, replication: Int, device: String, timeZone: String, person: Engagement?,
    classes: [ComplianceClass], joined: String, ownTimesShift: Double
  ) -> [String] {
    let traits: [String] = person.map { e in
      [
        e.classIndex < classes.count ? classes[e.classIndex].name : "", cell(e.level, 4), cell(e.firstDaysChange, 3),
        cell(e.weeklyChange, 3), cell(e.looksPerHour, 2), cell(e.atOnce, 3), cell(e.busy, 3), cell(e.breakOffPerMinute, 5),
      ]
    } ?? Array(repeating: "", count: 8)
    return [
      variant, String(replication + 1), String(r.participant + 1), device, r.os.rawValue, timeZone, String(r.scheduled), String(r.signals),
      String(r.completed), cell(r.responseRate, 4), cell(r.medianResponseSeconds, 1), String(r.volunteered),
      cell(r.reportedMean, 3), cell(r.trueMean, 3), cell(r.reportedMean - r.trueMean, 3), r.droppedOut ? "1" : "0",
    ] + traits + [joined, cell(ownTimesShift, 0)]
  }

  /// A number with fixed decimals, empty when it is not a number.
  static func cell(_ x: Double, _ digits: Int) -> String {
    x.isFinite ? NumberText.fixed(x, digits) : ""
  }
}
