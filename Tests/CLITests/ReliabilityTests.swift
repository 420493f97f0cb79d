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
