import Foundation
import Testing

/// Headless Chromium, if installed (`make test` installs Debian's `chromium`).
func chromium() -> String? {
  for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
  where FileManager.default.isExecutableFile(atPath: p) { return p }
  return nil
}

func runTool(_ path: String, _ args: [String]) throws -> (Int32, String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: path)
  p.arguments = args
  let out = Pipe()
  p.standardOutput = out
  p.standardError = FileHandle.nullDevice
  try p.run()
  let data = out.fileHandleForReading.readDataToEndOfFile()
  p.waitUntilExit()
  return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

@Suite("The HTML report in a browser")
struct ReportRenderingTests {
  /// A study whose names carry markup and script, as a hostile or careless user might write.
  static let hostile = """
    name: "Mood <script>document.body.setAttribute('data-pwned','1')</script> study"
    description: "A description with <img src=x onerror=\\"document.body.setAttribute('data-pwned','2')\\"> and \\"onload= quotes & ampersands"
    duration: 3d
    population: {size: 15, devices: {ideal: 0.5, heavy: 0.5}}
    protocol:
      schedule: {algorithm: mappiness, per_day: 4}
      sensors: {location: {every: 3m}}
    variants:
      - name: "plain"
      - name: "<b onmouseover=alert(1)>bold</b>\\" onload=\\"alert(2)"
    """

  @Test(
    "the report renders in headless Chromium, shows its charts, and runs nothing from the scenario",
    .enabled(if: chromium() != nil, "Chromium is not installed (make test installs it)"))
  func rendersSafely() throws {
    let browser = try #require(chromium())
    let tmp = try Scratch()
    defer { tmp.remove() }
    let scenario = try tmp.write("hostile.yaml", Self.hostile)
    let r = try ESMSimBinary.run(["run", scenario, "--output", tmp.path("out")])
    #expect(r.status == 0, "\(r.stderr)")
    let page = "file://" + tmp.path("out/report.html")
    // The DOM after loading: the text is there, literally; no script ran.
    let (status, dom) = try runTool(
      browser, ["--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=2000", "--dump-dom", page])
    #expect(status == 0)
    // The payloads would mark the body; its opening tag must be bare.
    let bodyTag = dom.range(of: "<body").map { String(dom[$0.lowerBound...].prefix { $0 != ">" }) } ?? ""
    #expect(bodyTag == "<body")
    #expect(!dom.lowercased().contains("<script"))
    #expect(!dom.contains("<b onmouseover"))
    #expect(dom.contains("&lt;script&gt;document.body.setAttribute"))
    #expect(dom.contains("&lt;b onmouseover=alert(1)&gt;bold&lt;/b&gt;\" onload=\"alert(2)"))
    #expect(dom.components(separatedBy: "<svg").count - 1 >= 8)
    // The headline: each variant's median answers per participant, as participants.csv has them.
    let rows = try String(contentsOfFile: tmp.path("out/participants.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
    let plain = rows.filter { $0.hasPrefix("plain,") }.map { Int($0.split(separator: ",")[8])! }.sorted()
    #expect(dom.contains("At a glance"))
    // Time axes ticked on whole hours.
    let clockTicks = dom.matches(of: /class="tick"[^>]*>(\d\d):(\d\d)</).map { String($0.output.2) }
    #expect(!clockTicks.isEmpty && clockTicks.allSatisfy { $0 == "00" }, "\(clockTicks)")
    #expect(dom.contains("median \(plain[min(plain.count / 2, plain.count - 1)]) of "), "\(plain)")
    // The share reaching the answers target is summary.csv's.
    let summary = try String(contentsOfFile: tmp.path("out/summary.csv"), encoding: .utf8).split(separator: "\n")
    let share = try #require(summary.first { $0.hasPrefix("plain,share_reaching_answers_target,") }).split(separator: ",")[2]
    let percent = String(format: "%.1f %%", 100 * Double(share)!)
    #expect(dom.contains("data-k=\"target-share\">\(percent) of participants"), "\(percent)")
    // Each variant's first participants' weeks, with their prompts; the full table collapsed.
    #expect(dom.components(separatedBy: "class=\"week\"").count - 1 == 4)
    #expect(dom.contains("class=\"prompt p-answered\""))
    let details = try #require(dom.range(of: "<details>"))
    #expect(dom[details.lowerBound...].contains("share_reaching_answers_target"))
    // The page as pixels: charts and text, not a blank page.
    let png = tmp.path("page.png")
    let (shot, _) = try runTool(
      browser, ["--headless", "--no-sandbox", "--disable-gpu", "--screenshot=\(png)", "--window-size=1200,2400", page])
    #expect(shot == 0)
    let stats = try runTool(
      "/usr/bin/env", ["python3", ESMSimBinary.packageRoot.appendingPathComponent("Tests/Support/png_stats.py").path, png])
    let fields = stats.1.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    #expect(fields.count == 3)
    if fields.count == 3 {
      #expect(fields[0] == 1200)
      #expect(fields[2] > 0.03 && fields[2] < 0.9, "share of non-white pixels \(fields[2])")
    }
  }
}
