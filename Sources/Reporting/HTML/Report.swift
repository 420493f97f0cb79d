import Measures
import Schedules

/// What `report.html` shows for one variant.
public struct VariantReport: Sendable {
  public var name: String
  /// Slot intensities of scheduled and of answered prompts (1 is flat).
  public var intensityScheduled: [Double]
  public var intensityAnswered: [Double]
  /// Predictability of the schedule: bits per signal, forced share, largest hazard.
  public var bitsPerSignal: Double
  public var forcedShare: Double
  public var maxHazard: Double
  /// The days the predictability model scored; below ``ScheduleSummary/stableHeldOutDays``
  /// the figures are flagged as overstated.
  public var heldOutDays: Int
  /// The first sensor's name, and its collected share by participant and study hour.
  public var heatSensor: String
  public var heat: [[Float]]
  /// Delivered and answered prompts by hour of day and by study day.
  public var deliveredByHour: [Int]
  public var answeredByHour: [Int]
  public var deliveredByDay: [Int]
  public var answeredByDay: [Int]
  /// Sampling bias: mean, 95 % interval, root mean square over participants.
  public var bias: Double
  public var biasLow: Double
  public var biasHigh: Double
  public var biasRMSE: Double
  /// Coverage shares (comp, incomp, loss) by device and sensor.
  public var coverage: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)]
  /// The headline: answers and prompts scheduled per participant (every replication's
  /// participants), prompts scheduled and answered, and unanswered prompts by reason.
  public var answersPerParticipant: [Int] = []
  public var scheduledPerParticipant: [Int] = []
  public var scheduled = 0
  public var answered = 0
  public var missed: [(reason: String, count: Int)] = []
  /// The first periodic sensor's name and its share of participant-hours complete, over
  /// every device (nil without one).
  public var sensorComplete: (sensor: String, comp: Double)?

  public init(
    name: String, intensityScheduled: [Double], intensityAnswered: [Double], bitsPerSignal: Double, forcedShare: Double,
    maxHazard: Double, heldOutDays: Int, heatSensor: String, heat: [[Float]], deliveredByHour: [Int], answeredByHour: [Int],
    deliveredByDay: [Int], answeredByDay: [Int], bias: Double, biasLow: Double, biasHigh: Double, biasRMSE: Double,
    coverage: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)]
  ) {
    self.name = name
    self.intensityScheduled = intensityScheduled
    self.intensityAnswered = intensityAnswered
    self.bitsPerSignal = bitsPerSignal
    self.forcedShare = forcedShare
    self.maxHazard = maxHazard
    self.heldOutDays = heldOutDays
    self.heatSensor = heatSensor
    self.heat = heat
    self.deliveredByHour = deliveredByHour
    self.answeredByHour = answeredByHour
    self.deliveredByDay = deliveredByDay
    self.answeredByDay = answeredByDay
    self.bias = bias
    self.biasLow = biasLow
    self.biasHigh = biasHigh
    self.biasRMSE = biasRMSE
    self.coverage = coverage
  }
}

/// The self-contained HTML report: inline SVG, inline CSS, no script, no network. A content
/// security policy forbids scripts and remote resources even if something slipped through
/// the escaping.
public enum Report {
  /// The whole page.
  public static func html(
    title: String, description: String, facts: [(String, String)], window: (start: Double, minutes: Double),
    variants: [VariantReport], summary: [SummaryRow]
  ) -> String {
    var body = "<h1>\(HTML.escape(title))</h1>"
    if !description.isEmpty { body += "<p class='description'>\(HTML.escape(description))</p>" }
    body += "<dl class='facts'>" + facts.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined() + "</dl>"
    if variants.contains(where: { !$0.answersPerParticipant.isEmpty }) {
      body += "<h2>At a glance</h2><div class='cards'>" + variants.map(headline).joined() + "</div>"
    }

    if variants.contains(where: { !$0.intensityScheduled.isEmpty }) {
      body += section(
        "When prompts fall, and when they are answered",
        "Intensity by time of day across the signalling window: 1 means the schedule samples that moment as often as any other. The grey line is the schedule, the blue line the prompts that were answered.",
        variants.map { intensityChart($0, window: window) })
      body += section(
        "Can a participant see the next prompt coming?",
        "Predictability of each schedule: fewer bits per signal means easier to anticipate; the forced share counts prompts that fell where the model gave them 50 % or more. "
          + "The model is scored on held-out days; "
          + "with fewer than \(ScheduleSummary.stableHeldOutDays) of them it overfits and overstates the bits (marked *; docs/schedules.md).",
        [predictabilityChart(variants), predictabilityDays(variants)])
      body += section(
        "Compliance by hour of day and by study day",
        "Answered share of delivered prompts.",
        variants.map { complianceCharts($0) })
      body += section(
        "Sampling bias",
        "Mean reported state minus the true waking-time mean, per participant, averaged; whiskers are 95 % intervals across replications, or over participants when there is one replication.",
        [biasChart(variants)])
    }
    if variants.contains(where: { !$0.heat.isEmpty }) {
      body += section(
        "Coverage by participant and hour",
        "Share of the expected samples collected in each participant-hour (as in the AWARE-iOS paper's Fig. 10): dark is complete, white is lost.",
        variants.map { heatMap($0) })
    }
    if variants.contains(where: { !$0.coverage.isEmpty }) {
      body += section("Coverage by device and sensor", "Shares of participant-hours Comp, Incomp and Loss.", [coverageTable(variants)])
    }
    body += section(
      "Summary",
      "Means over replications with 95 % intervals across them (two replications or more) and over participants (the figures pooled over participants: docs/outputs.md).",
      [summaryTable(summary)])
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(HTML.escape(title)) · esmsim report</title>
      <style>\(css)</style></head>
      <body>\(body)<footer>Made by esmsim. Every figure comes from the simulation described above.</footer></body></html>

      """
  }

  /// A variant's headline card: answers per participant (median, 10th–90th percentile, and
  /// the share answering at least half their prompts, a common inclusion rule), prompts
  /// answered, the largest source of loss, and the first sensor's complete hours.
  static func headline(_ v: VariantReport) -> String {
    guard !v.answersPerParticipant.isEmpty else { return "" }
    let answers = v.answersPerParticipant.sorted()
    func quantile(_ xs: [Int], _ q: Double) -> Int { xs[min(Int(q * Double(xs.count)), xs.count - 1)] }
    let scheduled = v.scheduledPerParticipant.sorted()
    let half = zip(v.answersPerParticipant, v.scheduledPerParticipant).filter { $1 > 0 && 2 * $0 >= $1 }.count
    var rows: [(String, String)] = [
      ("Answers per participant", "median \(quantile(answers, 0.5)) of \(quantile(scheduled, 0.5)) prompts (10th–90th percentile \(quantile(answers, 0.1))–\(quantile(answers, 0.9)))"),
      ("Answering at least half", pct(Double(half) / Double(answers.count)) + " of participants"),
      ("Prompts answered", v.scheduled > 0 ? pct(Double(v.answered) / Double(v.scheduled)) : ""),
    ]
    if let top = v.missed.max(by: { $0.count < $1.count }), top.count > 0, v.scheduled > 0 {
      rows.append(("Largest loss", "\(top.reason.replacingOccurrences(of: "_", with: " ")): \(pct(Double(top.count) / Double(v.scheduled))) of prompts"))
    }
    if let s = v.sensorComplete {
      rows.append(("\(s.sensor.capitalized) hours complete", pct(s.comp)))
    }
    return "<div class='card'><h3>\(HTML.escape(v.name))</h3><dl>"
      + rows.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined() + "</dl></div>"
  }

  static let css = """
    body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1200px;color:#222;padding:0 16px}
    h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
    .description{white-space:pre-wrap;color:#444}.facts{display:grid;grid-template-columns:max-content auto;gap:2px 12px}
    .facts dt{font-weight:600}.facts dd{margin:0}.charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
    figure{margin:0;flex:1 1 520px;min-width:280px}figcaption{font-weight:600;font-size:.9em}.note{color:#555;font-size:.9em}
    .axis{stroke:#333;stroke-width:1}.grid{stroke:#eee;stroke-width:1}.tick{font-size:10px;fill:#333}.label{font-size:11px;fill:#333}
    .sched{fill:none;stroke:#888;stroke-width:1.5}.answered{fill:none;stroke:#1f6fb4;stroke-width:1.5}
    .bar{fill:#1f6fb4}.bar2{fill:#e08a2c}.whisker{stroke:#333;stroke-width:1.5}.dot{fill:#c0392b}
    table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
    th{background:#f4f4f4}td.name,th.name{text-align:left}.heat{image-rendering:pixelated}
    footer{margin-top:2em;color:#777;font-size:.8em}
    .cards{display:flex;flex-wrap:wrap;gap:16px}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:300px;flex:1}
    .card h3{margin:.2em 0 .4em;font-size:1.05em}.card dl{display:grid;grid-template-columns:max-content auto;gap:3px 12px;margin:0}
    .card dt{color:#555}.card dd{margin:0;font-weight:600}
    """

  static func section(_ title: String, _ note: String, _ parts: [String]) -> String {
    "<h2>\(HTML.escape(title))</h2><p class='note'>\(HTML.escape(note))</p><div class='charts'>" + parts.joined() + "</div>"
  }

  static func figure(_ caption: String, _ svg: String) -> String {
    "<figure><figcaption>\(HTML.escape(caption))</figcaption>\(svg)</figure>"
  }

  static func clock(_ minutes: Double) -> String { ClockTime(minutes: minutes).description }

  static func intensityChart(_ v: VariantReport, window: (start: Double, minutes: Double)) -> String {
    let n = max(v.intensityScheduled.count, 1)
    let top = max((v.intensityScheduled + v.intensityAnswered).filter(\.isFinite).max() ?? 1, 1.5)
    var c = SVGChart(x: 0...Double(n), y: 0...min(top * 1.05, 30))
    // Ticks on whole hours (every two hours across a long window), placed where they fall.
    let every = window.minutes > 8 * 60 ? 120.0 : 60.0
    var ticks: [(Double, String)] = []
    var m = (window.start / every).rounded(.up) * every
    while m <= window.start + window.minutes + 1e-9 {
      ticks.append(((m - window.start) / window.minutes * Double(n), clock(m.truncatingRemainder(dividingBy: 1440))))
      m += every
    }
    c.axes(
      xLabel: "time of day", yLabel: "intensity", xTicks: ticks,
      yTicks: [(0, "0"), (1, "1"), (min(top, 30), NumberText.fixed(min(top, 30), 1))])
    c.line(v.intensityScheduled.enumerated().map { (Double($0.offset) + 0.5, $0.element) }, cssClass: "sched")
    c.line(v.intensityAnswered.enumerated().map { (Double($0.offset) + 0.5, $0.element) }, cssClass: "answered")
    return figure(v.name, c.svg)
  }

  /// The held-out days behind each variant's predictability, flagged when too few.
  static func predictabilityDays(_ variants: [VariantReport]) -> String {
    var out = "<table><tr><th class='name'>variant</th><th>bits per signal</th><th>held-out days</th><th class='name'>stable</th></tr>"
    for v in variants {
      let stable = v.heldOutDays >= ScheduleSummary.stableHeldOutDays
      out += "<tr><td class='name'>\(HTML.escape(v.name))</td><td>\(NumberText.fixed(v.bitsPerSignal, 2))\(stable ? "" : " *")</td>"
        + "<td>\(v.heldOutDays)</td><td class='name'>\(stable ? "yes" : "no: overstated")</td></tr>"
    }
    return out + "</table>"
  }

  static func predictabilityChart(_ variants: [VariantReport]) -> String {
    let top = max(variants.map(\.bitsPerSignal).filter(\.isFinite).max() ?? 1, 1)
    var c = SVGChart(width: max(420, Double(variants.count) * 90), x: 0...Double(max(variants.count, 1)), y: 0...(top * 1.1))
    c.axes(
      xLabel: "variant", yLabel: "bits per signal", xTicks: [],
      yTicks: [(0, "0"), (top, NumberText.fixed(top, 1))])
    for (i, v) in variants.enumerated() {
      c.bar(x0: Double(i) + 0.2, x1: Double(i) + 0.8, value: v.bitsPerSignal, cssClass: "bar",
        title: "\(v.name): \(NumberText.fixed(v.bitsPerSignal, 2)) bits per signal, forced \(NumberText.fixed(v.forcedShare, 3)), max hazard \(NumberText.fixed(v.maxHazard, 2))")
      c.text(v.name, x: Double(i) + 0.5, y: 0 - top * 0.0)
    }
    return figure("Bits per signal (schedule)", c.svg)
  }

  static func complianceCharts(_ v: VariantReport) -> String {
    var hours = SVGChart(width: 300, height: 170, x: 0...24, y: 0...1)
    hours.axes(xLabel: "hour of day", yLabel: "answered", xTicks: [(0, "0"), (6, "6"), (12, "12"), (18, "18"), (24, "24")], yTicks: [(0, "0"), (0.5, "0.5"), (1, "1")])
    for h in 0..<24 where v.deliveredByHour[h] > 0 {
      let share = Double(v.answeredByHour[h]) / Double(v.deliveredByHour[h])
      hours.bar(x0: Double(h) + 0.1, x1: Double(h) + 0.9, value: share, cssClass: "bar", title: "\(h):00 \(NumberText.fixed(share, 3)) of \(v.deliveredByHour[h])")
    }
    let days = v.deliveredByDay.count
    var daily = SVGChart(width: 300, height: 170, x: 0...Double(max(days, 1)), y: 0...1)
    daily.axes(xLabel: "study day", yLabel: "answered", xTicks: [(0, "1"), (Double(days), String(days))], yTicks: [(0, "0"), (0.5, "0.5"), (1, "1")])
    daily.line(
      (0..<days).filter { v.deliveredByDay[$0] > 0 }.map { (Double($0) + 0.5, Double(v.answeredByDay[$0]) / Double(v.deliveredByDay[$0])) },
      cssClass: "answered")
    return figure(v.name, hours.svg + daily.svg)
  }

  static func biasChart(_ variants: [VariantReport]) -> String {
    let values = variants.flatMap { [$0.biasLow, $0.biasHigh, $0.bias] }.filter(\.isFinite)
    let lo = min(values.min() ?? -1, 0) - 0.5
    let hi = max(values.max() ?? 1, 0) + 0.5
    var c = SVGChart(width: max(420, Double(variants.count) * 90), x: 0...Double(max(variants.count, 1)), y: lo...hi)
    c.axes(xLabel: "variant", yLabel: "bias", xTicks: [], yTicks: [(lo, NumberText.fixed(lo, 1)), (0, "0"), (hi, NumberText.fixed(hi, 1))])
    for (i, v) in variants.enumerated() {
      c.errorBar(x: Double(i) + 0.5, low: v.biasLow, mid: v.bias, high: v.biasHigh,
        title: "\(v.name): bias \(NumberText.fixed(v.bias, 2)) [\(NumberText.fixed(v.biasLow, 2)), \(NumberText.fixed(v.biasHigh, 2))], RMSE \(NumberText.fixed(v.biasRMSE, 2))")
      c.text(v.name, x: Double(i) + 0.5, y: lo)
    }
    return figure("Bias of the ESM mean", c.svg)
  }

  /// Participants (rows) × hours (columns), each cell shaded by the collected share.
  static func heatMap(_ v: VariantReport) -> String {
    let rows = v.heat.count
    let cols = v.heat.map(\.count).max() ?? 0
    guard rows > 0, cols > 0 else { return "" }
    let cell = max(min(600.0 / Double(cols), 6), 2)
    let h = 4.0
    var body = ""
    for (r, row) in v.heat.enumerated() {
      for (c, x) in row.enumerated() {
        let shade: String
        if x.isNaN {
          shade = "#f6f6f6"
        } else {
          let g = Int((1 - Double(x)) * 255)
          shade = "rgb(\(g),\(g),\(min(g + 40, 255)))"
        }
        body += "<rect x='\(SVGChart.f(Double(c) * cell))' y='\(SVGChart.f(Double(r) * h))' width='\(SVGChart.f(cell))' height='\(SVGChart.f(h))' fill='\(shade)'/>"
      }
    }
    let svg = "<svg xmlns='http://www.w3.org/2000/svg' class='heat' width='\(SVGChart.f(Double(cols) * cell))' height='\(SVGChart.f(Double(rows) * h))'>\(body)</svg>"
    return figure("\(v.name): \(v.heatSensor), \(rows) participants × \(cols) hours", svg)
  }

  static func coverageTable(_ variants: [VariantReport]) -> String {
    var out = "<table><tr><th class='name'>variant</th><th class='name'>device</th><th class='name'>sensor</th><th>Comp</th><th>Incomp</th><th>Loss</th></tr>"
    for v in variants {
      for c in v.coverage {
        out += "<tr><td class='name'>\(HTML.escape(v.name))</td><td class='name'>\(HTML.escape(c.device))</td><td class='name'>\(HTML.escape(c.sensor))</td>"
        out += "<td>\(pct(c.comp))</td><td>\(pct(c.incomp))</td><td>\(pct(c.loss))</td></tr>"
      }
    }
    return out + "</table>"
  }

  static func pct(_ x: Double) -> String { x.isFinite ? NumberText.fixed(100 * x, 1) + " %" : "" }

  static func summaryTable(_ rows: [SummaryRow]) -> String {
    var out = "<table><tr><th class='name'>variant</th><th class='name'>metric</th><th>mean</th><th>sd</th>"
      + "<th>95 % interval across replications</th><th>n</th><th>95 % interval over participants</th></tr>"
    for r in rows {
      let ci = r.ciLow.isFinite ? "\(num(r.ciLow)) – \(num(r.ciHigh))" : ""
      let pi = r.participantLow.isFinite ? "\(num(r.participantLow)) – \(num(r.participantHigh))" : ""
      out += "<tr><td class='name'>\(HTML.escape(r.variant))</td><td class='name'>\(HTML.escape(r.metric))</td><td>\(num(r.mean))</td><td>\(num(r.sd))</td><td>\(ci)</td><td>\(r.n)</td><td>\(pi)</td></tr>"
    }
    return out + "</table>"
  }

  static func num(_ x: Double) -> String {
    guard x.isFinite else { return "" }
    return abs(x) >= 1000 ? NumberText.fixed(x, 0) : NumberText.fixed(x, 4)
  }
}
