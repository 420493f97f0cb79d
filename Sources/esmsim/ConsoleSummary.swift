import Presentation
import Study
import Foundation
import Measures
import Reporting
import Scenarios
import StudyModel

/// What `esmsim run` prints when it is done: the headline metrics of each variant.
enum ConsoleSummary {
  static let headline: [(Metric, String, Int)] = [
    (.signalsPerDay, "signals/day", 2), (.deliveredShare, "delivered", 3), (.compliance, "answered", 3),
    (.medianLatency, "latency s", 0), (.intensityMinScheduled, "int min", 2), (.bitsPerSignalScheduled, "bits/sig", 2),
    (.bias, "bias", 2),
  ]

  static func text(_ s: Scenario, _ o: StudyRun.Outcome, directory: String) -> String {
    let (rows, unstable) = headlineRows(s, o)
    let sensorRows = sensorRows(s, o)
    let questionnaireRows = questionnaireRows(s, o)
    var out = "\(s.name): \(NumberText.fixed(o.participantDays, 0)) participant-days, \(o.events) events simulated\n\n"
    let prompted = s.variants.contains { !$0.plan.protocolPlan.schedules.isEmpty }
    if prompted { out += TextTable.render(rows) }
    if prompted && unstable {
      out += "* predictability from fewer than \(ScheduleSummary.stableHeldOutDays) held-out days: overstated (docs/schedules.md)\n"
    }
    if prompted, let note = betweenStudiesNote(o) { out += note }
    if !questionnaireRows.isEmpty { out += "\n" + TextTable.render(questionnaireRows) }
    if !sensorRows.isEmpty { out += (prompted ? "\n" : "") + TextTable.render(sensorRows) }
    out += "\nResults in \(directory)/ (\(o.files.joined(separator: ", ")))\n"
    return out
  }

  /// Where variants use esmsim's default people, that their answered share is one study's:
  /// real studies spread around it (``BetweenStudies``), each such variant's range said. Nil
  /// where none does.
  static func betweenStudiesNote(_ o: StudyRun.Outcome) -> String? {
    // The results say whether a variant's people are the default (VariantResults.defaultPeople).
    let ranges = o.variants.compactMap { v -> String? in
      let share = v.mean(.compliance)
      guard v.defaultPeople, share.isFinite else { return nil }
      let r = BetweenStudies.range(around: share)
      return "\(v.name) \(NumberText.fixed(r.lowerBound, 3))–\(NumberText.fixed(r.upperBound, 3))"
    }
    guard !ranges.isEmpty else { return nil }
    return "answered by esmsim's default people: a real study's answered share lies within \(BetweenStudies.halfWidth) of theirs\n"
      + "95 % of the time (\(BetweenStudies.studies) real studies, docs/validation.md): \(ranges.joined(separator: ", "))\n"
  }

  /// A metric's mean with `digits` decimals, "-" when missing or not finite.
  static func cell(_ r: SummaryRow?, _ digits: Int) -> String {
    r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, digits) : "-" } ?? "-"
  }

  /// The headline table, and whether a variant's predictability rests on too few held-out days
  /// (marked *, with a note below).
  static func headlineRows(_ s: Scenario, _ o: StudyRun.Outcome) -> (rows: [[String]], unstable: Bool) {
    var rows = [["variant"] + headline.map(\.1)]
    var unstable = false
    for (k, v) in s.variants.enumerated() {
      var row = [v.name]
      let results = o.variants[k]
      let stable = results[.predictabilityStable].map { $0.mean >= 1 } ?? true
      for (metric, _, digits) in headline {
        var cell = cell(results[metric], digits)
        if metric == .bitsPerSignalScheduled && !stable && cell != "-" {
          cell += "*"
          unstable = true
        }
        row.append(cell)
      }
      rows.append(row)
    }
    return (rows, unstable)
  }

  /// Coverage of each sensor, if any.
  static func sensorRows(_ s: Scenario, _ o: StudyRun.Outcome) -> [[String]] {
    let sensors = s.variants.first?.plan.protocolPlan.sensors.map(\.name) ?? []
    guard !sensors.isEmpty else { return [] }
    var rows = [["variant"] + sensors.map { "\($0) comp" }]
    for (k, v) in s.variants.enumerated() {
      rows.append([v.name] + sensors.map { cell(o.variants[k][.coverageComp($0)], 3) })
    }
    return rows
  }

  /// Each questionnaire apart, when a variant has several.
  static func questionnaireRows(_ s: Scenario, _ o: StudyRun.Outcome) -> [[String]] {
    let metrics: [(Metric, Int)] = [
      (.signalsPerDay, 2), (.signalsPerDaySD, 2), (.deliveredShare, 3), (.compliance, 3), (.answersPerParticipant, 1),
    ]
    var rows: [[String]] = []
    for (k, v) in s.variants.enumerated() where v.plan.protocolPlan.questionnaires.count > 1 {
      if rows.isEmpty {
        rows.append(["variant", "questionnaire", "signals/day", "sd/day", "delivered", "answered", "answers/pp"])
      }
      for q in v.plan.protocolPlan.questionnaires {
        rows.append([v.name, q] + metrics.map { cell(o.variants[k][$0.0.of(questionnaire: q)], $0.1) })
      }
    }
    return rows
  }
}
