import Study
import Measures
import Schedules


/// The self-contained HTML report: inline SVG, inline CSS, no script, no network. A content
/// security policy forbids scripts and remote resources even if something slipped through
/// the escaping.
public enum Report {
  /// Participants whose week the report draws.
  public static let weekParticipants = 2
  /// The whole page.
  public static func html(
    title: String, description: String, facts: [(String, String)], window: (start: Double, minutes: Double),
    variants: [VariantResults], weeks: [[String]] = []
  ) -> String {
    var body = "<h1>\(HTML.escape(title))</h1>"
    if !description.isEmpty { body += "<p class='description'>\(HTML.escape(description))</p>" }
    body += "<dl class='facts'>" + facts.map { "<dt>\(HTML.escape($0.0))</dt><dd>\(HTML.escape($0.1))</dd>" }.joined() + "</dl>"
    if variants.contains(where: { !$0.answersPerParticipant.isEmpty }) {
      body += "<h2>At a glance</h2><div class='cards'>" + variants.map(headline).joined() + "</div>"
    }
    body += answerSections(variants)
    if weeks.contains(where: { !$0.isEmpty }) {
      body += section(
        "A participant's week",
        "The first participants' first days, midnight to midnight: where they were (top band), what the phone and the study app were doing (thin band), and each prompt at its scheduled time, a filled dot answered, a ring missed (hover for its story). The variants simulate the same people (common random numbers).",
        (0..<(weeks.map(\.count).max() ?? 0)).flatMap { k in
          zip(variants, weeks).filter { k < $0.1.count }.map { "<figure class='wide'><figcaption>\(HTML.escape($0.0.name))</figcaption><div class='scroll'>\($0.1[k])</div></figure>" }
        })
    }
    if variants.contains(where: { !$0.intensityScheduled.isEmpty }) { body += scheduleSections(variants, window: window) }
    if variants.contains(where: { !$0.heat.isEmpty }) {
      body += section(
        "Coverage by participant and hour",
        "Share of the expected samples collected in each participant-hour (as in the AWARE-iOS paper's Fig. 10): dark is complete, white is lost.",
        variants.map { heatMap($0) })
    }
    if variants.contains(where: { !$0.coverage.isEmpty }) {
      body += section("Coverage by device and sensor", Captions.coverage, [coverageTable(variants)])
    }
    let summary = variants.flatMap(\.rows)
    body += "<h2>Every figure</h2><details><summary>The full summary (\(summary.count) rows, as in summary.csv)</summary>"
      + "<p class='note'>Means over replications with 95 % intervals across them (three replications or more) and over participants (the figures pooled over participants: docs/outputs.md).</p>"
      + summaryTable(summary) + "</details>"
    return """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(HTML.escape(title)) · esmsim report</title>
      <style>\(css)</style></head>
      <body>\(body)<footer>Made by esmsim. Every figure comes from the simulation described above. \(HTML.escape(Captions.sources))</footer></body></html>

      """
  }

  /// The answers' sections: answers per participant, the prompts' fates, iPhone against Android.
  static func answerSections(_ variants: [VariantResults]) -> String {
    let answered = variants.filter { !$0.answersPerParticipant.isEmpty }
    guard !answered.isEmpty else { return "" }
    var body = ""
    let axes = answerAxes(answered)
    body += section(
      "How many answers will each participant give?",
      Captions.answers,
      answered.map { answersHistogram($0, maxAnswers: axes.maxAnswers, maxShare: axes.maxShare) })
    body += section(
      "What became of the prompts",
      Captions.fate,
      answered.map(lossBars))
    if answered.contains(where: { $0.byOS.count > 1 }) {
      body += section(
        "iPhone against Android",
        Captions.osSplit,
        answered.map(osSplit))
    }
    return body
  }

  /// The schedule's sections: when prompts fall and are answered, predictability, compliance
  /// by hour and day, sampling bias.
  static func scheduleSections(_ variants: [VariantResults], window: (start: Double, minutes: Double)) -> String {
    var body = ""
    let top = intensityTop(variants)
    body += section(
      "When prompts fall, and when they are answered",
      Captions.intensity,
      variants.map { intensityChart($0, window: window, top: top) })
    body += section(
      "Can a participant see the next prompt coming?",
      Captions.predictability(stableDays: ScheduleSummary.stableHeldOutDays),
      variants.count > 1 ? [predictabilityChart(variants), predictabilityDays(variants)] : [predictabilityDays(variants)])
    body += section(
      "Answered share of delivered prompts, by hour of day and by study day",
      Captions.compliance,
      variants.map { complianceCharts($0) })
    body += section(
      "Sampling bias",
      Captions.bias,
      [biasChart(variants)])
    return body
  }

  static let css = """
    body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px auto;max-width:1200px;color:#222;padding:0 16px}
    h1{font-size:1.6em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
    .description{white-space:pre-wrap;color:#444}.facts{display:grid;grid-template-columns:max-content auto;gap:2px 12px}
    .facts dt{font-weight:600}.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}.charts{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}
    figure{margin:0;flex:1 1 520px;min-width:280px}figure.wide{flex-basis:100%}.scroll{overflow-x:auto}@media (max-width:760px){svg.week{min-width:960px}}figcaption{font-weight:600;font-size:.9em}.note{color:#555;font-size:.9em}
    .axis{stroke:#333;stroke-width:1}.grid{stroke:#eee;stroke-width:1}.tick{font-size:10px;fill:#333}.label{font-size:11px;fill:#333}
    .sched{fill:none;stroke:#888;stroke-width:1.5}.answered{fill:none;stroke:#1f6fb4;stroke-width:1.5}
    .bar{fill:#1f6fb4}.bar2{fill:#e08a2c}.whisker{stroke:#333;stroke-width:1.5}.dot{fill:#c0392b}
    table{border-collapse:collapse;font-size:.85em}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
    th{background:#f4f4f4}td.name,th.name{text-align:left}.heat{image-rendering:pixelated}
    footer{margin-top:2em;color:#777;font-size:.8em}
    .legend{font-size:.8em;color:#444}.key{display:inline-block;width:14px;height:3px;vertical-align:middle;margin:0 4px 0 8px;background:#888}
    .key.answered{background:#1f6fb4}.key.bar{height:10px;background:#1f6fb4}.key.bar2{height:10px;background:#e08a2c}
    .target{stroke:#333;stroke-width:1.5;stroke-dasharray:4 3}
    .fate{display:flex;align-items:center;gap:8px;font-size:.85em;margin:2px 0}.fate .what{flex:0 0 8.5em}
    .fate .track{flex:1;background:#f2f2f2;height:12px;min-width:60px}.fate .fill{display:block;height:12px}
    .fate .ok{background:#1f6fb4}.fate .sent{background:#7fa7cc}.fate .miss{background:#c0392b}.fate .share{flex:0 0 4.5em;text-align:right}
    details summary{cursor:pointer;color:#1f6fb4}table{display:block;overflow-x:auto;max-width:100%}
    .cards{display:flex;flex-wrap:wrap;gap:16px}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:300px;flex:1}
    .card h3{margin:.2em 0 .4em;font-size:1.05em}.card dl{display:grid;grid-template-columns:max-content auto;gap:3px 12px;margin:0}
    .card dt{color:#555}.card dd{margin:0;font-weight:600;overflow-wrap:anywhere;min-width:0}
    """

  static func section(_ title: String, _ note: String, _ parts: [String]) -> String {
    "<h2>\(HTML.escape(title))</h2><p class='note'>\(HTML.escape(note))</p><div class='charts'>" + parts.joined() + "</div>"
  }

  static func figure(_ caption: String, _ svg: String) -> String {
    "<figure><figcaption>\(HTML.escape(Labels.variant(caption)))</figcaption>\(svg)</figure>"
  }
}
