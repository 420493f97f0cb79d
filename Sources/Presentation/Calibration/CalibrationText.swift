import Calibration
import Foundation
import Scenarios
import SimKernel
import Study
import StudyModel

/// `esmsim calibrate`'s text: the block to paste into a scenario, with what was read, the
/// protocol simulated, each estimate with its interval, what the pilot cannot identify and
/// the predictive check as YAML comments.
public enum CalibrationText {
  static func number(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "nan" }

  /// The whole text.
  public static func text(_ run: CalibrationRun) -> String {
    let m = run.moments
    let r = run.result
    var out = "# esmsim calibrate: \(m.people) participants, \(m.prompts.count) prompts recorded over \(m.days) days"
    out += " (\(run.format.rawValue)); answered \(number(m.rate))\n"
    for (reason, n) in run.pilot.leftOut.sorted(by: { $0.key < $1.key }) { out += "# left out: \(n) of \(reason)\n" }
    for (reason, n) in run.pilot.adjusted.sorted(by: { $0.key < $1.key }) { out += "# warning: kept \(n) \(reason)\n" }
    if let least = run.pilot.recording.keptAtLeast {
      out += "# the records hold only participants who answered at least \(number(least)) of their prompts: each simulation keeps the same (--kept-at-least)\n"
    }
    if let p = run.proposed {
      out += "# the pilot's protocol as its records show it (simulated; --propose prints it, --scenario replaces it):\n"
      for n in p.notes { out += "#   \(n)\n" }
    } else {
      out += "# the pilot's protocol and phones: \(run.scenario)\n"
    }
    out += "# estimates, all together (simulated moments), with their 95 % intervals (the sandwich; the pilot's moments resampled by participant)\n"
    out += fitLines(r, indent: "#   ")
    if let kept = r.keptShare {
      out += "# the simulation at the estimate keeps \(String(format: "%.0f", 100 * kept)) % of its participants with a recorded prompt: the rule left out the rest, as the model extrapolates those the records do not show (how many and how low); set it against how many took part\n"
    }
    out += "# moments, the pilot's against the simulation's at the estimate (standard error)\n"
    out += momentLines(r, indent: "#   ")
    out += misfitLines(r)
    out += "# not identified by this pilot:\n"
    for n in r.notIdentified { out += "#   \(n)\n" }
    if let c = run.check { out += checkTable(c) }
    out += block(r.compliance)
    return out
  }

  /// Each estimate with its interval, the hour odds' after them, a line each.
  static func fitLines(_ r: Calibrator.Result, indent: String) -> String {
    var out = ""
    for e in r.estimates {
      out += "\(indent)\(e.key): \(number(e.value)) [\(number(e.low)), \(number(e.high))]"
      out += e.atBound ? " (\(e.reason))\n" : "\n"
    }
    for h in r.hours {
      let (lo, hi) = (h.value * exp(-1.96 * h.standardError), h.value * exp(1.96 * h.standardError))
      let interval = lo.isFinite && hi.isFinite ? "[\(number(lo)), \(number(hi))]" : "(no interval: none or all of the hour's prompts answered)"
      out += "\(indent)hour_odds[\(h.hour)]: \(number(h.value)) \(interval); \(r.hourCounts[h.hour] ?? 0) prompts\n"
    }
    return out
  }

  /// Each moment, the pilot's against the simulation's at the estimate, a line each.
  static func momentLines(_ r: Calibrator.Result, indent: String) -> String {
    r.moments.map { "\(indent)\($0.name): \(number($0.pilot)) vs \(number($0.simulated)) (\(number($0.standardError)))\n" }.joined()
  }

  /// How many standard errors apart a moment of the pilot and of the simulation at the
  /// estimate may lie before the fit is said not to reproduce it (a fitted moment lies within
  /// about 2; a pilot with one answer in 280 lay 6 apart, unsaid).
  static let misfitStandardErrors = 3.0

  /// A warning for each moment the estimate does not reproduce.
  static func misfitLines(_ r: Calibrator.Result) -> String {
    r.moments.compactMap { m -> String? in
      guard m.standardError.isFinite, m.standardError > 0, m.pilot.isFinite, m.simulated.isFinite else { return nil }
      let apart = abs(m.pilot - m.simulated) / m.standardError
      guard apart > misfitStandardErrors else { return nil }
      return "# warning: the estimate does not reproduce the pilot's \(m.name) (\(number(m.pilot)) against \(number(m.simulated)) simulated, \(String(format: "%.1f", apart)) standard errors apart): the model cannot show these records, or the search stopped short (more --evaluations); read the estimates with care\n"
    }.joined()
  }

  /// The fitted people as JSON (what the block says, as numbers and a list of classes), for
  /// programs that combine calibrations (`scripts/validate_real.py`).
  public static func fitted(_ c: CompliancePlan) -> JSONValue {
    var pairs: [(String, JSONValue)] = []
    if let p = c.answerProbability { pairs.append(("answer_probability", .finite(p))) }
    pairs.append(
      (
        "classes",
        .array(
          c.classes.map {
            .object([
              ("name", .string($0.name)), ("share", .finite($0.share)), ("level", .finite($0.level)), ("spread", .finite($0.spread)),
              ("weekly_change", .finite($0.weeklyChange)), ("weekly_change_sd", .finite($0.weeklyChangeSD)),
            ])
          })
      ))
    pairs += paceAndTrends(c).map { ($0.key, .finite($0.value)) } + [("hour_odds", .array(c.hourOdds.map { .finite($0) }))]
    return .object(pairs)
  }

  /// The block's numbers after the classes, in the block's order (the JSON and the YAML).
  static func paceAndTrends(_ c: CompliancePlan) -> [(key: String, value: Double)] {
    [
      ("first_days_change", c.firstDaysChange), ("miss_persistence", c.missPersistence), ("looks_per_hour", c.looksPerHour),
      ("alert_odds", c.alertOdds), ("at_once", c.atOnce), ("at_once_weekly_change", c.atOnceWeeklyChange),
      ("at_once_seconds", c.atOnceSeconds), ("reaction_seconds", c.reactionSeconds), ("busy", c.busy),
      ("deferral_shape", c.deferralShape), ("break_off_per_minute", c.breakOffPerMinute),
    ] + (c.chargeNightly.map { [("charge_nightly", $0)] } ?? [])
  }

  /// The `population.compliance` block a calibration writes: every class it fitted, the
  /// level's mean, the trends, the pace and the clustering.
  public static func block(_ c: CompliancePlan) -> String {
    var out = "population:\n  compliance:\n"
    if let p = c.answerProbability { out += "    answer_probability: \(number(p))\n" }
    out += "    classes:\n"
    for k in c.classes {
      out += "      - {name: \"\(k.name)\", share: \(number(k.share)), level: \(number(k.level)), spread: \(number(k.spread)), "
      out += "weekly_change: \(number(k.weeklyChange)), weekly_change_sd: \(number(k.weeklyChangeSD))}\n"
    }
    for (key, value) in paceAndTrends(c) { out += "    \(key): \(number(value))\n" }
    out += "    hour_odds: [\(c.hourOdds.map { String(format: "%.3f", $0) }.joined(separator: ", "))]\n"
    return out
  }

  /// A figure's value as the table shows it: shares in percent, minutes with one decimal.
  static func shown(_ f: PredictiveCheck.Figure, _ x: Double) -> String {
    guard x.isFinite else { return "-" }
    if case .wait = f { return NumberText.fixed(x, 1) }
    return NumberText.fixed(100 * x, 1)
  }

  /// The check as comment lines.
  static func checkTable(_ c: PredictiveCheck) -> String {
    var out = "# predictive check (--holdout \(c.holdout)): fitted on \(c.fitPrompts) prompts, checked on \(c.checkPrompts)"
    out += " (\(c.checkParticipants) participants); each prediction from \(c.simulations) simulations\n"
    out += "#   " + "figure".padding(toLength: 26, withPad: " ", startingAt: 0) + "  observed  predicted  95 % interval   inside\n"
    for row in c.rows {
      let f = row.figure.key.padding(toLength: 26, withPad: " ", startingAt: 0)
      let o = shown(row.figure, row.observed)
      let p = shown(row.figure, row.predicted)
      let i = "[\(shown(row.figure, row.low)), \(shown(row.figure, row.high))]"
      out += "#   \(f)  \(String(repeating: " ", count: max(8 - o.count, 0)))\(o)  \(String(repeating: " ", count: max(9 - p.count, 0)))\(p)  "
      out += i.padding(toLength: 15, withPad: " ", startingAt: 0) + "  " + (row.observed.isFinite ? (row.inside ? "yes" : "no") : "-") + "\n"
    }
    let (k, n) = c.inside
    out += "#   \(k) of \(n) observed figures inside their 95 % prediction interval (shares in %, waits in minutes)\n"
    out += "#   the fit on the part kept, which the predictions draw from (its estimates; its moments, the part's against the simulation's; what it cannot identify):\n"
    out += fitLines(c.fit, indent: "#     ")
    out += momentLines(c.fit, indent: "#     ")
    for n in c.fit.notIdentified { out += "#     not identified: \(n)\n" }
    return out
  }
}
