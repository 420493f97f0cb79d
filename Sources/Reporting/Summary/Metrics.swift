import Measures
import SimKernel
import StudyModel

/// The summary metrics of one replication of one variant, by name (the rows of
/// `summary.csv`; documented in `docs/outputs.md`).
public enum Metrics {
  /// Names and values, in a fixed order.
  ///
  /// - Parameter schedules: the accumulator's scheduled and answered ``ScheduleSummary``s when
  ///   already computed (they are the costly part).
  public static func values(
    _ a: StudyAccumulator, schedules: (scheduled: ScheduleSummary, answered: ScheduleSummary)? = nil
  ) -> [(String, Double)] {
    func share(_ x: Int, _ of: Int) -> Double { of == 0 ? .nan : Double(x) / Double(of) }
    let s = schedules?.scheduled ?? a.scheduledTimes.summary()
    let answeredTimes = schedules?.answered ?? a.answeredTimes.summary()
    var out: [(String, Double)] = [
      ("participants", Double(a.participants)),
      ("signals_per_day", a.participantDays > 0 ? Double(a.scheduled) / a.participantDays : .nan),
      ("delivered_share", share(a.delivered, a.scheduled)),
      ("compliance", share(a.answered, a.scheduled)),
      ("response_rate", share(a.answered, a.delivered)),
      ("answers_received_share", share(a.answersReceived, a.answered)),
      ("median_latency_s", a.latency.quantile(0.5)),
      ("intensity_min_scheduled", a.scheduled > 0 ? s.intensityMin : .nan),
      ("intensity_max_scheduled", a.scheduled > 0 ? s.intensityMax : .nan),
      ("bits_per_signal_scheduled", s.bitsPerSignal),
      ("intensity_min_answered", a.answered > 0 ? answeredTimes.intensityMin : .nan),
      ("intensity_max_answered", a.answered > 0 ? answeredTimes.intensityMax : .nan),
      ("bits_per_signal_answered", answeredTimes.bitsPerSignal),
    ]
    for (k, sensor) in a.plan.protocolPlan.sensors.enumerated() {
      let t = a.tally(sensor: k)
      out += [
        ("coverage_comp_\(sensor.name)", share(t.comp, t.hours)),
        ("coverage_incomp_\(sensor.name)", share(t.incomp, t.hours)),
        ("coverage_loss_\(sensor.name)", share(t.loss, t.hours)),
        ("received_share_\(sensor.name)", share(t.received, t.expected)),
        // Volume (AWARE-iOS Table 4's row sizes): what the phone stores and uploads.
        ("rows_per_day_\(sensor.name)", a.participantDays > 0 ? Double(t.collected) / a.participantDays : .nan),
        (
          "megabytes_per_participant_\(sensor.name)",
          a.participants == 0 ? .nan : Double(t.collected) * Double(sensor.bytesPerRow) / 1e6 / Double(a.participants)
        ),
      ]
    }
    if !a.plan.protocolPlan.sensors.isEmpty {
      out += [("valid_minutes_ratio", a.yield.minuteRatio), ("valid_hours_ratio", a.yield.hourRatio)]
    }
    out += [
      ("bias", a.bias.meanOrNaN),
      ("bias_rmse", a.bias.rootMeanSquare),
      ("esm_mean", a.reportedMeans.meanOrNaN),
      ("true_mean", a.trueMeans.meanOrNaN),
      ("dropout_share", share(a.droppedOut, a.participants)),
      ("volunteered_per_participant", a.participants == 0 ? .nan : Double(a.volunteered) / Double(a.participants)),
    ]
    return out
  }
}

/// One row of `summary.csv`: a metric's mean over replications with its spread and 95 %
/// interval (Student's t; an interval needs two replications).
public struct SummaryRow: Sendable, Equatable {
  public var variant: String
  public var metric: String
  public var mean: Double
  public var sd: Double
  public var ciLow: Double
  public var ciHigh: Double
  public var n: Int

  /// The header of `summary.csv`.
  public static let header = ["variant", "metric", "mean", "sd", "ci_low", "ci_high", "n"]

  /// The rows of one variant from each replication's values (replications with a
  /// non-number for a metric do not count towards it).
  public static func rows(variant: String, replications: [[(String, Double)]]) -> [SummaryRow] {
    guard let first = replications.first else { return [] }
    return first.indices.map { k in
      let name = first[k].0
      var m = Moments()
      for r in replications { m.add(r[k].1) }
      var low = Double.nan
      var high = Double.nan
      if m.count >= 2, let t = try? GSL.studentTQuantile(0.975, degrees: Double(m.count - 1)) {
        let half = t * m.standardError
        low = m.mean - half
        high = m.mean + half
      }
      return SummaryRow(variant: variant, metric: name, mean: m.meanOrNaN, sd: m.sd, ciLow: low, ciHigh: high, n: m.count)
    }
  }

  /// The row as CSV cells.
  public var cells: [String] {
    [variant, metric, Self.cell(mean), Self.cell(sd), Self.cell(ciLow), Self.cell(ciHigh), String(n)]
  }

  static func cell(_ x: Double) -> String { x.isFinite ? NumberText.exact(x) : "" }

  /// The row as JSON.
  public var json: JSONValue {
    .object([
      ("variant", .string(variant)), ("metric", .string(metric)), ("mean", .finite(mean)), ("sd", .finite(sd)),
      ("ci_low", .finite(ciLow)), ("ci_high", .finite(ciHigh)), ("n", .int(n)),
    ])
  }
}
