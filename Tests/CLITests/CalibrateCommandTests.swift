import Foundation
import Testing

/// `esmsim calibrate` end to end on a generic per-prompt file: the protocol proposed from the
/// records, the block, and beside it the JSON and the page with the predictive check.
@Suite("esmsim calibrate: a generic pilot file, its protocol, the block, JSON and page")
struct CalibrateCommandTests {
  /// 8 participants, 4 days, prompts at 09:00, 13:00, 17:00 and 21:00 (UTC), answered by a
  /// fixed rule: participant p answers prompt k when (p + k) % 3 != 0, opening after
  /// (p + 1) minutes and taking 40 s.
  static func pilot() -> String {
    var rows = ["participant,scheduled,opened,submitted"]
    let day0: Int64 = 1_740_960_000  // 2025-03-03 00:00 UTC
    for p in 0..<8 {
      for d in 0..<4 {
        for (k, h) in [9, 13, 17, 21].enumerated() {
          let t = day0 + Int64(d) * 86_400 + Int64(h) * 3600
          if (p + k + d) % 3 != 0 {
            let o = t + Int64(p + 1) * 60
            rows.append("p\(p),\(t),\(o),\(o + 40)")
          } else {
            rows.append("p\(p),\(t),,")
          }
        }
      }
    }
    return rows.joined(separator: "\n") + "\n"
  }

  @Test("--propose prints the protocol the records show; --holdout writes the check, and the fit on the part kept, beside the block")
  func endToEnd() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("pilot.csv", Self.pilot())
    let propose = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose"])
    #expect(propose.status == 0, "\(propose.stderr)")
    #expect(propose.stdout.contains("{algorithm: fixed-times, times: [\"09:00\", \"13:00\", \"17:00\", \"21:00\"]}"), "\(propose.stdout)")
    #expect(propose.stdout.contains("duration: 4d") && propose.stdout.contains("size: 8"))
    // With --output the proposal goes into the file too (it exited 0 and wrote nothing), a
    // scenario esmsim runs.
    let written = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose", "--output", tmp.path("proposed.yaml")])
    #expect(written.status == 0 && written.stderr.contains("proposed.yaml"), "\(written.stderr)")
    #expect(try String(contentsOfFile: tmp.path("proposed.yaml"), encoding: .utf8) == propose.stdout)
    #expect(try ESMSimBinary.run(["validate", tmp.path("proposed.yaml")]).status == 0)
    let r = try ESMSimBinary.run([
      "calibrate", file, "--format", "csv", "--holdout", "days:2", "--people", "20", "--bootstrap", "3", "--output",
      tmp.path("block.yaml"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let block = try String(contentsOfFile: tmp.path("block.yaml"), encoding: .utf8)
    #expect(block.contains("population:\n  compliance:\n    answer_probability: "))
    #expect(block.contains("# predictive check (--holdout days:2)"))
    #expect(block.contains("#   the fit on the part kept, which the predictions draw from"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("block.json")))) as! [String: Any]
    let check = json["check"] as! [String: Any]
    let figures = check["figures"] as! [[String: Any]]
    #expect(figures.contains { $0["figure"] as? String == "answered" })
    // The fit the predictions draw from is the one on days 1-2: its answered share is theirs
    // (the fixture's rule on those days), not the whole pilot's.
    var answeredKept = 0
    for p in 0..<8 {
      for d in 0..<2 {
        for k in 0..<4 where (p + k + d) % 3 != 0 { answeredKept += 1 }
      }
    }
    let kept = Double(answeredKept) / 64
    let whole = (json["pilot"] as! [String: Any])["answered"] as! Double
    let fit = check["fit"] as! [String: Any]
    let answered = (fit["moments"] as! [[String: Any]]).first { $0["moment"] as? String == "answered share" }
    #expect(abs((answered?["pilot"] as? Double ?? .nan) - kept) < 1e-12 && abs(kept - whole) > 0.001, "\(String(describing: answered)) \(kept) \(whole)")
    #expect((fit["estimates"] as! [[String: Any]]).contains { $0["parameter"] as? String == "answer_probability" })
    #expect((json["estimates"] as! [[String: Any]]).contains { $0["parameter"] as? String == "answer_probability" })
    #expect((json["pilot"] as! [String: Any])["participants"] as? Int == 8)
    let page = try String(contentsOfFile: tmp.path("block.html"), encoding: .utf8)
    #expect(page.contains("Predictive check") && page.contains("<svg"))
    #expect(page.contains("<h3>The fit on the part kept, which the predictions draw from</h3><h4>Estimates</h4>"))
    // A holdout that holds out nothing is refused, and nothing is written.
    let none = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--holdout", "days:9", "--output", tmp.path("other.yaml")])
    #expect(none.status != 0 && none.stderr.contains("days:9"))
    #expect(!FileManager.default.fileExists(atPath: tmp.path("other.yaml")))
  }

  @Test("--kept-at-least: lowest is the pilot's lowest share, said in the report and the JSON; a share above a participant's, or no share, is refused and nothing is written")
  func keptAtLeast() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("pilot.csv", Self.pilot())
    var lowest = 1.0
    for p in 0..<8 {
      var answered = 0
      for d in 0..<4 { for k in 0..<4 where (p + k + d) % 3 != 0 { answered += 1 } }
      lowest = min(lowest, Double(answered) / 16)
    }
    let r = try ESMSimBinary.run([
      "calibrate", file, "--format", "csv", "--kept-at-least", "lowest", "--people", "20", "--bootstrap", "2", "--evaluations", "20",
      "--output", tmp.path("kept.yaml"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("# the records hold only participants who answered at least \(String(format: "%.4g", lowest)) of their prompts"), "\(r.stdout)")
    #expect(r.stdout.contains("# the simulation at the estimate keeps "))
    let page = try String(contentsOfFile: tmp.path("kept.html"), encoding: .utf8)
    #expect(page.contains("The records hold only participants who answered at least"))
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("kept.json")))) as! [String: Any]
    let pilot = json["pilot"] as! [String: Any]
    #expect(abs((pilot["kept_at_least"] as? Double ?? .nan) - lowest) < 1e-12)
    let share = pilot["kept_share_simulated"] as? Double ?? .nan
    #expect(share > 0 && share <= 1)
    for (bad, says) in [("\(min(lowest + 0.1, 1))", "answered less"), ("abc", "found 'abc'"), ("0", "found '0'")] {
      let refused = try ESMSimBinary.run([
        "calibrate", file, "--format", "csv", "--kept-at-least", bad, "--people", "20", "--output", tmp.path("other.yaml"),
      ])
      #expect(refused.status != 0 && refused.stderr.contains("--kept-at-least") && refused.stderr.contains(says), "\(bad): \(refused.stderr)")
      #expect(!FileManager.default.fileExists(atPath: tmp.path("other.yaml")))
    }
  }

  @Test("options a format or --propose would silently ignore are refused: a clock for records that carry their own, --kept-at-least with --propose")
  func ignoredOptions() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("pilot.csv", Self.pilot())
    for format in ["mpath", "aware", "esmira"] {
      let r = try ESMSimBinary.run(["calibrate", file, "--format", format, "--propose", "--time-zone", "Europe/Brussels"])
      #expect(r.status == 64 && r.stderr.contains("--time-zone") && r.stderr.contains("--format \(format)"), "\(format): \(r.stderr)")
    }
    let offset = try ESMSimBinary.run(["calibrate", file, "--format", "mpath", "--propose", "--utc-offset", "60"])
    #expect(offset.status == 64 && offset.stderr.contains("--utc-offset"), "\(offset.stderr)")
    let kept = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose", "--kept-at-least", "lowest"])
    #expect(kept.status == 64 && kept.stderr.contains("--kept-at-least"), "\(kept.stderr)")
    // The formats whose clock they set take them.
    #expect(try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose", "--time-zone", "Europe/Brussels"]).status == 0)
  }

  @Test("an estimate that does not reproduce the pilot (one answer in 128) says so, moment by moment, and an hour with no answer has no interval (it printed [0, nan])")
  func misfitSaid() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    var lines = Self.pilot().split(separator: "\n").map(String.init)
    let kept = try #require(lines.indices.dropFirst().first { !lines[$0].hasSuffix(",,") })
    for k in 1..<lines.count where k != kept {
      let f = lines[k].split(separator: ",", omittingEmptySubsequences: false)
      lines[k] = "\(f[0]),\(f[1]),,"
    }
    let file = try tmp.write("one.csv", lines.joined(separator: "\n") + "\n")
    let r = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--people", "20", "--bootstrap", "2", "--evaluations", "20"])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("# warning: the estimate does not reproduce the pilot's answered share"), "\(r.stdout)")
    #expect(!r.stdout.contains("nan"), "\(r.stdout)")
  }

  @Test("a pilot with nothing answered (a csv whose answers' column has another name) is refused by name; --output is checked before the fit; a pilot of fewer than 5 participants is warned about")
  func refusedEarly() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    // The answers' column named otherwise: read as a pilot that answered nothing, refused,
    // not fitted (it used to fit willingness 0.93 against an answered share of 0).
    let renamed = Self.pilot().replacingOccurrences(of: "participant,scheduled,opened,submitted", with: "participant,scheduled,opened,completed_at")
    let file = try tmp.write("renamed.csv", renamed)
    let r = try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--people", "20", "--output", tmp.path("r.yaml")])
    #expect(r.status == 1 && r.stderr.contains("renamed.csv: no prompt in the pilot's files was answered"), "\(r.stderr)")
    #expect(r.stderr.contains("--column submitted=NAME"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tmp.path("r.yaml")) && !FileManager.default.fileExists(atPath: tmp.path("r.json")))
    // --propose reads the schedule alone, answered or not.
    #expect(try ESMSimBinary.run(["calibrate", file, "--format", "csv", "--propose"]).status == 0)
    // An output in a folder that does not exist, or that is a folder: refused before any
    // simulation (the work estimate is printed only once the fit is to run).
    let good = try tmp.write("pilot.csv", Self.pilot())
    try FileManager.default.createDirectory(atPath: tmp.path("dir"), withIntermediateDirectories: false)
    for (output, says) in [(tmp.path("missing/c.yaml"), "does not exist"), (tmp.path("dir"), "it is a folder")] {
      let o = try ESMSimBinary.run(["calibrate", good, "--format", "csv", "--people", "20", "--output", output])
      #expect(o.status != 0 && o.stderr.contains("--output") && o.stderr.contains(says), "\(output): \(o.stderr)")
      #expect(!o.stderr.contains("participant-days to simulate"), "\(o.stderr)")
    }
    // Usage errors found once the pilot is read show calibrate's usage (they showed the root's)
    // and exit 64, as a mapping that cannot be read does before it.
    for args in [["--holdout", "days:20"], ["--column", "foo=x"]] {
      let u = try ESMSimBinary.run(["calibrate", good, "--format", "csv"] + args)
      #expect(u.status == 64 && u.stderr.contains("esmsim calibrate --help") && !u.stderr.contains("<subcommand>"), "\(args): \(u.stderr)")
    }
    // Refused with the option named: a mapping's error, --holdout beside --propose (it was
    // ignored), and an --output named .json (the block's YAML went into it, the JSON beside
    // it as .json.json).
    for (args, says) in [
      (["--column", "foo=x"], "--column: expected ROLE=COLUMN"),
      (["--propose", "--holdout", "days:2"], "--propose prints the protocol and stops"),
      // It ignored --propose, and fitted a pilot with nothing answered.
      (["--propose", "--scenario", "scenarios/pilot-example.yaml"], "--scenario gives one"),
      (["--output", tmp.path("w.json")], "give a name like"),
    ] {
      let u = try ESMSimBinary.run(["calibrate", good, "--format", "csv"] + args)
      #expect(u.status == 64 && u.stderr.contains(says), "\(args): \(u.stderr)")
    }
    #expect(!FileManager.default.fileExists(atPath: tmp.path("w.json")))
    // Three participants: fitted, with a warning that the intervals are too narrow.
    let three = Self.pilot().split(separator: "\n").filter { !$0.hasPrefix("p3") && !$0.hasPrefix("p4") && !$0.hasPrefix("p5") && !$0.hasPrefix("p6") && !$0.hasPrefix("p7") }
    let small = try tmp.write("small.csv", three.joined(separator: "\n") + "\n")
    let w = try ESMSimBinary.run(["calibrate", small, "--format", "csv", "--people", "20", "--bootstrap", "2", "--evaluations", "20"])
    #expect(w.status == 0 && w.stderr.contains("warning: the pilot has 3 participants"), "\(w.stderr)")
    let eight = try ESMSimBinary.run(["calibrate", good, "--format", "csv", "--people", "20", "--bootstrap", "2", "--evaluations", "20"])
    #expect(eight.status == 0 && !eight.stderr.contains("warning: the pilot has"), "\(eight.stderr)")
  }
}
