import Presentation
import Study
import Foundation
import Measures
import Reporting
import Scenarios

/// What `esmsim run` prints when it is done: the headline metrics of each variant.
enum ConsoleSummary {
  static let headline = [
    ("signals_per_day", "signals/day", 2), ("delivered_share", "delivered", 3), ("compliance", "answered", 3),
    ("median_latency_s", "latency s", 0), ("intensity_min_scheduled", "int min", 2), ("bits_per_signal_scheduled", "bits/sig", 2),
    ("bias", "bias", 2),
  ]

  static func text(_ s: Scenario, _ o: StudyRun.Outcome, directory: String) -> String {
    var rows = [["variant"] + headline.map(\.1)]
    var unstable = false
    // Each variant's rows by metric, looked up once each (a linear pass, whatever the size).
    var byVariant: [String: [String: SummaryRow]] = [:]
    for r in o.summary { byVariant[r.variant, default: [:]][r.metric] = r }
    for v in s.variants {
      var row = [v.name]
      let summary = byVariant[v.name] ?? [:]
      // Predictability from too few held-out days is overstated: marked, with a note below.
      let stable = summary["predictability_stable"].map { $0.mean >= 1 } ?? true
      for (metric, _, digits) in headline {
        let r = summary[metric]
        var cell = r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, digits) : "-" } ?? "-"
        if metric == "bits_per_signal_scheduled" && !stable && cell != "-" {
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
      for v in s.variants {
        var row = [v.name]
        for sensor in sensors {
          let r = byVariant[v.name]?["coverage_comp_\(sensor)"]
          row.append(r.map { $0.mean.isFinite ? NumberText.fixed($0.mean, 3) : "-" } ?? "-")
        }
        sensorRows.append(row)
      }
    }
    // Each questionnaire apart, when a variant has several.
    var questionnaireRows: [[String]] = []
    for v in s.variants where v.plan.protocolPlan.questionnaires.count > 1 {
      if questionnaireRows.isEmpty {
        questionnaireRows.append(["variant", "questionnaire", "signals/day", "sd/day", "delivered", "answered", "answers/pp"])
      }
      for q in v.plan.protocolPlan.questionnaires {
        var row = [v.name, q]
        for (metric, digits) in [
          ("signals_per_day", 2), ("signals_per_day_sd", 2), ("delivered_share", 3), ("compliance", 3),
          ("answers_per_participant", 1),
        ] {
          let r = byVariant[v.name]?["\(metric)_\(q)"]
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
