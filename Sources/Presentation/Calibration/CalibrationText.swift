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
    if let p = run.proposed {
      out += "# the pilot's protocol as its records show it (simulated; --propose prints it, --scenario replaces it):\n"
      for n in p.notes { out += "#   \(n)\n" }
    } else {
      out += "# the pilot's protocol and phones: \(run.scenario)\n"
    }
    out += "# estimate [95 % bootstrap interval]; the pilot's moment, the simulation's at the estimate\n"
    for e in r.estimates {
      out += "#   \(e.key): \(number(e.value)) [\(number(e.low)), \(number(e.high))]; moment \(number(e.pilotMoment)) vs \(number(e.simulatedMoment))"
      out += e.atBound ? " (at the edge of its range: the model does not reach the pilot's moment)\n" : "\n"
    }
    for h in r.hours {
      out += "#   hour_multipliers[\(h.hour)]: \(number(h.value)) [\(number(h.value - 1.96 * h.standardError)), \(number(h.value + 1.96 * h.standardError))]; \(r.hourCounts[h.hour] ?? 0) prompts\n"
    }
    out += "# not identified by this pilot:\n"
    for n in r.notIdentified { out += "#   \(n)\n" }
    if let c = run.check { out += checkTable(c) }
    let c = r.compliance
    out += "population:\n  compliance:\n"
    out += "    answer_probability: \(number(c.answerProbability))\n"
    out += "    person_sd: \(number(c.personSD))\n"
    out += "    decline_per_week: \(number(c.declinePerWeek))\n"
    out += "    decline_sd: \(number(c.declineSD))\n"
    out += "    miss_persistence: \(number(c.missPersistence))\n"
    out += "    open_delay: \(Int(Tick.inSeconds(c.openDelay).rounded()))s\n"
    out += "    open_delay_sigma: \(number(c.openDelaySigma))\n"
    out += "    speed_sd: \(number(c.speedSD))\n"
    out += "    break_off_per_minute: \(number(c.breakOffPerMinute))\n"
    out += "    hour_multipliers: [\(c.hourMultipliers.map { String(format: "%.3f", $0) }.joined(separator: ", "))]\n"
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
    return out
  }
}
