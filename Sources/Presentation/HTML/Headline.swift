import Measures
import Study
import StudyModel

extension Report {
  /// A variant's headline card, from its summary (the figures of `summary.csv`): answers
  /// per participant (median, 10th–90th percentile) against the prompts scheduled, the share
  /// reaching the answers target, prompts answered, the largest source of loss, and the
  /// first sensor's complete hours.
  public static func headline(_ v: VariantResults) -> String {
    guard !v.answersPerParticipant.isEmpty else { return "" }
    func whole(_ m: Metric) -> String { v[m].map { NumberText.fixed($0.mean, 0) } ?? "" }
    let scheduled = v.scheduledPerParticipant.sorted()
    var rows: [(String, String, String)] = [
      ("Answers per participant", "median \(whole(.answersPerParticipantMedian))"
        + (scheduled.isEmpty ? "" : " of \(scheduled[scheduled.count / 2]) prompts")
        + " (10th–90th percentile \(whole(.answersPerParticipantP10))–\(whole(.answersPerParticipantP90)))", "answers-median"),
      ("Reaching \(v.target) answers", pct(v.mean(.shareReachingTarget)) + " of participants", "target-share"),
      // summary.csv's compliance (the mean over replications), not the pooled counts' share.
      ("Prompts answered", pct(v.mean(.compliance)), "answered"),
    ]
    if v.defaultPeople, case let share = v.mean(.compliance), share.isFinite {
      // The default people's share is one study's; real studies spread around it.
      let r = BetweenStudies.range(around: share)
      rows.append(("Between real studies", "\(pct(r.lowerBound))–\(pct(r.upperBound)): a real study's answered share, 95 % of the time, "
        + "around that of esmsim's default people (\(BetweenStudies.halfWidth); \(BetweenStudies.studies) studies, docs/validation.md)",
        "between-studies"))
    }
    if let top = v.missedOfScheduled.max(by: { $0.count < $1.count }), top.count > 0, v.scheduled > 0 {
      rows.append(("Largest loss", "\(top.reason.label): \(pct(Double(top.count) / Double(v.scheduled))) of prompts", "loss"))
    }
    if let c = v.sensorComplete {
      rows.append(("\(c.sensor.capitalized) hours complete", pct(c.comp), "coverage"))
    }
    return "<div class='card'><h3>\(HTML.escape(Labels.variant(v.name)))</h3><dl>"
      + rows.map { "<dt>\(HTML.escape($0.0))</dt><dd data-k='\($0.2)'>\(HTML.escape($0.1))</dd>" }.joined() + "</dl></div>"
  }
}
