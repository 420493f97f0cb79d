import Study
import Presentation
import Measures
import Schedules

/// The rows of `esmsim schedule compare` as a table or JSON.
public enum ScheduleComparisonText {
  /// The JSON keys, in order (documented in `docs/schedules.md`).
  public static let keys = [
    "algorithm", "gap_method", "signals_per_day", "intensity_min", "intensity_max", "ks_d", "ks_p", "min_gap",
    "share_gaps_under_60", "max_gap", "zero_signal_day_share", "bits_per_signal", "bits_per_day",
    "forced_share", "max_hazard", "held_out_days", "predictability_stable",
  ]

  /// An array of objects, one per algorithm.
  public static func json(_ rows: [(AnyScheduler, ScheduleSummary)]) -> JSONValue {
    .array(
      rows.map { scheduler, s in
        .object([
          ("algorithm", .string(scheduler.name.rawValue)),
          ("gap_method", scheduler.gapMethod.map { .string($0.rawValue) } ?? .null),
          ("signals_per_day", .finite(s.signalsPerDay)),
          ("intensity_min", .finite(s.intensityMin)), ("intensity_max", .finite(s.intensityMax)),
          ("ks_d", .finite(s.ksD)), ("ks_p", .finite(s.ksP)), ("min_gap", .finite(s.minGap)),
          ("share_gaps_under_60", .finite(s.shareGapsUnder60)), ("max_gap", .finite(s.maxGap)),
          ("zero_signal_day_share", .finite(s.zeroSignalDayShare)),
          ("bits_per_signal", .finite(s.bitsPerSignal)), ("bits_per_day", .finite(s.bitsPerDay)),
          ("forced_share", .finite(s.forcedShare)), ("max_hazard", .finite(s.maxHazard)),
          ("held_out_days", .int(s.heldOutDays)), ("predictability_stable", .bool(s.predictabilityIsStable)),
        ])
      })
  }

  /// A fixed-width table. `stableDays`: the days to draw for stable predictability (twice
  /// ``ScheduleSummary/stableHeldOutDays`` days the schedule runs on; nil: more than can be
  /// drawn).
  public static func table(
    _ rows: [(AnyScheduler, ScheduleSummary)], stableDays: Int? = 2 * ScheduleSummary.stableHeldOutDays
  ) -> String {
    let header = [
      "algorithm", "gap method", "sig/day", "int min", "int max", "KS D", "KS p", "min gap", "<60 min",
      "max gap", "0-days", "bits/sig", "bits/day", "forced", "max haz",
    ]
    var cells = [header]
    for (scheduler, s) in rows {
      cells.append([
        scheduler.name.rawValue, scheduler.gapMethod?.rawValue ?? "-", NumberText.fixed(s.signalsPerDay, 2),
        NumberText.fixed(s.intensityMin, 2), NumberText.fixed(s.intensityMax, 2), NumberText.fixed(s.ksD, 4),
        pValue(s.ksP), NumberText.fixed(s.minGap, 1), NumberText.fixed(s.shareGapsUnder60, 3),
        NumberText.fixed(s.maxGap, 1), NumberText.fixed(s.zeroSignalDayShare, 3),
        NumberText.fixed(s.bitsPerSignal, 2) + (s.predictabilityIsStable ? "" : "*"), NumberText.fixed(s.bitsPerDay, 2),
        NumberText.fixed(s.forcedShare, 3), NumberText.fixed(s.maxHazard, 3),
      ])
    }
    var out = TextTable.render(cells, leftAligned: 2)
    if let s = rows.first?.1, !s.predictabilityIsStable {
      out += "* predictability from \(s.heldOutDays) held-out days, fewer than \(ScheduleSummary.stableHeldOutDays): overstated; "
        + (stableDays.map { "--days \($0) or more for stable figures\n" } ?? "more days for stable figures\n")
    }
    return out
  }

  /// A p-value readable at a glance: fixed decimals, or "<1e-N" when tiny.
  static func pValue(_ p: Double) -> String {
    guard p.isFinite else { return "nan" }
    if p >= 0.0001 { return NumberText.fixed(p, 4) }
    var k = 4
    var bound = 1e-4
    while p < bound / 10 && k < 300 {
      bound /= 10
      k += 1
    }
    return "<1e-\(k)"
  }
}

/// Plain-text tables with aligned columns.
public enum TextTable {
  /// Renders rows of cells; the first `leftAligned` columns align left, the rest right.
  public static func render(_ rows: [[String]], leftAligned: Int = 1) -> String {
    guard let columns = rows.first?.count else { return "" }
    var widths = Array(repeating: 0, count: columns)
    for row in rows { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
    var out = ""
    for (r, row) in rows.enumerated() {
      let line = row.enumerated().map { i, c in
        let pad = String(repeating: " ", count: widths[i] - c.count)
        return i < leftAligned ? c + pad : pad + c
      }.joined(separator: "  ")
      out += line.trimmingTrailing() + "\n"
      if r == 0 {
        out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
      }
    }
    return out
  }
}

extension String {
  fileprivate func trimmingTrailing() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}
