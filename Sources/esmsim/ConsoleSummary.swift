import Presentation
import Study
import Foundation
import Measures
import Reporting
import Scenarios

/// What `esmsim run` prints when it is done: the headline metrics of each variant.
enum ConsoleSummary {
  static let headline: [(Metric, String, Int)] = [
    (.signalsPerDay, "signals/day", 2), (.deliveredShare, "delivered", 3), (.compliance, "answered", 3),
    (.medianLatency, "latency s", 0), (.intensityMinScheduled, "int min", 2), (.bitsPerSignalScheduled, "bits/sig", 2),
    (.bias, "bias", 2),
  ]

  static func text(_ s: Scenario, _ o: StudyRun.Outcome, directory: String) -> String {
    var rows = [["variant"] + headline.map(\.1)]
    var unstable = false
    for (k, v) in s.variants.enumerated() {
      var row = [v.name]
      let results = o.variants[k]
      // Predictability from too few held-out days is overstated: marked, with a note below.
      let stable = results[.predictabilityStable].map { $0.mean >= 1 } ?? true
      for (metric, _, digits) in headline {
        let r = results[metric]
        var cell = r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, digits) : "-" } ?? "-"
        if metric == .bitsPerSignalScheduled && !stable && cell != "-" {
          cell += "*"
          unstable = true
        }
        row.append(cell)
      }
      rows.append(row)
    }
    // Coverage of each sensor, if any.
    var sensorRows: [[String]] = []
    let sensors = s.variants.first?.plan.protocolPlan.sensors.map(\.name) ?? []
    if !sensors.isEmpty {
      sensorRows.append(["variant"] + sensors.map { "\($0) comp" })
      for (k, v) in s.variants.enumerated() {
        var row = [v.name]
        for sensor in sensors {
          let r = o.variants[k][.coverageComp(sensor)]
          row.append(r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, 3) : "-" } ?? "-")
        }
        sensorRows.append(row)
      }
    }
    // Each questionnaire apart, when a variant has several.
    var questionnaireRows: [[String]] = []
    for (k, v) in s.variants.enumerated() where v.plan.protocolPlan.questionnaires.count > 1 {
      if questionnaireRows.isEmpty {
        questionnaireRows.append(["variant", "questionnaire", "signals/day", "sd/day", "delivered", "answered", "answers/pp"])
      }
      for q in v.plan.protocolPlan.questionnaires {
        var row = [v.name, q]
        let metrics: [(Metric, Int)] = [
          (.signalsPerDay, 2), (.signalsPerDaySD, 2), (.deliveredShare, 3), (.compliance, 3), (.answersPerParticipant, 1),
        ]
        for (metric, digits) in metrics {
          let r = o.variants[k][metric.of(questionnaire: q)]
          row.append(r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, digits) : "-" } ?? "-")
        }
        questionnaireRows.append(row)
      }
    }
    var out = "\(s.name): \(NumberText.fixed(o.participantDays, 0)) participant-days, \(o.events) events simulated\n\n"
    let prompted = s.variants.contains { !$0.plan.protocolPlan.schedules.isEmpty }
    if prompted { out += TextTable.render(rows) }
    if prompted && unstable {
      out += "* predictability from fewer than \(ScheduleSummary.stableHeldOutDays) held-out days: overstated (docs/schedules.md)\n"
    }
    if !questionnaireRows.isEmpty { out += "\n" + TextTable.render(questionnaireRows) }
    if !sensorRows.isEmpty { out += (prompted ? "\n" : "") + TextTable.render(sensorRows) }
    out += "\nResults in \(directory)/ (\(o.files.joined(separator: ", ")))\n"
    return out
  }
}
