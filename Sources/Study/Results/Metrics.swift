import Measures
import SimKernel
import StudyModel

/// The summary metrics of one replication of one variant, by name (the rows of
/// `summary.csv`; documented in `docs/outputs.md`).
public enum Metrics {
  /// Names and values, in a fixed order; the metrics pooled over participants carry their
  /// standard error over participants (``Estimate``), the rest none.
  ///
  /// - Parameter schedules: the accumulator's scheduled and answered ``ScheduleSummary``s when
  ///   already computed (they are the costly part).
  public static func values(
    _ a: StudyAccumulator, schedules: (scheduled: ScheduleSummary, answered: ScheduleSummary)? = nil
  ) -> [(String, Estimate)] {
    func share(_ x: Int, _ of: Int) -> Double { of == 0 ? .nan : Double(x) / Double(of) }
    func plain(_ x: Double) -> Estimate { Estimate(x) }
    let rows = a.participantRows
    func ratio(_ y: (ParticipantRow) -> Int, _ x: (ParticipantRow) -> Int) -> Estimate {
      Estimate.ratio(rows.map { (Double(y($0)), Double(x($0))) })
    }
    let s = schedules?.scheduled ?? a.scheduledTimes.summary()
    let answeredTimes = schedules?.answered ?? a.answeredTimes.summary()
    var out: [(String, Estimate)] = [
      ("participants", plain(Double(a.participants))),
      ("signals_per_day", plain(a.participantDays > 0 ? Double(a.scheduled) / a.participantDays : .nan)),
      ("signals_per_day_sd", plain(perDaySD(rows.map(\.prompts)))),
      ("delivered_share", ratio(\.delivered, \.counted)),
      ("compliance", ratio(\.completed, \.counted)),
      ("response_rate", ratio(\.completed, \.delivered)),
      ("answers_received_share", plain(share(a.answersReceived, a.answered))),
      ("median_latency_s", plain(a.latency.quantile(0.5))),
      ("intensity_min_scheduled", plain(a.scheduled > 0 ? s.intensityMin : .nan)),
      ("intensity_max_scheduled", plain(a.scheduled > 0 ? s.intensityMax : .nan)),
      ("bits_per_signal_scheduled", plain(s.bitsPerSignal)),
      ("intensity_min_answered", plain(a.answered > 0 ? answeredTimes.intensityMin : .nan)),
      ("intensity_max_answered", plain(a.answered > 0 ? answeredTimes.intensityMax : .nan)),
      ("bits_per_signal_answered", plain(answeredTimes.bitsPerSignal)),
      ("predictability_held_out_days", plain(Double(s.heldOutDays))),
      ("predictability_stable", plain(s.predictabilityIsStable ? 1 : 0)),
    ]
    for (k, sensor) in a.plan.protocolPlan.sensors.enumerated() {
      let t = a.tally(sensor: k)
      out += [
        ("coverage_comp_\(sensor.name)", ratio({ $0.tallies[k].comp }, { $0.tallies[k].hours })),
        ("coverage_incomp_\(sensor.name)", ratio({ $0.tallies[k].incomp }, { $0.tallies[k].hours })),
        ("coverage_loss_\(sensor.name)", ratio({ $0.tallies[k].loss }, { $0.tallies[k].hours })),
        ("received_share_\(sensor.name)", ratio({ $0.tallies[k].received }, { $0.tallies[k].expected })),
        // Volume (AWARE-iOS Table 4's row sizes): what the phone stores and uploads.
        ("rows_per_day_\(sensor.name)", plain(a.participantDays > 0 ? Double(t.collected) / a.participantDays : .nan)),
        (
          "megabytes_per_participant_\(sensor.name)",
          plain(a.participants == 0 ? .nan : Double(t.collected) * Double(sensor.bytesPerRow) / 1e6 / Double(a.participants))
        ),
      ]
    }
    if !a.plan.protocolPlan.sensors.isEmpty {
      out += [("valid_minutes_ratio", plain(a.yield.minuteRatio)), ("valid_hours_ratio", plain(a.yield.hourRatio))]
    }
    // Answers per participant: what planners size a study by (every participant, dropouts too).
    let answers = rows.map { Double($0.completed) }
    let target = a.plan.protocolPlan.answersTarget
    out += [
      ("bias", Estimate(a.bias)),
      ("bias_rmse", plain(a.bias.rootMeanSquare)),
      ("esm_mean", Estimate(a.reportedMeans)),
      ("true_mean", Estimate(a.trueMeans)),
      ("dropout_share", .mean(rows.map { $0.droppedOut ? 1 : 0 })),
      ("volunteered_per_participant", .mean(rows.map { Double($0.volunteered) })),
      ("answers_per_participant", .mean(answers)),
      ("answers_per_participant_p10", plain(Estimate.quantile(answers, 0.1))),
      ("answers_per_participant_median", plain(Estimate.quantile(answers, 0.5))),
      ("answers_per_participant_p90", plain(Estimate.quantile(answers, 0.9))),
      ("share_reaching_answers_target", .mean(rows.map { $0.completed >= target ? 1 : 0 })),
    ]
    // Each questionnaire apart, when there are several.
    let names = a.plan.protocolPlan.questionnaires
    if names.count > 1 {
      for (q, name) in names.enumerated() {
        let tallies = rows.map { $0.questionnaires[q] }
        let counted = tallies.reduce(0) { $0 + $1.counted }
        out += [
          ("signals_per_day_\(name)", plain(a.participantDays > 0 ? Double(counted) / a.participantDays : .nan)),
          ("signals_per_day_sd_\(name)", plain(perDaySD(tallies))),
          ("delivered_share_\(name)", ratio({ $0.questionnaires[q].delivered }, { $0.questionnaires[q].counted })),
          ("compliance_\(name)", ratio({ $0.questionnaires[q].completed }, { $0.questionnaires[q].counted })),
          ("answers_per_participant_\(name)", .mean(tallies.map { Double($0.completed) })),
        ]
      }
    }
    return out
  }

  /// The standard deviation of the prompts a day over every enrolled participant-day (how
  /// much event-contingent prompting varies from day to day and person to person), from the
  /// tallies' exact integer sums.
  static func perDaySD(_ tallies: [QuestionnaireTally]) -> Double {
    let n = tallies.reduce(0) { $0 + $1.days }
    guard n > 1 else { return .nan }
    let sum = Double(tallies.reduce(0) { $0 + $1.perDaySum })
    let squares = Double(tallies.reduce(0) { $0 + $1.perDaySquares })
    return max((squares - sum * sum / Double(n)) / Double(n - 1), 0).squareRoot()
  }
}

/// One row of `summary.csv`: a metric's mean over replications with its spread and 95 %
/// interval across them (Student's t; an interval needs two replications), and the 95 %
/// interval over participants (from one replication on: the participants' standard errors
/// of the replications combined, √Σse²/R, Student's t with the participants' degrees of
/// freedom), for the metrics pooled over participants.
public struct SummaryRow: Sendable, Equatable {
  public var variant: String
  public var metric: String
  public var mean: Double
  public var sd: Double
  public var ciLow: Double
  public var ciHigh: Double
  public var n: Int
  /// The interval over participants (nan for a metric not pooled over participants).
  public var participantLow: Double
  public var participantHigh: Double

  /// The header of `summary.csv`.
  public static let header = [
    "variant", "metric", "mean", "sd", "ci_low", "ci_high", "n", "participant_ci_low", "participant_ci_high",
  ]

  /// The rows of one variant from each replication's values (replications with a
  /// non-number for a metric do not count towards it).
  public static func rows(variant: String, replications: [[(String, Estimate)]]) -> [SummaryRow] {
    guard let first = replications.first else { return [] }
    return first.indices.map { k in
      let name = first[k].0
      var m = Moments()
      var variance = 0.0
      var degrees = 0
      var withError = 0
      for r in replications where r[k].1.value.isFinite {
        m.add(r[k].1.value)
        if r[k].1.standardError.isFinite && r[k].1.degrees > 0 {
          variance += r[k].1.standardError * r[k].1.standardError
          degrees += r[k].1.degrees
          withError += 1
        }
      }
      var low = Double.nan
      var high = Double.nan
      if m.count >= 2, let t = try? GSL.studentTQuantile(0.975, degrees: Double(m.count - 1)) {
        let half = t * m.standardError
        low = m.mean - half
        high = m.mean + half
      }
      var pLow = Double.nan
      var pHigh = Double.nan
      if withError == m.count && withError > 0, let t = try? GSL.studentTQuantile(0.975, degrees: Double(degrees)) {
        let half = t * variance.squareRoot() / Double(withError)
        pLow = m.mean - half
        pHigh = m.mean + half
      }
      return SummaryRow(
        variant: variant, metric: name, mean: m.meanOrNaN, sd: m.sd, ciLow: low, ciHigh: high, n: m.count,
        participantLow: pLow, participantHigh: pHigh)
    }
  }
}
