import Foundation
import StudyModel

/// Every reader of outside input, from bytes: scenario files (YAML or JSON), AWARE schedule
/// files, ESMira study files, PACO experiments, Beiwe study exports, sweep files and pilot
/// records (AWARE rows, Beiwe timings). Each either returns or throws a
/// ``ScenarioError``; none may crash, hang or use unbounded memory on any input. The fuzz
/// harnesses (`Tests/Fuzz`) call these.
public enum Readers {
  /// Reads and resolves a scenario.
  ///
  /// - Parameter uploads: the files its import keys may name (nil: read from disk).
  public static func scenario(_ data: Data, file: String = "input.yaml", uploads: [String: Data]? = nil) throws(ScenarioError)
    -> Scenario
  {
    try ScenarioResolver.resolve(ScenarioLoader.parse(data, file: file), file: file, uploads: uploads)
  }

  /// Reads an AWARE iOS ESM schedule file for a 14-day study from the default start date (2026-01-05) and returns
  /// the number of schedule parts it becomes.
  @discardableResult
  public static func awareSchedule(_ data: Data, file: String = "schedule.json") throws(ScenarioError) -> Int {
    let root = try ScenarioLoader.parse(data, file: file, nullAsText: true)
    try AWAREScheduleImport.checkTypes(data, file: file)
    return try AWAREScheduleImport.read(root, file: file, startDate: CalendarDate.defaultStart, days: 14).parts.count
  }

  /// Reads the schedules of an ESMira study file and returns the number of schedule parts.
  @discardableResult
  public static func esmiraStudy(_ data: Data, file: String = "study.json") throws(ScenarioError) -> Int {
    try ESMiraStudyImport.read(ScenarioLoader.parse(data, file: file, nullAsText: true), file: file).parts.count
  }

  /// Reads a PACO experiment for a 14-day study from the default start date (2026-01-05) and returns the number of
  /// schedule parts.
  @discardableResult
  public static func pacoExperiment(_ data: Data, file: String = "experiment.json") throws(ScenarioError) -> Int {
    try PACOExperimentImport.read(
      ScenarioLoader.parse(data, file: file, nullAsText: true), file: file, startDate: CalendarDate.defaultStart, days: 14
    ).parts.count
  }

  /// Reads a Beiwe study export for a 14-day study from the default start date (2026-01-05) and returns the number of
  /// schedule parts.
  @discardableResult
  public static func beiweStudy(_ data: Data, file: String = "study.json") throws(ScenarioError) -> Int {
    try BeiweStudyImport.read(
      ScenarioLoader.parse(data, file: file, nullAsText: true), file: file, startDate: CalendarDate.defaultStart, days: 14
    ).parts.count
  }

  /// Reads a pilot's records (`esmsim calibrate`), the format told by the first line's
  /// columns (AWARE's `esmStatus`, m-Path's `connectionId`, ESMira's `actionScheduledTo` or
  /// `lastInvitation`, Beiwe's `event`, otherwise a generic file), then proposes the
  /// protocol they show and resolves it as calibrate does; returns the prompts read.
  @discardableResult
  public static func pilot(_ data: Data, file: String = "pilot.csv") throws(ScenarioError) -> Int {
    let header = String(decoding: data.prefix(4096).split(separator: UInt8(ascii: "\n"), maxSplits: 1).first ?? Data(), as: UTF8.self)
    let format: PilotFormat =
      header.contains("esmStatus")
      ? .aware
      : header.contains("connectionId")
        ? .mpath
        : header.contains("actionScheduledTo") || header.contains("lastInvitation")
          ? .esmira : header.contains("event") && header.contains("timestamp") ? .beiwe : .csv
    let pilot = try format.read([(file, data)])
    if !pilot.prompts.isEmpty { _ = try PilotProtocol.scenario(pilot, file: file) }
    return pilot.prompts.count
  }

  /// Reads a sweep file; `file` locates its base scenario.
  public static func sweep(_ data: Data, file: String) throws(ScenarioError) -> SweepSpec {
    try SweepSpec.read(ScenarioLoader.parse(data, file: file), file: file)
  }

  /// Past the reader: reads and resolves a scenario as `esmsim run` would for one participant
  /// and one day (`--participants 1 --duration 1d`), then simulates that participant-day in
  /// every variant; returns the prompts. For the fuzz harnesses that look for crashes the
  /// simulation meets on what a file can ask for (a count a type cannot hold, an index past
  /// an end), not only the reader.
  @discardableResult
  public static func simulateOneDay(_ data: Data, file: String = "input.yaml", uploads: [String: Data]? = nil) throws(ScenarioError)
    -> Int
  {
    let tree = ScenarioOverrides(replications: 1, participants: 1, duration: "1d").applied(
      to: try ScenarioLoader.parse(data, file: file))
    let scenario = try ScenarioResolver.resolve(tree, file: file, uploads: uploads)
    var prompts = 0
    for (_, plan) in scenario.variants {
      let one = ParticipantSimulation.outcome(plan: plan, seed: scenario.seed, replication: 0, participant: 0, detail: [.coverageRows, .phoneEvents])
      prompts += one.prompts.count
    }
    return prompts
  }

  /// An imported protocol file simulated for one participant-day: the first byte chooses the
  /// format (its value modulo 4: AWARE, ESMira, PACO, Beiwe), the rest is the file.
  @discardableResult
  public static func simulateImported(_ data: Data) throws(ScenarioError) -> Int {
    guard let first = data.first else { return 0 }
    let key = ["aware_schedule", "esmira_study", "paco_experiment", "beiwe_study"][Int(first % 4)]
    let scenario = "name: imported\nprotocol: {\(key): imported.json}\n"
    return try simulateOneDay(Data(scenario.utf8), file: "scenario.yaml", uploads: ["imported.json": data.dropFirst()])
  }
}
