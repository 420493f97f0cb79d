import Calibration
import Foundation
import Scenarios
import Study

/// `esmsim calibrate`'s page (beside `--output`): the estimates, and with a holdout the
/// predictive check drawn: each held-out figure observed (a dot, red outside its interval)
/// against its prediction (a tick) and 95 % interval (a whisker), by hour, by study day,
/// across participants and in the time to open; every figure in a table.
public enum CalibrationPage {
  public static func html(_ run: CalibrationRun) -> String {
    let m = run.moments
    var body = "<h1>Calibration of the pilot</h1>"
    body +=
      "<p class='note'>\(m.people) participants, \(m.prompts.count) prompts recorded over \(m.days) days (\(HTML.escape(run.format.rawValue))), \(NumberText.fixed(100 * m.rate, 1)) % answered. "
      + "Protocol simulated: \(HTML.escape(run.proposed == nil ? run.scenario : "as the records show it"))</p>"
    if let p = run.proposed {
      body += "<ul class='note'>" + p.notes.map { "<li>\(HTML.escape($0))</li>" }.joined() + "</ul>"
    }
    if let least = run.pilot.recording.keptAtLeast {
      body += "<p class='note'>The records hold only participants who answered at least \(NumberText.fixed(100 * least, 1)) % of their prompts: each simulation keeps the same"
      if let kept = run.result.keptShare { body += "; the simulation at the estimate keeps \(NumberText.fixed(100 * kept, 0)) % of its participants" }
      body += ".</p>"
    }
    body += fitTables(run.result, heading: "h2")
    if let c = run.check {
      let (k, n) = c.inside
      body += Report.section(
        "Predictive check (--holdout \(c.holdout))",
        "Fitted on \(c.fitPrompts) prompts, checked on \(c.checkPrompts) held out (\(c.checkParticipants) participants): \(k) of \(n) figures observed inside their 95 % prediction interval. Dot: observed (red outside the interval); tick and whisker: predicted and its interval, from \(c.simulations) simulations of the held-out part, each with a draw of the parameters from their sampling distribution.",
        charts(c))
      body += "<table><tr><th class='name'>figure</th><th>observed</th><th>predicted</th><th>95 % interval</th><th>inside</th></tr>"
      for r in c.rows {
        let show = { (x: Double) in CalibrationText.shown(r.figure, x) }
        body += "<tr><td class='name'>\(r.figure.key)</td><td>\(show(r.observed))</td><td>\(show(r.predicted))</td><td>[\(show(r.low)), \(show(r.high))]</td><td>\(r.observed.isFinite ? (r.inside ? "yes" : "no") : "")</td></tr>"
      }
      body += "</table><p class='note'>Shares in %, times in minutes.</p>"
      body += "<h3>The fit on the part kept, which the predictions draw from</h3>" + fitTables(c.fit, heading: "h4")
    } else {
      body += "<p class='note'>No predictive check: give --holdout days:N or --holdout participants:F to fit on one part of the pilot and compare the other with its predictions.</p>"
    }
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Calibration · esmsim</title>
      <style>\(Report.css).obs{fill:#1f6fb4}.obs.out{fill:#c0392b}.pred{stroke:#333;stroke-width:2}</style></head>
      <body>\(body)<footer>Made by esmsim calibrate.</footer></body></html>

      """
  }

  static func num(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "" }

  /// A fit's estimates, its moments against the simulation's and what it cannot identify,
  /// under `heading`s (the whole pilot's fit, and the check's fit on the part kept).
  static func fitTables(_ r: Calibrator.Result, heading h: String) -> String {
    var out = "<\(h)>Estimates</\(h)><table><tr><th class='name'>parameter</th><th>estimate</th><th>95 % interval</th><th class='name'>note</th></tr>"
    for e in r.estimates {
      out += "<tr><td class='name'>\(HTML.escape(e.key))</td><td>\(num(e.value))</td><td>[\(num(e.low)), \(num(e.high))]</td><td class='name'>\(HTML.escape(e.reason))</td></tr>"
    }
    out += "</table><\(h)>Moments matched</\(h)><table><tr><th class='name'>moment</th><th>pilot</th><th>simulated at the estimate</th><th>standard error</th></tr>"
    for m in r.moments {
      out += "<tr><td class='name'>\(HTML.escape(m.name))</td><td>\(num(m.pilot))</td><td>\(num(m.simulated))</td><td>\(num(m.standardError))</td></tr>"
    }
    return out + "</table><p class='note'>Not identified: " + r.notIdentified.map(HTML.escape).joined(separator: "; ") + ".</p>"
  }

  /// The check's charts: by hour, by day, the participants' shares, the times to open.
  static func charts(_ c: PredictiveCheck) -> [String] {
    var out: [String] = []
    func chart(
      _ caption: String, _ rows: [(x: Double, label: String, row: PredictiveCheck.Row)], xLabel: String, yLabel: String, scale: Double,
      top: Double? = nil
    ) {
      guard !rows.isEmpty else { return }
      // The axis's top from the finite figures only (a held-out part without answers has no
      // prediction: nan), at least 1.
      let finite = rows.flatMap { [$0.row.high, $0.row.observed, $0.row.predicted] }.filter(\.isFinite).map { $0 * scale }
      let high = top ?? max(finite.max() ?? 1, 1)
      let xs = rows.map(\.x)
      var g = SVGChart(x: (xs.min()! - 0.6)...(xs.max()! + 0.6), y: 0...high)
      let step = max(1, rows.count / 12)
      g.axes(
        xLabel: xLabel, yLabel: yLabel, xTicks: rows.enumerated().filter { $0.offset % step == 0 }.map { ($0.element.x, $0.element.label) },
        yTicks: stride(from: 0.0, through: high, by: high / 4).map { ($0, NumberText.fixed($0, high < 10 ? 1 : 0)) })
      for (x, label, r) in rows {
        let px = SVGChart.f(g.px(x))
        if r.low.isFinite && r.high.isFinite {
          g.body += "<line x1='\(px)' y1='\(SVGChart.f(g.py(r.low * scale)))' x2='\(px)' y2='\(SVGChart.f(g.py(min(r.high * scale, high))))' class='whisker'/>"
        }
        if r.predicted.isFinite {
          let y = SVGChart.f(g.py(min(r.predicted * scale, high)))
          g.body += "<line x1='\(SVGChart.f(g.px(x) - 5))' y1='\(y)' x2='\(SVGChart.f(g.px(x) + 5))' y2='\(y)' class='pred'/>"
        }
        if r.observed.isFinite {
          let title = "\(label): observed \(CalibrationText.shown(r.figure, r.observed)), predicted \(CalibrationText.shown(r.figure, r.predicted)) [\(CalibrationText.shown(r.figure, r.low)), \(CalibrationText.shown(r.figure, r.high))]"
          g.body += "<circle cx='\(px)' cy='\(SVGChart.f(g.py(min(r.observed * scale, high))))' r='4' class='obs\(r.inside ? "" : " out")'><title>\(HTML.escape(title))</title></circle>"
        }
      }
      out.append(Report.figure(caption, g.svg))
    }
    var hours: [(Double, String, PredictiveCheck.Row)] = []
    var days: [(Double, String, PredictiveCheck.Row)] = []
    var people: [(Double, String, PredictiveCheck.Row)] = []
    var waits: [(Double, String, PredictiveCheck.Row)] = []
    var overall: [(Double, String, PredictiveCheck.Row)] = []
    for r in c.rows {
      switch r.figure {
      case .answered: overall.append((0, "answered", r))
      case .breakOffs: overall.append((1, "broken off", r))
      case .answeredByHour(let h): hours.append((Double(h), String(format: "%02d", h), r))
      case .answeredByDay(let d): days.append((Double(d + 1), String(d + 1), r))
      case .personShare(let q): people.append((Double(people.count), "p\(Int((q * 100).rounded()))", r))
      case .wait(let q): waits.append((Double(waits.count), "p\(Int((q * 100).rounded()))", r))
      }
    }
    chart("Overall", overall, xLabel: "", yLabel: "share (%)", scale: 100, top: 100)
    chart("Answered by hour of day", hours, xLabel: "hour", yLabel: "answered (%)", scale: 100, top: 100)
    chart("Answered by study day", days, xLabel: "study day", yLabel: "answered (%)", scale: 100, top: 100)
    chart("Participants' answered shares (quantiles)", people, xLabel: "quantile", yLabel: "answered (%)", scale: 100, top: 100)
    chart("Minutes from prompt to opening (quantiles)", waits, xLabel: "quantile", yLabel: "minutes", scale: 1)
    return out
  }
}
