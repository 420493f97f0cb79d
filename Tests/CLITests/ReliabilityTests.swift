import Foundation
import Testing

/// The command line's side of "Nothing lost, nothing crashes": each case here was accepted
/// or crashed before (a Slurm variable that is not a number silently ran shard 0; an
/// `#SBATCH --output` path was written unquoted; calibrate took any offset).
@Suite("The command line refuses what it cannot do, by name")
struct ReliabilityTests {
  func scratch() throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
  }

  @Test("SLURM_ARRAY_TASK_ID that is not a number is refused by name, not run as shard 0")
  func slurmVariable() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try ESMSimBinary.run(
      ["sweep", "run", "scenarios/sweep-schedulers.yaml", "--output", dir.appendingPathComponent("s").path],
      environment: ["SLURM_ARRAY_TASK_ID": "abc", "SLURM_ARRAY_TASK_COUNT": "4"])
    #expect(r.status != 0 && r.stderr.contains("SLURM_ARRAY_TASK_ID"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("s/units").path))
    // A usage error of a nested subcommand's own checks points at its help by its whole path.
    let shard = try ESMSimBinary.run(
      ["sweep", "run", "scenarios/sweep-schedulers.yaml", "--output", dir.appendingPathComponent("t").path, "--shard", "3", "--num-shards", "3"])
    #expect(shard.status == 64 && shard.stderr.contains("See 'esmsim sweep run --help'"), "\(shard.stderr)")
  }

  @Test("more shards than units: an empty shard says so and runs nothing; the largest shard count does not crash")
  func emptyShard() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let out = dir.appendingPathComponent("e").path
    // The sweep has 180 units (sweep plan); shard 0 of 1000 has none.
    let empty = try ESMSimBinary.run(["sweep", "run", "scenarios/sweep-schedulers.yaml", "--output", out, "--shard", "0", "--num-shards", "1000"])
    #expect(empty.status == 0 && empty.stdout.contains("shard 0 of 1000: no work units"), "\(empty.stdout)\(empty.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out + "/units"))
    // i·N/k overflowed Int and crashed (signal 4) before.
    let huge = try ESMSimBinary.run(
      ["sweep", "run", "scenarios/sweep-schedulers.yaml", "--output", out, "--shard", "9223372036854775805", "--num-shards", "9223372036854775807"])
    #expect(huge.status == 0 && huge.stdout.contains("no work units"), "\(huge.status) \(huge.stderr)")
  }

  @Test("slurm-script quotes the log path of #SBATCH --output; a path sbatch cannot take is refused")
  func sbatchOutput() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let spaced = dir.appendingPathComponent("my sweep").path
    let r = try ESMSimBinary.run(["sweep", "slurm-script", "scenarios/sweep-schedulers.yaml", "--output", spaced, "--shards", "2"])
    #expect(r.status == 0, "\(r.stderr)")
    let script = try String(contentsOfFile: spaced + "/slurm/array-0.sh", encoding: .utf8)
    #expect(script.contains("#SBATCH --output=\"\(spaced)/slurm/logs/shard-%A_%a.out\""), "\(script)")
    let percent = try ESMSimBinary.run(
      ["sweep", "slurm-script", "scenarios/sweep-schedulers.yaml", "--output", dir.appendingPathComponent("100%").path, "--shards", "2"])
    #expect(percent.status != 0 && percent.stderr.contains("--output"), "\(percent.stderr)")
  }

  @Test("sweep plan: each suggested shard count with its work at the estimated rate (it said 'a few minutes' of a 2-second sweep)")
  func sweepPlanWork() throws {
    let r = try ESMSimBinary.run(["sweep", "plan", "scenarios/sweep-schedulers.yaml"])
    #expect(r.status == 0, "\(r.stderr)")
    // 100,800 participant-days in all, at 100,000 a second on 2 cores: about 1 s.
    let line = r.stdout.split(separator: "\n").first { $0.hasPrefix("suggested shards:") } ?? ""
    #expect(r.stdout.contains("participant-days in all: 100800"), "\(r.stdout)")
    #expect(line.contains("1 (about 1 s each)") || line.contains("1 (about 2 s each)"), "\(line)")
    #expect(!r.stdout.contains("a few minutes"))
  }

  @Test("a table where a scenario goes, and a pilot's file that is missing or a folder, are said to be what they are")
  func filesSaidForWhatTheyAre() throws {
    for command in [["run", "scenarios/pilot-example.csv", "--output", "/tmp/esmsim-never"], ["validate", "scenarios/pilot-example.csv"]] {
      let r = try ESMSimBinary.run(command)
      #expect(r.status != 0 && r.stderr.contains("pilot-example.csv: is a table, not a scenario"), "\(command): \(r.stderr)")
    }
    for (file, says) in [("no-such-pilot.csv", "no-such-pilot.csv: does not exist"), ("scenarios", "scenarios: is a folder")] {
      let r = try ESMSimBinary.run(["calibrate", file, "--format", "csv"])
      #expect(r.status != 0 && r.stderr.contains(says), "\(file): \(r.stderr)")
    }
  }

  @Test("calibrate: an offset from UTC beyond ±14 hours is refused by name")
  func utcOffset() throws {
    let r = try ESMSimBinary.run([
      "calibrate", "x.csv", "--format", "beiwe", "--scenario", "scenarios/quickstart.yaml", "--utc-offset", "1000000000",
    ])
    #expect(r.status != 0 && r.stderr.contains("--utc-offset"), "\(r.stderr)")
  }

  @Test("run: --output . --force and a folder of one's own files are refused and left as they were")
  func force() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    try "mine".write(to: dir.appendingPathComponent("keep.txt"), atomically: true, encoding: .utf8)
    let scenario = ESMSimBinary.packageRoot.appendingPathComponent("scenarios/quickstart.yaml").path
    for output in [".", "", dir.path] {
      let r = try ESMSimBinary.run(
        ["run", scenario, "--output", output, "--force", "--participants", "2", "--duration", "1d"], in: dir)
      #expect(r.status == 1 && !r.stderr.isEmpty, "\(output): \(r.status) \(r.stderr)")
      #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("keep.txt").path))
    }
  }

  @Test("validate: a protocol of 1,001 imported schedules is not ok, and the reason names the limit")
  func validateLimit() throws {
    let dir = try scratch()
    defer { try? FileManager.default.removeItem(at: dir) }
    let times = (0..<1_001).map { #"{"startTimeOfDay": \#(21_600_000 + $0 * 60_000), "random": false}"# }.joined(separator: ",")
    let study = """
      {"id": 1, "title": "Many", "questionnaires": [{"title": "Mood",
        "pages": [{"inputs": [{"name": "mood", "text": "How?", "responseType": "likert"}]}],
        "actionTriggers": [{"actions": [{"type": 1, "msgText": "Now", "timeout": 30}],
          "schedules": [{"dailyRepeatRate": 1, "weekdays": 0, "signalTimes": [\(times)]}]}]}]}
      """
    try study.write(to: dir.appendingPathComponent("study.json"), atomically: true, encoding: .utf8)
    try "name: many\nprotocol: {esmira_study: study.json}\n".write(
      to: dir.appendingPathComponent("s.yaml"), atomically: true, encoding: .utf8)
    let r = try ESMSimBinary.run(["validate", "s.yaml"], in: dir)
    #expect(r.status == 1 && r.stderr.contains("at most 1000"), "\(r.stderr)")
  }
}

/// What leaves esmsim for other programs (the R and Python packages) is machine-readable:
/// errors as one JSON object, tables' column types in the manifest.
@Suite("Errors and column types for other programs")
struct MachineReadableTests {
  @Test("with ESMSIM_ERROR_FORMAT=json (or --error-format json) an error is one JSON object: kind, file, key, line, column, message, exit")
  func jsonErrors() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-json-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try "name: x\nprotocol: {expiry: forever}\n".write(to: dir.appendingPathComponent("bad.yaml"), atomically: true, encoding: .utf8)
    func error(_ args: [String], env: [String: String] = [:]) throws -> (Int32, [String: Any]) {
      let r = try ESMSimBinary.run(args, in: dir, environment: env)
      let line = try #require(r.stderr.split(separator: "\n").last { $0.hasPrefix("{") })
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      return (r.status, try #require(object["esmsim_error"] as? [String: Any]))
    }
    let (status, e) = try error(["run", "bad.yaml", "-o", "out"], env: ["ESMSIM_ERROR_FORMAT": "json"])
    #expect(status == 1 && e["kind"] as? String == "scenario" && e["file"] as? String == "bad.yaml")
    #expect(e["key"] as? String == "protocol.expiry" && e["line"] as? Int == 2 && e["column"] as? Int == 20)
    #expect((e["message"] as? String)?.hasPrefix("expected a duration") == true && e["exit"] as? Int == 1)
    let (usage, u) = try error(["run", "bad.yaml", "-o", "out", "--replications", "0", "--error-format", "json"])
    #expect(usage == 64 && u["kind"] as? String == "usage")
    // Without it, the text as before.
    let text = try ESMSimBinary.run(["run", "bad.yaml", "-o", "out"], in: dir)
    #expect(text.stderr.hasPrefix("esmsim: bad.yaml: protocol.expiry (line 2, column 20): "), "\(text.stderr)")
  }

  @Test("manifest.json declares every table's columns with their types, and each CSV's header is those columns")
  func columnTypes() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-manifest-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: dir) }
    let r = try ESMSimBinary.run([
      "run", "scenarios/quickstart.yaml", "-o", dir.path, "--participants", "4", "--duration", "2d",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let manifest = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("manifest.json"))) as? [String: Any])
    let tables = try #require(manifest["tables"] as? [String: [String: Any]])
    #expect(Set(tables.keys) == ["prompts", "participants", "summary", "coverage_summary"])
    let known: Set<String> = ["text", "integer", "real", "flag", "time", "unix_ms"]
    for (name, table) in tables {
      let file = try #require(table["file"] as? String)
      let columns = try #require(table["columns"] as? [[String: String]])
      let csv = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
      #expect(csv.prefix { $0 != "\n" } == columns.map { $0["name"]! }.joined(separator: ","), "\(name)")
      #expect(columns.allSatisfy { known.contains($0["type"] ?? "") }, "\(name)")
    }
    let prompts = try #require(tables["prompts"]?["columns"] as? [[String: String]])
    #expect(prompts.first { $0["name"] == "scheduled" }?["type"] == "time")
    #expect(prompts.first { $0["name"] == "received" }?["type"] == "flag")
  }
}
