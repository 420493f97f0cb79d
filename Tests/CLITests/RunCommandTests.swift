import Foundation
import Testing

/// A scratch folder removed after the test.
struct Scratch {
  let url: URL
  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }
  func path(_ name: String) -> String { url.appendingPathComponent(name).path }
  func write(_ name: String, _ text: String) throws -> String {
    let p = path(name)
    try Data(text.utf8).write(to: URL(fileURLWithPath: p))
    return p
  }
  func remove() { try? FileManager.default.removeItem(at: url) }
}

extension ISO8601DateFormatter {
  /// Reads prompts.csv's local times (no zone), as UTC: differences come out right.
  static var esmsimLocal: ISO8601DateFormatter {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
    f.timeZone = TimeZone(identifier: "UTC")
    return f
  }
}

func lines(_ path: String) throws -> [String] {
  try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The bars of a report's "What became of the prompts" figure (the first whose caption holds
/// `caption`): each bar's label and share in %.
func fateShares(_ report: String, caption: String) -> [(String, Double)] {
  guard let figure = report.components(separatedBy: caption).dropFirst().first else { return [] }
  return figure.components(separatedBy: "</figure>")[0].components(separatedBy: "<span class='what'>").dropFirst().compactMap {
    bar -> (String, Double)? in
    guard let share = bar.components(separatedBy: "<span class='share'>").dropFirst().first, let x = Double(share.prefix { $0 != " " })
    else { return nil }
    return (String(bar.prefix { $0 != "<" }), x)
  }
}

/// Writes `yaml` as a scenario into `tmp` and runs esmsim with `arguments` (the scenario's
/// path first).
func runScenario(_ tmp: Scratch, _ yaml: String, _ arguments: [String]) throws -> CommandResult {
  try ESMSimBinary.run([arguments[0], try tmp.write("scenario.yaml", yaml)] + arguments.dropFirst())
}

@Suite("esmsim run")
struct RunCommandTests {
  @Test("the report's fates of the prompts add up to 100 % of those scheduled; prompts after a dropout are counted apart")
  func fatesAddUp() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let r = try runScenario(
      tmp,
      """
      name: leavers
      duration: 10d
      population: {size: 40, compliance: {dropout_per_day: 0.15}}
      protocol: {window: "09:00-21:00", expiry: 30m, schedule: {algorithm: fixed-blocks, per_day: 4}}
      """, ["run", "--output", tmp.path("o")])
    #expect(r.status == 0, "\(r.stderr)")
    let report = try String(contentsOfFile: tmp.path("o/report.html"), encoding: .utf8)
    let shares = fateShares(report, caption: "this study: ")
    let total = shares.filter { $0.0 != "delivered" }.map(\.1).reduce(0, +)
    // Each share rounded to 0.1: within half of that per bar (the prompts after a dropout
    // went into the bars too, past 100 %).
    #expect(shares.count >= 3 && abs(total - 100) <= 0.05 * Double(shares.count), "\(shares)")
    #expect(report.contains("Not counted as scheduled: ") && report.contains(" dropped out"))
  }

  @Test("a prompt pending when its participant dropped out is scheduled once, a bar, not also in the note; the card's answered share is summary.csv's mean over replications")
  func pendingAtDropout() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    // Prompts answerable until the next: a participant who drops out leaves one pending.
    let r = try runScenario(
      tmp,
      """
      name: leavers
      duration: 10d
      replications: 3
      population: {size: 30, compliance: {dropout_per_day: 0.2}}
      protocol: {window: "09:00-21:00", expiry: until_next, schedule: {algorithm: fixed-blocks, per_day: 4}}
      outputs: {prompts: true}
      """, ["run", "--output", tmp.path("o")])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try String(contentsOfFile: tmp.path("o/prompts.csv"), encoding: .utf8).split(separator: "\n").dropFirst()
      .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
    let header = try String(contentsOfFile: tmp.path("o/prompts.csv"), encoding: .utf8).prefix { $0 != "\n" }.split(separator: ",")
    let (status, reason) = (try #require(header.firstIndex(of: "status")), try #require(header.firstIndex(of: "reason")))
    let pending = rows.filter { $0[reason] == "dropped_out" && $0[status] != "dropped_out" }.count
    let notDue = rows.filter { $0[status] == "dropped_out" }.count
    #expect(pending > 0, "no prompt was pending at a dropout: the test shows nothing")
    let report = try String(contentsOfFile: tmp.path("o/report.html"), encoding: .utf8)
    #expect(report.contains("\(rows.count - notDue) prompts scheduled over 3 replications"), "\(rows.count - notDue)")
    #expect(report.contains("Not counted as scheduled: \(notDue) dropped out"))
    let total = fateShares(report, caption: "this study: ").filter { $0.0 != "delivered" }.map(\.1).reduce(0, +)
    #expect(abs(total - 100) <= 0.3, "\(total)")
    // The card: summary.csv's compliance, not the pooled counts' share.
    let summary = try String(contentsOfFile: tmp.path("o/summary.csv"), encoding: .utf8).split(separator: "\n")
    let compliance = try #require(summary.first { $0.contains(",compliance,") }).split(separator: ",")
    let mean = try #require(Double(compliance[2]))
    #expect(report.contains("<dd data-k='answered'>\(String(format: "%.1f", 100 * mean)) %</dd>"), "\(mean)")
  }

  @Test("a default people's answered share is said with the spread between real studies, each variant's range in the terminal and on the card; people of one's own (a level, a preset, a pace key) are not")
  func betweenStudiesNote() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let r = try runScenario(
      tmp,
      """
      name: people
      duration: 3d
      population: {size: 20}
      protocol: {window: "09:00-21:00", expiry: 30m, schedule: {algorithm: fixed-blocks, per_day: 4}}
      variants:
        - name: plain
        - name: own-level
          population: {compliance: {answer_probability: 0.8}}
        - name: fitted
          population: {compliance: {preset: soyster2022_alcohol}}
        - name: own-pace
          population: {compliance: {looks_per_hour: 2}}
        - name: named-default
          population: {compliance: {preset: default}}
      """, ["run", "--output", tmp.path("o")])
    #expect(r.status == 0, "\(r.stderr)")
    // Only the default people's variants, each with its range: its answered share ± the figure said, within 0–1.
    let said = try #require(r.stdout.components(separatedBy: "lies within ±").dropFirst().first?.prefix { $0 != " " })
    let h = try #require(Double(said)) / 100
    #expect(h > 0.05 && h < 0.3, "\(said)")
    let summary = try String(contentsOfFile: tmp.path("o/summary.csv"), encoding: .utf8).split(separator: "\n")
    func range(_ variant: String) throws -> String {
      let row = try #require(summary.first { $0.hasPrefix("\(variant),compliance,") }).split(separator: ",")
      let share = try #require(Double(row[2]))
      return String(format: "%@ %.3f–%.3f", variant, max(0, share - h), min(1, share + h))
    }
    #expect(r.stdout.contains("answered by esmsim's default people: a real study's answered share lies within ±"), "\(r.stdout)")
    #expect(r.stdout.contains("docs/validation.md): \(try range("plain")), \(try range("named-default"))\n"), "\(r.stdout)")
    let report = try String(contentsOfFile: tmp.path("o/report.html"), encoding: .utf8)
    let cards = report.components(separatedBy: "<div class='card'>").dropFirst()
    let carded = cards.filter { $0.contains("data-k='between-studies'") }.map { $0.components(separatedBy: "</h3>")[0] }
    #expect(carded == ["<h3>plain", "<h3>named-default"], "\(carded)")
    // The manifest says it by variant, for R's summary() and Python: the figure, or null.
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("o/manifest.json")))) as! [String: Any]
    let points = try #require(manifest["between_studies_points"] as? [String: Any])
    #expect(["plain", "named-default"].allSatisfy { abs(((points[$0] as? Double) ?? 0) - h * 100) < 1e-9 }, "\(points)")
    #expect(["own-level", "fitted", "own-pace"].allSatisfy { points[$0] is NSNull }, "\(points)")
    // A scenario of one's own people says nothing of it.
    let own = try runScenario(
      tmp,
      """
      name: own
      duration: 2d
      population: {size: 10, compliance: {answer_probability: 0.9}}
      protocol: {window: "09:00-21:00", expiry: 30m, schedule: {algorithm: fixed-blocks, per_day: 4}}
      """, ["run", "--output", tmp.path("p")])
    #expect(own.status == 0 && !own.stdout.contains("default people"), "\(own.stdout)")
  }

  @Test("the report's predictability says what summary.csv says (it pooled the replications' days into 'stable')")
  func reportPredictabilityAsSummary() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let out = tmp.path("p")
    // 800 held-out days a replication: under the 1,500 that make the figure stable,
    // over it when two replications are pooled.
    let r = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml", "--output", out, "--participants", "160", "--duration", "10d", "--replications", "2"])
    #expect(r.status == 0, "\(r.stderr)")
    let summary = try lines(out + "/summary.csv")
    func mean(_ metric: String) -> Double? {
      summary.first { $0.hasPrefix("mappiness,\(metric),") }.flatMap { Double($0.split(separator: ",")[2]) }
    }
    let bits = try #require(mean("bits_per_signal_scheduled"))
    let days = try #require(mean("predictability_held_out_days"))
    let stable = try #require(mean("predictability_stable"))
    #expect(days < 1500 && stable == 0, "\(days) \(stable)")
    let report = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    let row = "<tr><td class='name'>mappiness</td><td>\(String(format: "%.2f", bits)) *</td><td>\(Int(days.rounded()))</td><td class='name'>no: overstated</td></tr>"
    #expect(report.contains(row), "\(row)")
  }

  @Test("the heat map of a 1-day study shows its 24 hours (it said 168, most of them 'not enrolled')")
  func heatMapOfOneDay() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let r = try runScenario(
      tmp,
      """
      name: one day
      duration: 1d
      population: {size: 5}
      protocol: {window: "09:00-21:00", schedule: {algorithm: fixed-blocks, per_day: 4}, sensors: {location: {every: 3m}}}
      """, ["run", "--output", tmp.path("o")])
    #expect(r.status == 0, "\(r.stderr)")
    let report = try String(contentsOfFile: tmp.path("o/report.html"), encoding: .utf8)
    #expect(report.contains("samples collected per participant-hour (5 participants × 24 hours)"))
  }

  @Test("validate's estimate counts a weekly schedule's prompts on its weekdays only (it counted every day: 7 times too many)")
  func estimateOnWeekdays() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let r = try runScenario(
      tmp,
      """
      name: weekly
      start_date: "2026-01-05"
      duration: 14d
      population: {size: 50}
      protocol: {window: "09:00-10:00", expiry: 7d, schedule: {algorithm: fixed-times, times: ["09:00"], weekdays: [mon]}}
      """, ["validate"])
    // Two Mondays × 50 participants.
    #expect(r.status == 0 && r.stdout.contains("700 participant-days, 100 prompts"), "\(r.stdout)")
  }

  @Test("the quickstart writes every file with its documented header")
  func quickstartFiles() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let out = tmp.path("qs")
    let r = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml", "--output", out, "--participants", "12", "--duration", "4d"])
    #expect(r.status == 0, "\(r.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: out).sorted()
    #expect(files == ["coverage_summary.csv", "manifest.json", "participants.csv", "prompts.csv", "report.html", "results.sqlite", "summary.csv", "summary.json"])
    #expect(try lines(out + "/summary.csv")[0] == "variant,metric,mean,sd,ci_low,ci_high,n,participant_ci_low,participant_ci_high")
    #expect(try lines(out + "/prompts.csv")[0] == "variant,replication,participant,prompt,day,questionnaire,scheduled,delivered,noticed,opened,submitted,status,reason,latency_s,context,true_state,reported_state,reached,received,volunteered")
    #expect(try lines(out + "/coverage_summary.csv")[0] == "variant,device,sensor,comp,incomp,loss")
    let summary = try lines(out + "/summary.csv").dropFirst().filter { !$0.isEmpty }
    // Location every 3 minutes: at most 480 rows a day, 150 bytes each.
    let rows = summary.first { $0.hasPrefix("mappiness,rows_per_day_location,") }.flatMap { Double($0.split(separator: ",")[2]) }
    #expect(rows.map { $0 > 100 && $0 <= 480 } == true, "\(String(describing: rows))")
    for metric in ["signals_per_day", "delivered_share", "compliance", "median_latency_s", "intensity_min_scheduled", "bits_per_signal_answered", "coverage_comp_location", "bias", "bias_rmse", "megabytes_per_participant_location"] {
      #expect(summary.contains { $0.hasPrefix("mappiness,\(metric),") }, "\(metric)")
      #expect(summary.contains { $0.hasPrefix("fixed-blocks,\(metric),") }, "\(metric)")
    }
    // 12 participants, 5 a day for 4 days, 2 replications, 2 variants (plus volunteered answers).
    let prompts = try lines(out + "/prompts.csv").dropFirst().filter { !$0.isEmpty && $0.hasSuffix(",0") }
    #expect(prompts.count == 12 * 5 * 4 * 2 * 2)
    let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/manifest.json"))) as? [String: Any]
    #expect(manifest?["seed"] as? Int == 1)
    #expect(manifest?["replications"] as? Int == 2)
    #expect((manifest?["scenario"] as? [String: Any])?["sha256"] as? String != nil)
    #expect(r.stdout.contains("mappiness") && r.stdout.contains("Results in"))
    // Participants, prompts and days numbered from 1, as the report and the planner number them.
    let first = try lines(out + "/prompts.csv")[1].split(separator: ",").map(String.init)
    #expect(Array(first[2...4]) == ["1", "1", "1"], "\(first)")
    let numbers = try lines(out + "/participants.csv").dropFirst().filter { !$0.isEmpty }.map { Int($0.split(separator: ",")[2])! }
    #expect(Set(numbers) == Set(1...12))
    // Replications too are numbered from 1.
    let replications = Set(try lines(out + "/prompts.csv").dropFirst().filter { !$0.isEmpty }.map { $0.split(separator: ",")[1] })
    #expect(replications == ["1", "2"])
    // The report's counts say that they add up two replications, and what one holds.
    let report = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    #expect(report.contains("<th>participants over 2 replications</th>"))
    // Counted as scheduled: every prompt but those due after a dropout or during another survey.
    let counted = prompts.filter { $0.hasPrefix("mappiness,") && !$0.contains(",dropped_out,") && !$0.contains(",ignored,") }.count
    #expect(
      report.contains("\(counted) prompts scheduled over 2 replications (\(Int((Double(counted) / 2).rounded())) a replication on average)"),
      "\(counted)")
    // Two replications: no interval across them, and the table says why.
    #expect(summary.allSatisfy { $0.split(separator: ",", omittingEmptySubsequences: false)[4].isEmpty })
    #expect(report.contains("needs 3 replications"))
  }

  @Test("ESMSIM_PROGRESS=json: a JSON progress line per update, ending at every participant of every step; results unchanged")
  func progressLines() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let args = ["run", "scenarios/quickstart.yaml", "--participants", "40", "--duration", "2d", "--force", "--output"]
    let r = try ESMSimBinary.run(args + [tmp.path("p")], environment: ["ESMSIM_PROGRESS": "json"])
    #expect(r.status == 0, "\(r.stderr)")
    let updates = r.stderr.split(separator: "\n").compactMap { line -> [String: Any]? in
      guard line.hasPrefix("{\"progress\"") else { return nil }
      return (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["progress"] as? [String: Any]
    }
    // Two variants x two replications: each step starts at 0 and ends at its 40 participants.
    #expect(Set(updates.map { $0["step"] as! Int }) == [1, 2, 3, 4])
    #expect(updates.allSatisfy { $0["steps"] as? Int == 4 && $0["participants"] as? Int == 40 })
    for step in 1...4 {
      #expect(updates.last { $0["step"] as! Int == step }?["done"] as? Int == 40)
    }
    let plain = try ESMSimBinary.run(args + [tmp.path("q")])
    #expect(plain.status == 0 && !plain.stderr.contains("progress"))
    #expect(try String(contentsOfFile: tmp.path("p/summary.csv"), encoding: .utf8) == String(contentsOfFile: tmp.path("q/summary.csv"), encoding: .utf8))
  }

  @Test("byte-identical results with 1 and 2 threads")
  func threadsDoNotMatter() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    for threads in ["1", "2"] {
      let r = try ESMSimBinary.run([
        "run", "scenarios/quickstart.yaml", "--output", tmp.path("t\(threads)"), "--participants", "150", "--duration", "3d",
        "--threads", threads,
      ])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: tmp.path("t1")).sorted()
    #expect(files.count == 8)
    for f in files {
      let a = try Data(contentsOf: URL(fileURLWithPath: tmp.path("t1/\(f)")))
      let b = try Data(contentsOf: URL(fileURLWithPath: tmp.path("t2/\(f)")))
      #expect(a == b, "\(f) differs between thread counts")
    }
  }

  @Test("the AWARE-iOS case study: coverage by variant, device and sensor")
  func caseStudy() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let r = try ESMSimBinary.run(["run", "scenarios/aware-ios-case-study.yaml", "--output", tmp.path("cs"), "--participants", "80"])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try lines(tmp.path("cs/coverage_summary.csv")).dropFirst().filter { !$0.isEmpty }.map { $0.split(separator: ",").map(String.init) }
    #expect(rows.count == 4 * 4 * 4)
    #expect(Set(rows.map { $0[0] }) == ["BL", "ESM", "SPN", "ESM+SPN"])
    #expect(Set(rows.map { $0[1] }) == ["ideal", "non_controlled", "heavy", "low_power"])
    #expect(Set(rows.map { $0[2] }) == ["accelerometer", "location", "weather", "pedometer"])
    for row in rows {
      let shares = row[3...5].compactMap(Double.init)
      #expect(shares.count == 3 && abs(shares.reduce(0, +) - 1) < 1e-5)
    }
    func share(_ v: String, _ d: String, _ s: String, _ k: Int) -> Double {
      Double(rows.first { $0[0] == v && $0[1] == d && $0[2] == s }![k])!
    }
    // The paper's pattern (Fig. 9): BL ideal almost all Comp, heavy and low-power mostly Loss;
    // heavy under SPN mostly Incomp; low power loses weather; the pedometer is complete.
    #expect(share("BL", "ideal", "location", 3) > 0.9)
    #expect(share("BL", "heavy", "location", 5) > 0.5 && share("BL", "low_power", "location", 5) > 0.5)
    #expect(share("SPN", "heavy", "location", 4) > 0.6)
    #expect(share("SPN", "low_power", "weather", 3) < 0.05)
    #expect(share("BL", "low_power", "pedometer", 3) > 0.95)
  }

  @Test("an AWARE schedule file can be the protocol on its own")
  func awareScheduleFlag() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let schedule = try tmp.write(
      "s.json", #"[{"schedule_id": "s", "hours": [10, 16], "randomize": 5, "expiration": 30, "esms": [{"esm": {"esm_type": 6, "esm_title": "Mood", "esm_trigger": "mood"}}]}]"#)
    let r = try ESMSimBinary.run(["run", "--aware-schedule", schedule, "--output", tmp.path("a"), "--participants", "5", "--duration", "2d"])
    #expect(r.status == 0, "\(r.stderr)")
    let prompts = try lines(tmp.path("a/prompts.csv")).dropFirst().filter { !$0.isEmpty && $0.hasSuffix(",0") }
    #expect(prompts.count == 5 * 2 * 2)
  }

  @Test("--aware-schedule with a relative path: read from the working directory, named as typed, so the scenario's hash does not depend on where esmsim runs (it held the absolute path)")
  func awareScheduleRelative() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let schedule = #"[{"schedule_id": "s", "hours": [10, 16], "randomize": 5, "expiration": 30, "esms": [{"esm": {"esm_type": 6, "esm_title": "Mood", "esm_trigger": "mood"}}]}]"#
    let scenario = "name: relative\nduration: 2d\npopulation: {size: 3}\noutputs: {sqlite: false, report: false}\n"
    var hashes: [String] = []
    for dir in ["one", "two"] {
      try FileManager.default.createDirectory(atPath: tmp.path("\(dir)/scenario"), withIntermediateDirectories: true)
      _ = try tmp.write("\(dir)/s.json", schedule)
      // The scenario lives elsewhere: the option's path is not read from the scenario's folder.
      _ = try tmp.write("\(dir)/scenario/s.yaml", scenario)
      let r = try ESMSimBinary.run(
        ["run", "scenario/s.yaml", "--aware-schedule", "s.json", "--output", "out"], in: URL(fileURLWithPath: tmp.path(dir)))
      #expect(r.status == 0, "\(r.stderr)")
      let data = try Data(contentsOf: URL(fileURLWithPath: tmp.path("\(dir)/out/manifest.json")))
      let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
      let sc = try #require(manifest["scenario"] as? [String: Any])
      #expect((sc["imports"] as? [String: Any])?.keys.sorted() == ["s.json"])
      hashes.append(try #require(sc["sha256"] as? String))
    }
    #expect(hashes[0] == hashes[1])
    let missing = try ESMSimBinary.run(["run", "--aware-schedule", "nope.json", "--output", tmp.path("m")], in: URL(fileURLWithPath: tmp.path("one")))
    #expect(missing.status == 1 && missing.stderr.contains("nope.json") && !FileManager.default.fileExists(atPath: tmp.path("m")), "\(missing.stderr)")
  }

  @Test("bad input: one clear message naming the file and key, exit code 1, no results folder")
  func badInput() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let cases: [(String, String, [String])] = [
      ("bad.yaml", "name: t\npopulation: {size: [1, 2\n", ["bad.yaml", "line"]),
      ("unknown.yaml", "name: t\nprotocol: {expiri: 15m}\n", ["unknown.yaml", "protocol.expiri", "unknown key"]),
      ("type.yaml", "name: t\npopulation: {size: many}\n", ["type.yaml", "population.size", "whole number"]),
      ("aware.yaml", "name: t\nprotocol: {aware_schedule: missing.json}\n", ["aware.yaml: protocol.aware_schedule (line 2", "missing.json", "does not exist"]),
    ]
    for (name, text, expected) in cases {
      let file = try tmp.write(name, text)
      let out = tmp.path("out-\(name)")
      let r = try ESMSimBinary.run(["run", file, "--output", out])
      #expect(r.status == 1, "\(name): \(r.status) \(r.stderr)")
      for e in expected { #expect(r.stderr.contains(e), "\(name): \(r.stderr)") }
      #expect(r.stderr.split(separator: "\n").count == 1, "\(name): \(r.stderr)")
      #expect(!FileManager.default.fileExists(atPath: out))
    }
    let missing = try ESMSimBinary.run(["run", tmp.path("nowhere.yaml"), "--output", tmp.path("x")])
    #expect(missing.status == 1 && missing.stderr.contains("does not exist"))
    let usage = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml"])
    #expect(usage.status == 64)
  }

  @Test("an existing results folder is replaced only with --force, and only when esmsim wrote it")
  func noOverwrite() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let out = tmp.path("done")
    let args = ["run", "scenarios/quickstart.yaml", "--output", out, "--participants", "3", "--duration", "1d"]
    #expect(try ESMSimBinary.run(args).status == 0)
    let refused = try ESMSimBinary.run(args)
    #expect(refused.status == 1 && refused.stderr.contains("--force"))
    let forced = try ESMSimBinary.run(args + ["--force"])
    #expect(forced.status == 0)
    #expect(FileManager.default.fileExists(atPath: out + "/manifest.json"))
    // A file of the user's in it: --force no longer replaces the folder (it removed it before).
    _ = try tmp.write("done/keep.txt", "mine")
    let kept = try ESMSimBinary.run(args + ["--force"])
    #expect(kept.status == 1 && kept.stderr.contains("keep.txt"), "\(kept.stderr)")
    #expect(FileManager.default.fileExists(atPath: out + "/keep.txt"))
    // Nothing left over beside it.
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).filter { $0.hasPrefix(".") }.isEmpty)
  }

  @Test("--force replaces a folder with esmira/ and mpath/ exports it wrote; the report names the scenario file, not the path typed; --duration reaches a variant's own duration; a seed up to 2^63 - 1 is read exactly")
  func rerunsAsWritten() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write(
      "s.yaml",
      """
      name: exports
      seed: 9007199254740993
      duration: 2d
      population: {size: 3}
      protocol:
        window: "09:00-21:00"
        schedule: {algorithm: fixed-blocks, per_day: 3}
      variants:
        - name: base
        - name: long
          duration: 4d
      outputs: {esmira: true, mpath: true, prompts: true, sqlite: false}

      """)
    let out = tmp.path("out")
    let args = ["run", file, "--output", out, "--force"]
    #expect(try ESMSimBinary.run(args).status == 0)
    let again = try ESMSimBinary.run(args)
    #expect(again.status == 0, "\(again.stderr)")
    // The report: the file's name, however the path was typed.
    let report = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
    #expect(report.contains("s.yaml") && !report.contains(tmp.url.path))
    // The seed as written (through a double, 2^53 + 1 was refused).
    let shown = try ESMSimBinary.run(["show", file])
    #expect(shown.status == 0 && shown.stdout.contains("seed: 9007199254740993"), "\(shown.stderr)")
    // --duration 1d: the variant's own 4 days too.
    let short = tmp.path("short")
    #expect(try ESMSimBinary.run(["run", file, "--output", short, "--duration", "1d"]).status == 0)
    let dates = Set(try lines(short + "/prompts.csv").dropFirst().filter { !$0.isEmpty }.map { String($0.split(separator: ",")[4]) })
    #expect(dates.count == 1, "\(dates)")
  }

  @Test("a push held while the phone is off arrives only within the channel's store time; past it, it is lost to the phone being off")
  func heldPushStore() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write(
      "s.yaml",
      """
      name: store
      seed: 5
      duration: 10d
      population:
        size: 40
        devices: {non_controlled: 1}
        os: {ios: 1}
        device_profiles:
          non_controlled: {charge_nightly: 0.3, charge_when_low: 0, battery_drain_awake: 10}
      protocol:
        window: "08:00-10:00"
        schedule: {algorithm: fixed-blocks, per_day: 1}
        expiry: 30m
        channel: {preset: push, store: 1h}
      outputs: {prompts: true, sqlite: false, report: false}

      """)
    let out = tmp.path("out")
    let r = try ESMSimBinary.run(["run", file, "--output", out])
    #expect(r.status == 0, "\(r.stderr)")
    let rows = try lines(out + "/prompts.csv")
    let header = rows[0].split(separator: ",").map(String.init)
    let (s, d, reason) = (header.firstIndex(of: "scheduled")!, header.firstIndex(of: "delivered")!, header.firstIndex(of: "reason")!)
    func minutes(_ t: Substring) -> Double {
      let date = ISO8601DateFormatter.esmsimLocal.date(from: String(t.prefix(19)))!
      return date.timeIntervalSince1970 / 60
    }
    var late = 0
    var phoneOff = 0
    for line in rows.dropFirst() where !line.isEmpty {
      let c = line.split(separator: ",", omittingEmptySubsequences: false)
      if !c[d].isEmpty && minutes(c[d]) - minutes(c[s]) > 60 { late += 1 }
      if c[reason] == "phone_off" { phoneOff += 1 }
    }
    // Before, 90 pushes arrived 1 to 16.5 hours late (most at bedtime, then called asleep).
    #expect(late == 0)
    #expect(phoneOff > 20)
  }

  @Test("the manifest's scenario hash covers the bytes of an imported protocol file, and a sweep's shards run against different files do not merge")
  func importedFilesHashed() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    func schedule(_ hours: String) throws {
      _ = try tmp.write(
        "sched.json",
        """
        [{"schedule_id": "s", "hours": [\(hours)], "start_date": "01-01-2026", "end_date": "12-31-2026", "expiration": 30,
          "randomize": 0, "notification_title": "t", "notification_body": "b", "esms": [{"esm": {"esm_type": 1}}]}]
        """)
    }
    try schedule("9, 15")
    let file = try tmp.write(
      "s.yaml", "name: imports\nstart_date: \"2026-01-05\"\nduration: 2d\npopulation: {size: 3}\nprotocol: {aware_schedule: sched.json}\noutputs: {sqlite: false, report: false}\n")
    func hash(_ out: String) throws -> (String, [String: Any]) {
      #expect(try ESMSimBinary.run(["run", file, "--output", tmp.path(out)]).status == 0)
      let data = try Data(contentsOf: URL(fileURLWithPath: tmp.path(out) + "/manifest.json"))
      let scenario = try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["scenario"] as? [String: Any])
      return (scenario["sha256"] as! String, scenario["imports"] as? [String: Any] ?? [:])
    }
    let (a, importsA) = try hash("a")
    #expect(importsA.keys.sorted() == ["sched.json"])
    try schedule("9, 15, 21")
    let (b, _) = try hash("b")
    #expect(a != b)
    // A sweep: shard 0 against one file, shard 1 against another.
    try schedule("9, 15")
    let sweep = try tmp.write("sweep.yaml", "scenario: s.yaml\ngrid:\n  protocol.expiry: [15m, 60m]\n")
    let out = tmp.path("sv")
    #expect(try ESMSimBinary.run(["sweep", "run", sweep, "--output", out, "--shard", "0", "--num-shards", "2"]).status == 0)
    try schedule("9, 15, 21")
    let second = try ESMSimBinary.run(["sweep", "run", sweep, "--output", out, "--shard", "1", "--num-shards", "2"])
    #expect(second.status != 0 && second.stderr.contains("different sweep"), "\(second.stderr)")
  }

  @Test("a sweep over imported files: editing the file of a point other than the first changes the spec's hash, so shards run against both do not merge; --merge with shards is refused up front")
  func sweepImportsEveryPoint() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    func schedule(_ name: String, _ hours: String) throws {
      _ = try tmp.write(
        name, #"[{"schedule_id": "s", "hours": [\#(hours)], "randomize": 0, "expiration": 30, "esms": [{"esm": {"esm_type": 1}}]}]"#)
    }
    try schedule("a.json", "9, 15")
    try schedule("b.json", "8, 20")
    _ = try tmp.write("s.yaml", "name: imports\nduration: 2d\npopulation: {size: 3}\noutputs: {sqlite: false, report: false}\n")
    let sweep = try tmp.write("sweep.yaml", "scenario: s.yaml\ngrid:\n  protocol.aware_schedule: [a.json, b.json]\n")
    let out = tmp.path("sv")
    // --merge with shards: refused before any unit runs (it failed after the shard had succeeded).
    let merged = try ESMSimBinary.run(["sweep", "run", sweep, "--output", out, "--shard", "0", "--num-shards", "2", "--merge"])
    #expect(merged.status != 0 && merged.stderr.contains("--merge") && !FileManager.default.fileExists(atPath: out), "\(merged.stderr)")
    let first = try ESMSimBinary.run(["sweep", "run", sweep, "--output", out, "--shard", "0", "--num-shards", "2"])
    #expect(first.status == 0, "\(first.stderr)")
    try schedule("b.json", "8, 12, 16, 20")
    let second = try ESMSimBinary.run(["sweep", "run", sweep, "--output", out, "--shard", "1", "--num-shards", "2"])
    #expect(second.status != 0 && second.stderr.contains("different sweep"), "\(second.stderr)")
  }

  @Test("show prints every default; validate says what the scenario describes")
  func showAndValidate() throws {
    let show = try ESMSimBinary.run(["show", "scenarios/quickstart.yaml"])
    #expect(show.status == 0)
    #expect(show.stdout.contains("classes:\n      - name: engaged\n        share: 0.857\n"), "\(show.stdout)")
    #expect(show.stdout.contains("ringer:\n      silent: 0.255\n      vibrate: 0.215\n      sound: 0.53\n"))
    #expect(show.stdout.contains("end_margin: 10m"))
    let validate = try ESMSimBinary.run(["validate", "scenarios/aware-ios-case-study.yaml"])
    #expect(validate.status == 0 && validate.stdout.contains("4 variant(s)"))
  }

  @Test("L3: --force keeps a user's file put inside the results' beiwe/ folder (refused, naming the folder)")
  func forceKeepsNestedFiles() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let scenario = try tmp.write("b.yaml", "name: b\nduration: 2d\npopulation: {size: 3}\noutputs: {beiwe: true}\n")
    let out = tmp.path("res")
    #expect(try ESMSimBinary.run(["run", scenario, "--output", out]).status == 0)
    let mine = out + "/beiwe/v1-r1/p1/notes.txt"
    try "mine".write(toFile: mine, atomically: true, encoding: .utf8)
    let r = try ESMSimBinary.run(["run", scenario, "--output", out, "--force"])
    #expect(r.status == 1 && r.stderr.contains("res/beiwe holds files its manifest.json does not count"), "\(r.stderr)")
    #expect(FileManager.default.fileExists(atPath: mine))
    try FileManager.default.removeItem(atPath: mine)
    #expect(try ESMSimBinary.run(["run", scenario, "--output", out, "--force"]).status == 0)
  }

  @Test("a negative number after an option is its value, refused by its own check (it was 'Missing value')")
  func negativeValues() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let scenario = "scenarios/quickstart.yaml"
    let p = try ESMSimBinary.run(["run", scenario, "--output", tmp.path("a"), "--participants", "-5"])
    #expect(p.status == 64 && p.stderr.contains("--participants must be between 1") && !p.stderr.contains("Missing value"), "\(p.stderr)")
    let d = try ESMSimBinary.run(["run", scenario, "--output", tmp.path("b"), "--duration", "-3d"])
    #expect(d.status != 0 && d.stderr.contains("duration") && d.stderr.contains("'-3d'") && !d.stderr.contains("Missing value"), "\(d.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tmp.path("a")) && !FileManager.default.fileExists(atPath: tmp.path("b")))
  }
}
