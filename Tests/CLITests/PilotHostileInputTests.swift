import Foundation
import Testing

/// `esmsim calibrate` under hostile and ordinary-but-odd input: each case a located error, a
/// correct result or a bounded run, and nothing half-written.
@Suite("esmsim calibrate: hostile and odd pilots")
struct PilotHostileInputTests {
  /// A generic pilot: `people` participants, `days` days, prompts at the given local clock
  /// times (`HH:MM`), each answered 3 minutes after it; `name` its questionnaire.
  static func pilot(people: Int = 4, days: Int = 4, times: [String] = ["09:00", "13:00", "17:00", "21:00"], name: String? = nil)
    -> String
  {
    var rows = [name == nil ? "participant,scheduled,opened,submitted" : "participant,questionnaire,scheduled,opened,submitted"]
    for p in 0..<people {
      for d in 0..<days {
        for t in times {
          let at = String(format: "2026-01-%02dT%@:00", 5 + d, t)
          let open = p % 2 == 0 ? String(format: "2026-01-%02dT%@:30", 5 + d, t) : ""
          let q = name.map { "\"\($0)\"," } ?? ""
          rows.append("p\(p),\(q)\(at),\(open),\(open)")
        }
      }
    }
    return rows.joined(separator: "\n") + "\n"
  }

  @Test("H1: a holdout whose part has no answered prompt (the TestFlight build expired) writes its report, exit 0")
  func holdoutWithoutAnswers() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("p.csv", Self.pilot(people: 6, days: 8))
    let scenario = try tmp.write(
      "s.yaml",
      "name: s\nduration: 8d\npopulation: {size: 6, devices: {non_controlled: 1}}\nprotocol: {window: \"08:00-22:00\", schedule: {algorithm: fixed-times, times: [\"09:00\", \"13:00\", \"17:00\", \"21:00\"]}, expiry: 30m, distribution: testflight, build_age_days: 87}\n"
    )
    let r = try ESMSimBinary.run([
      "calibrate", file, "--format", "csv", "--scenario", scenario, "--holdout", "days:3", "--people", "20", "--bootstrap", "2",
      "--output", tmp.path("out.yaml"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    for f in ["out.yaml", "out.json", "out.html"] { #expect(FileManager.default.fileExists(atPath: tmp.path(f)), "\(f)") }
    // The report on the terminal as well as in the file.
    #expect(r.stdout.contains("# predictive check (--holdout days:3)"))
  }

  @Test("M1: a header wider than 10,000 columns is refused as it is read, naming the line; 9,999 are read")
  func wideHeader() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let base = ["participant", "scheduled", "opened", "submitted"]
    let wide = try tmp.write("w.csv", (base + (0..<100_000).map { "x\($0)" }).joined(separator: ",") + "\n")
    let r = try ESMSimBinary.run(["calibrate", wide, "--format", "csv", "--propose"])
    #expect(r.status == 1 && r.stderr.contains("w.csv (line 1") && r.stderr.contains("more than 10000 fields"), "\(r.stderr)")
    let header = (base + (0..<9_995).map { "x\($0)" }).joined(separator: ",")
    let row = "p1,2026-01-05T09:00:00,," + String(repeating: ",", count: 9_995)
    let ok = try tmp.write("ok.csv", header + "\n" + row + "\n")
    let o = try ESMSimBinary.run(["calibrate", ok, "--format", "csv", "--propose"])
    #expect(o.status == 0, "\(o.stderr.prefix(300))")
  }

  @Test("M2: ESMira questionnaires without their exact invitation each find the latest open one (20,000 of each)")
  func esmiraUnmatched() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let n = 20_000
    let t0: Int64 = 1_767_600_000_000
    var events = ["userId;questionnaireName;eventType;actionScheduledTo;timezoneOffset"]
    var answers = ["userId;questionnaireName;lastInvitation;responseTime;formDuration"]
    for i in 0..<n {
      let t = t0 + Int64(i) * 300_000
      events.append("\"u1\";\"q\";\"invitation\";\"\(t)\";\"0\"")
      // Every other invitation answered, naming a time a second after it (not its own).
      if i % 2 == 0 { answers.append("\"u1\";\"q\";\"\(t + 1000)\";\"\(t + 120_000)\";\"60000\"") }
    }
    let e = try tmp.write("events.csv", events.joined(separator: "\n") + "\n")
    let q = try tmp.write("q.csv", answers.joined(separator: "\n") + "\n")
    let r = try ESMSimBinary.run(["calibrate", e, q, "--format", "esmira", "--propose"])
    #expect(r.status == 0, "\(r.stderr)")
    // Answered: each of the n/2 questionnaires matched its invitation, none left out.
    #expect(!r.stdout.contains("invitation is not in events.csv"), "\(r.stdout.prefix(400))")
  }

  @Test("M3, M4, M6, L1: size checked before reading; a negative UTC offset; a file given twice; an output that is an input")
  func pathsAndOptions() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("g.csv", Self.pilot())
    // A sparse file of 2 GB: refused from its size, not read.
    let big = tmp.path("big.csv")
    FileManager.default.createFile(atPath: big, contents: Data("participant,scheduled\n".utf8))
    let h = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
    try h.truncate(atOffset: 2 << 30)
    try h.close()
    let r1 = try ESMSimBinary.run(["calibrate", big, "--format", "csv", "--propose"])
    #expect(r1.status == 1 && r1.stderr.contains("big.csv") && r1.stderr.contains("2147483648 bytes"), "\(r1.stderr)")
    let r2 = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--utc-offset", "-300", "--propose"])
    #expect(r2.status == 0, "\(r2.stderr)")
    let r3 = try ESMSimBinary.run(["calibrate", file, tmp.path("./g.csv"), "--format", "csv", "--propose"])
    #expect(r3.status != 0 && r3.stderr.contains("given twice"), "\(r3.stderr)")
    let before = try String(contentsOfFile: file, encoding: .utf8)
    let r4 = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--output", file])
    #expect(r4.status != 0 && r4.stderr.contains("--output") && r4.stderr.contains("the pilot's file"), "\(r4.stderr)")
    #expect(try String(contentsOfFile: file, encoding: .utf8) == before)
    let scenario = try tmp.write("s.yaml", "name: s\nduration: 3d\npopulation: {size: 5}\n")
    let r5 = try ESMSimBinary.run(["design", scenario, "--target", "p10:5", "--output", scenario])
    #expect(r5.status != 0 && r5.stderr.contains("the scenario"), "\(r5.stderr)")
    #expect(try String(contentsOfFile: scenario, encoding: .utf8).hasPrefix("name: s"))
  }

  @Test("M7, L7: a questionnaire named 'Daily diary', a one-day pilot, a prompt at 23:59, a name with a line break")
  func ordinaryPilots() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    for (name, text) in [
      ("diary.csv", Self.pilot(name: "Daily diary")),
      ("oneday.csv", Self.pilot(days: 1, times: ["09:12", "13:40", "17:05", "20:30"])),
      ("late.csv", Self.pilot(times: ["21:00", "23:59"])),
      ("break.csv", Self.pilot(name: "evil\nname: x\r\n- y")),
    ] {
      let file = try tmp.write(name, text)
      let r = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--people", "10", "--bootstrap", "2"])
      #expect(r.status == 0, "\(name): \(r.stderr)")
      let p = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose"])
      // The proposal is one YAML document: comment lines stay comments.
      let scenario = try tmp.write(name + ".yaml", p.stdout)
      let v = try ESMSimBinary.run(["validate", scenario])
      #expect(v.status == 0, "\(name): \(v.stderr)\n\(p.stdout)")
    }
  }

  @Test("48.6: an opening up to 5 minutes before its prompt is kept and said; earlier is refused; blocks survive a few outliers")
  func robustReading() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    var early = Self.pilot().split(separator: "\n").map(String.init)
    early[1] = "p0,2026-01-05T09:00:00,2026-01-05T08:58:00,2026-01-05T08:58:40"
    let file = try tmp.write("early.csv", early.joined(separator: "\n") + "\n")
    let r = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--people", "10", "--bootstrap", "2"])
    #expect(r.status == 0 && r.stdout.contains("# warning: kept 1 openings up to 5 minutes before their prompt"), "\(r.stderr)\(r.stdout.prefix(600))")
    early[1] = "p0,2026-01-05T09:00:00,2026-01-05T08:50:00,2026-01-05T08:50:40"
    let bad = try tmp.write("bad.csv", early.joined(separator: "\n") + "\n")
    let b = try ESMSimBinary.run(["calibrate", bad, "--format", "csv", "--propose"])
    #expect(b.status == 1 && b.stderr.contains("bad.csv: opened (line 2") && b.stderr.contains("more than 5 minutes before"), "\(b.stderr)")
    // Four half-hour blocks 09-09:30, 12-12:30, 15-15:30, 18-18:30 (drawn in their middle),
    // 30 participants; one participant's prompts three hours late (another time zone).
    var rows = ["participant,scheduled"]
    var x: UInt64 = 7
    for p in 0..<30 {
      for d in 0..<7 {
        for start in [540, 720, 900, 1080] {
          x = x &* 6364136223846793005 &+ 1442695040888963407
          var m = start + 5 + Int(x >> 33) % 20 + (p == 0 ? 180 : 0)
          m = min(m, 1439)
          rows.append(String(format: "p%d,2026-01-%02dT%02d:%02d:00", p, 5 + d, m / 60, m % 60))
        }
      }
    }
    let blocks = try tmp.write("blocks.csv", rows.joined(separator: "\n") + "\n")
    let pb = try ESMSimBinary.run(["calibrate", blocks, "--format", "csv", "--propose"])
    #expect(pb.stdout.contains("4 a day, one in each of 4 blocks of 180 minutes") || pb.stdout.contains("buffered-blocks"), "\(pb.stdout)")
    #expect(!pb.stdout.contains("blocks of 210"), "\(pb.stdout)")
  }
}
