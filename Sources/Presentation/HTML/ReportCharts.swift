import Study
import Foundation
import Measures
import Schedules

extension Report {
  static func clock(_ minutes: Double) -> String { ClockTime(minutes: minutes).description }

  /// The largest intensity of any variant (their charts share the axis), at least 1.5.
  public static func intensityTop(_ variants: [VariantResults]) -> Double {
    max(variants.flatMap { $0.intensityScheduled + $0.intensityAnswered }.filter(\.isFinite).max() ?? 1, 1.5)
  }

  /// Intensity of the schedule and of the answered prompts across the window, on a shared
  /// vertical axis up to `top`.
  public static func intensityChart(_ v: VariantResults, window: (start: Double, minutes: Double), top: Double) -> String {
    let n = max(v.intensityScheduled.count, 1)
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
      xLabel: "time of day", yLabel: "intensity (1 = uniform)", xTicks: ticks,
      yTicks: [(0, "0"), (1, "1"), (min(top, 30), NumberText.fixed(min(top, 30), 1))])
    c.line(v.intensityScheduled.enumerated().map { (Double($0.offset) + 0.5, $0.element) }, cssClass: "sched")
    c.line(v.intensityAnswered.enumerated().map { (Double($0.offset) + 0.5, $0.element) }, cssClass: "answered")
    return figure(v.name, legend([("sched", "scheduled"), ("answered", "answered")]) + c.svg)
  }

  /// A line legend: (css class, label).
  static func legend(_ items: [(String, String)]) -> String {
    "<div class='legend'>" + items.map { "<span class='key \($0.0)'></span>\(HTML.escape($0.1))" }.joined(separator: " ") + "</div>"
  }

  /// Lines by hour of the day (0–23, nan where there is nothing), each with its mean as a
  /// dashed line in its colour; the vertical axis fits them all.
  public static func hourLines(
    _ title: String, series: [(cssClass: String, label: String, values: [Double])], means: [(cssClass: String, value: Double)],
    yLabel: String
  ) -> String {
    let all = (series.flatMap(\.values) + means.map(\.value)).filter(\.isFinite)
    let lo = ((all.min() ?? 0) - 2).rounded(.down)
    let hi = ((all.max() ?? 1) + 2).rounded(.up)
    var c = SVGChart(x: 0...24, y: lo...hi)
    c.axes(
      xLabel: "hour of the day", yLabel: yLabel, xTicks: stride(from: 0, through: 24, by: 3).map { (Double($0), String(format: "%02d:00", $0)) },
      yTicks: [(lo, NumberText.fixed(lo, 0)), (hi, NumberText.fixed(hi, 0))])
    for s in series {
      c.line(s.values.enumerated().map { (Double($0.offset) + 0.5, $0.element) }, cssClass: s.cssClass)
    }
    for m in means where m.value.isFinite {
      c.line([(0, m.value), (24, m.value)], cssClass: m.cssClass + " mean")
    }
    return figure(title, legend(series.map { ($0.cssClass, $0.label) }) + c.svg)
  }

  /// The axes the variants' ``answersHistogram(_:maxAnswers:maxShare:)`` share: the most answers
  /// anyone gave, and the largest share of participants in one bin.
  public static func answerAxes(_ variants: [VariantResults]) -> (maxAnswers: Int, maxShare: Double) {
    let maxAnswers = variants.flatMap(\.answersPerParticipant).max() ?? 0
    let maxShare = variants.map {
      Double(histogram($0, maxAnswers: maxAnswers).counts.max() ?? 0) / Double(max($0.answersPerParticipant.count, 1))
    }.max() ?? 0
    return (maxAnswers, maxShare)
  }

  /// Participants by answers, in bins of `width` answers (at most about 30 bins up to `maxAnswers`).
  static func histogram(_ v: VariantResults, maxAnswers: Int) -> (width: Int, counts: [Int]) {
    let width = max(1, Int((Double(maxAnswers + 1) / 30).rounded(.up)))
    var counts = [Int](repeating: 0, count: maxAnswers / width + 1)
    for a in v.answersPerParticipant { counts[min(a / width, counts.count - 1)] += 1 }
    return (width, counts)
  }

  /// Participants by the answers they gave, with the answers target marked; `maxAnswers`
  /// and `maxShare` are shared by the variants' charts.
  public static func answersHistogram(_ v: VariantResults, maxAnswers: Int, maxShare: Double) -> String {
    let (bins, counts) = histogram(v, maxAnswers: maxAnswers)
    let count = counts.count
    let n = Double(max(v.answersPerParticipant.count, 1))
    var c = SVGChart(height: 190, x: 0...Double(count * bins), y: 0...max(maxShare * 1.05, 0.01))
    let step = max(1, count * bins / 6)
    c.axes(
      xLabel: "answers per participant", yLabel: "participants",
      xTicks: stride(from: 0, through: count * bins, by: step).map { (Double($0), String($0)) },
      yTicks: [(0, "0"), (maxShare, pct(maxShare))])
    for (k, x) in counts.enumerated() where x > 0 {
      let lo = k * bins
      c.bar(
        x0: Double(lo) + 0.05 * Double(bins), x1: Double(lo + bins) - 0.05 * Double(bins), value: Double(x) / n,
        cssClass: Double(lo) >= Double(v.target) ? "bar" : "bar2",
        title: "\(bins == 1 ? String(lo) : "\(lo)–\(lo + bins - 1)") answers: \(x) participants\(v.pooledOver)")
    }
    c.vline(x: Double(v.target), label: "target \(v.target)")
    return figure(v.name, legend([("bar", "reached the target"), ("bar2", "below it")]) + c.svg)
  }

  /// The share of participants whose answers reached the target by the end of each study
  /// day (the same people in a study of that many days), with 90 % marked: how many days
  /// the target takes.
  public static func reachingByDay(_ v: VariantResults) -> String {
    let shares = v.reachingTargetByDay
    guard !shares.isEmpty else { return "" }
    let days = shares.count
    var c = SVGChart(height: 150, x: 0...Double(days), y: 0...1.05)
    let step = max(1, days / 7)
    c.axes(
      xLabel: "study days", yLabel: "reached \(v.target)",
      xTicks: stride(from: 0, through: days, by: step).map { (Double($0), String($0)) },
      yTicks: [(0, "0"), (0.5, "50 %"), (0.9, "90 %"), (1, "100 %")])
    c.line([(0, 0)] + shares.enumerated().map { (Double($0.offset + 1), $0.element) }, cssClass: "answered")
    let first = shares.firstIndex { $0 >= 0.9 }
    if let first { c.vline(x: Double(first + 1), label: "90 % on day \(first + 1)") }
    let caption = first.map { "90 % of participants reach \(v.target) answers by day \($0 + 1)" }
      ?? "\(pct(shares.last ?? 0)) reach \(v.target) answers by day \(days): 90 % need a longer study or more prompts a day"
    return figure(v.name, "<p class=\"note\">\(caption)</p>" + c.svg)
  }

  /// iPhone against Android: each system's participants, their median answers, the share
  /// reaching the target, and their prompts delivered and answered (a table: what a study
  /// loses on each).
  public static func osSplit(_ v: VariantResults) -> String {
    guard !v.byOS.isEmpty else { return "" }
    var out = "<table><thead><tr><th class='name'>phones</th><th>participants\(v.pooledOver)</th><th>median answers</th><th>reach \(v.target)</th><th>delivered</th><th>answered</th></tr></thead><tbody>"
    for o in v.byOS {
      out += "<tr><td class='name'>\(o.os == "ios" ? "iPhone" : "Android")</td><td>\(o.participants)</td>"
      out += "<td>\(NumberText.fixed(o.answersMedian, 1))</td><td>\(pct(o.shareReachingTarget))</td>"
      out += "<td>\(pct(o.delivered))</td><td>\(pct(o.answered))</td></tr>"
    }
    return figure(v.name, out + "</tbody></table>")
  }

  /// The prompts' fate: delivered (summary.csv's `delivered_share`), answered, and each reason a prompt was missed, as shares
  /// of the prompts scheduled (bars in HTML: they wrap on a phone).
  public static func lossBars(_ v: VariantResults) -> String {
    guard v.scheduled > 0 else { return "" }
    let total = Double(v.scheduled)
    // Shares of the prompts counted as scheduled, which add up with the answered to 100 %;
    // the prompts after a dropout and those during another survey are counted apart.
    let missed = v.missedOfScheduled.filter { $0.count > 0 }.sorted { $0.count > $1.count }
    var rows: [(String, Double, String)] = []
    if let delivered = v[.deliveredShare]?.mean, delivered.isFinite { rows.append(("delivered", delivered, "sent")) }
    rows.append(("answered", Double(v.answered) / total, "ok"))
    rows += missed.map { ($0.reason.label, Double($0.count) / total, "miss") }
    let body = rows.map { r in
      "<div class='fate'><span class='what'>\(HTML.escape(r.0))</span><span class='track'><span class='fill \(r.2)' style='width:\(SVGChart.f(100 * r.1))%'></span></span><span class='share'>\(pct(r.1))</span></div>"
    }.joined()
    let perReplication =
      v.replications > 1 ? " (\(NumberText.fixed(Double(v.scheduled) / Double(v.replications), 0)) a replication on average)" : ""
    let apart = v.notScheduled.filter { $0.count > 0 }
    let note =
      apart.isEmpty
      ? "" : "<p class='note'>Not counted as scheduled: " + apart.map { "\($0.count) \(HTML.escape($0.reason.label))" }.joined(separator: ", ") + ".</p>"
    return "<figure><figcaption>\(HTML.escape(Labels.variant(v.name))): \(v.scheduled) prompts scheduled\(v.pooledOver)\(perReplication)</figcaption>\(body)\(note)</figure>"
  }

  /// The held-out days behind each variant's predictability, flagged when too few.
  public static func predictabilityDays(_ variants: [VariantResults]) -> String {
    var out = "<table><tr><th class='name'>variant</th><th title='how surprising each prompt time is to someone who knows the rules: more is less predictable'>bits per signal</th><th title='the mean over replications'>held-out days a replication</th><th class='name'>stable</th></tr>"
    for v in variants {
      let stable = v.predictabilityStable
      out += "<tr><td class='name'>\(HTML.escape(Labels.variant(v.name)))</td><td>\(NumberText.fixed(v.bitsPerSignal, 2))\(stable ? "" : " *")</td>"
        + "<td>\(v.heldOutDays)</td><td class='name'>\(stable ? "yes" : "no: overstated")</td></tr>"
    }
    return out + "</table>"
  }

  public static func predictabilityChart(_ variants: [VariantResults]) -> String {
    let top = max(variants.map(\.bitsPerSignal).filter(\.isFinite).max() ?? 1, 1)
    var c = SVGChart(width: max(420, Double(variants.count) * 90), x: 0...Double(max(variants.count, 1)), y: 0...(top * 1.1))
    c.axes(
      xLabel: "variant", yLabel: "bits per signal", xTicks: [],
      yTicks: [(0, "0"), (top, NumberText.fixed(top, 1))])
    for (i, v) in variants.enumerated() {
      c.bar(x0: Double(i) + 0.2, x1: Double(i) + 0.8, value: v.bitsPerSignal, cssClass: "bar",
        title: "\(Labels.variant(v.name)): \(NumberText.fixed(v.bitsPerSignal, 2)) bits per signal, forced \(NumberText.fixed(v.forcedShare, 3)), max hazard \(NumberText.fixed(v.maxHazard, 2))")
      c.text(Labels.variant(v.name), x: Double(i) + 0.5, y: 0 - top * 0.0)
    }
    return figure("Bits per signal (schedule)", c.svg)
  }

  static func complianceCharts(_ v: VariantResults) -> String {
    var hours = SVGChart(width: 300, height: 170, x: 0...24, y: 0...1)
    hours.axes(xLabel: "hour of day", yLabel: "share answered", xTicks: [(0, "0"), (6, "6"), (12, "12"), (18, "18"), (24, "24")], yTicks: [(0, "0"), (0.5, "0.5"), (1, "1")])
    for h in 0..<24 where v.deliveredByHour[h] > 0 {
      let share = Double(v.answeredByHour[h]) / Double(v.deliveredByHour[h])
      hours.bar(x0: Double(h) + 0.1, x1: Double(h) + 0.9, value: share, cssClass: "bar", title: "\(h):00 \(NumberText.fixed(share, 3)) of \(v.deliveredByHour[h])")
    }
    let days = v.deliveredByDay.count
    var daily = SVGChart(width: 300, height: 170, x: 0...Double(max(days, 1)), y: 0...1)
    daily.axes(xLabel: "study day", yLabel: "share answered", xTicks: [(0, "1"), (Double(days), String(days))], yTicks: [(0, "0"), (0.5, "0.5"), (1, "1")])
    daily.line(
      (0..<days).filter { v.deliveredByDay[$0] > 0 }.map { (Double($0) + 0.5, Double(v.answeredByDay[$0]) / Double(v.deliveredByDay[$0])) },
      cssClass: "answered")
    return figure(v.name, hours.svg + daily.svg)
  }

  public static func biasChart(_ variants: [VariantResults]) -> String {
    let values = variants.flatMap { [$0.biasLow, $0.biasHigh, $0.bias] }.filter(\.isFinite)
    let lo = min(values.min() ?? -1, 0) - 0.5
    let hi = max(values.max() ?? 1, 0) + 0.5
    var c = SVGChart(width: max(420, Double(variants.count) * 90), x: 0...Double(max(variants.count, 1)), y: lo...hi)
    c.axes(xLabel: "variant", yLabel: "bias, points (0–100)", xTicks: [], yTicks: [(lo, NumberText.fixed(lo, 1)), (0, "0"), (hi, NumberText.fixed(hi, 1))])
    for (i, v) in variants.enumerated() {
      c.errorBar(x: Double(i) + 0.5, low: v.biasLow, mid: v.bias, high: v.biasHigh,
        title: "\(Labels.variant(v.name)): bias \(NumberText.fixed(v.bias, 2)) [\(NumberText.fixed(v.biasLow, 2)), \(NumberText.fixed(v.biasHigh, 2))], RMSE \(NumberText.fixed(v.biasRMSE, 2))")
      c.text(Labels.variant(v.name), x: Double(i) + 0.5, y: lo)
    }
    return figure("Bias of the ESM mean", c.svg)
  }

  /// Participants (rows) × hours (columns), each cell shaded by the collected share.
  static func heatMap(_ v: VariantResults) -> String {
    // The first `heat_hours` hours, and no more than the study has (a 1-day study: 24).
    let studyHours = v.deliveredByDay.isEmpty ? Int.max : v.deliveredByDay.count * 24
    let heat = v.heat.map { $0.prefix(studyHours) }
    let rows = heat.count
    let cols = heat.map(\.count).max() ?? 0
    guard rows > 0, cols > 0 else { return "" }
    let cell = max(min(600.0 / Double(cols), 6), 2)
    let h = 4.0
    // Margins for the axes (participants down the left, study days along the bottom) and the key.
    let (left, bottom, top) = (34.0, 28.0, 22.0)
    // From a pale red (none collected: Loss) to blue (all expected); not enrolled or none
    // expected is grey, a colour of its own.
    func shade(_ x: Double) -> String {
      let (a, b) = ((250.0, 215.0, 210.0), (31.0, 91.0, 160.0))
      func mix(_ u: Double, _ v: Double) -> Int { Int((u + (v - u) * x).rounded()) }
      return "rgb(\(mix(a.0, b.0)),\(mix(a.1, b.1)),\(mix(a.2, b.2)))"
    }
    let notEnrolled = "#d9d9d9"
    var body = ""
    for (r, row) in heat.enumerated() {
      for (c, x) in row.enumerated() {
        let fill = x.isNaN ? notEnrolled : shade(Double(x))
        body += "<rect x='\(SVGChart.f(left + Double(c) * cell))' y='\(SVGChart.f(top + Double(r) * h))' width='\(SVGChart.f(cell))' height='\(SVGChart.f(h))' fill='\(fill)'/>"
      }
    }
    let width = left + Double(cols) * cell + 4
    let height = top + Double(rows) * h + bottom
    let base = top + Double(rows) * h
    // Study days along the bottom (numbered from 1), participants down the left.
    let days = cols / 24
    let step = max(1, days / 7)
    for d in stride(from: 0, to: max(days, 1), by: step) {
      let x = left + Double(d * 24) * cell
      body += "<line x1='\(SVGChart.f(x))' y1='\(SVGChart.f(base))' x2='\(SVGChart.f(x))' y2='\(SVGChart.f(base + 4))' class='axis'/>"
      body += "<text x='\(SVGChart.f(x + 1))' y='\(SVGChart.f(base + 14))' class='tick'>day \(d + 1)</text>"
    }
    body += "<text x='\(SVGChart.f(left + Double(cols) * cell / 2))' y='\(SVGChart.f(height - 2))' class='label' text-anchor='middle'>hours of the study</text>"
    body += "<text x='\(SVGChart.f(left - 4))' y='\(SVGChart.f(top + 8))' class='tick' text-anchor='end'>1</text>"
    body += "<text x='\(SVGChart.f(left - 4))' y='\(SVGChart.f(base))' class='tick' text-anchor='end'>\(rows)</text>"
    body += "<text x='10' y='\(SVGChart.f(top + Double(rows) * h / 2))' class='label' text-anchor='middle' transform='rotate(-90 10 \(SVGChart.f(top + Double(rows) * h / 2)))'>participant</text>"
    // The key: the share of the expected samples collected in the hour.
    var kx = left
    for (x, label) in [(0.0, "none"), (0.5, "half"), (1.0, "all expected")] {
      body += "<rect x='\(SVGChart.f(kx))' y='4' width='10' height='10' fill='\(shade(x))' stroke='#999' stroke-width='0.5'/>"
      body += "<text x='\(SVGChart.f(kx + 13))' y='13' class='tick'>\(label)</text>"
      kx += 13 + Double(label.count) * 6 + 10
    }
    body += "<rect x='\(SVGChart.f(kx))' y='4' width='10' height='10' fill='\(notEnrolled)' stroke='#999' stroke-width='0.5'/>"
    body += "<text x='\(SVGChart.f(kx + 13))' y='13' class='tick'>not enrolled or none expected</text>"
    let (w, hh) = (SVGChart.f(width), SVGChart.f(height))
    let svg = "<svg xmlns='http://www.w3.org/2000/svg' class='heat' width='100%' viewBox='0 0 \(w) \(hh)' style='max-width:\(w)px'>\(body)</svg>"
    return figure("\(Labels.variant(v.name)): \(v.heatSensor), samples collected per participant-hour (\(rows) participants × \(cols) hours)", svg)
  }

  public static func coverageTable(_ variants: [VariantResults]) -> String {
    var out = "<table><tr><th class='name'>variant</th><th class='name'>device</th><th class='name'>sensor</th><th title='complete: at least the samples expected in the hour'>Comp (complete)</th><th title='some samples, fewer than expected'>Incomp (partial)</th><th title='no sample in the hour'>Loss (none)</th></tr>"
    for v in variants {
      for c in v.coverage {
        out += "<tr><td class='name'>\(HTML.escape(Labels.variant(v.name)))</td><td class='name'>\(HTML.escape(Labels.device(c.device)))</td><td class='name'>\(HTML.escape(c.sensor))</td>"
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
      let ci =
        r.ciLow.isFinite
        ? "\(num(r.ciLow)) – \(num(r.ciHigh))"
        : (r.n > 0 && r.n < AcrossReplications.replicationsForInterval ? "needs 3 replications" : "")
      let pi = r.participantLow.isFinite ? "\(num(r.participantLow)) – \(num(r.participantHigh))" : ""
      out += "<tr><td class='name'>\(HTML.escape(r.variant))</td><td class='name'>\(HTML.escape(r.metric.name))</td><td>\(num(r.mean))</td><td>\(num(r.sd))</td><td>\(ci)</td><td>\(r.n)</td><td>\(pi)</td></tr>"
    }
    return out + "</table>"
  }

  static func num(_ x: Double) -> String {
    guard x.isFinite else { return "" }
    return abs(x) >= 1000 ? NumberText.fixed(x, 0) : NumberText.fixed(x, 4)
  }
}
