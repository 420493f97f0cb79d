import Foundation

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

  /// Reads an AWARE iOS ESM schedule file for a 14-day study from 2026-01-05 and returns
  /// the number of schedule parts it becomes.
  @discardableResult
  public static func awareSchedule(_ data: Data, file: String = "schedule.json") throws(ScenarioError) -> Int {
    let root = try ScenarioLoader.parse(data, file: file)
    try AWAREScheduleImport.checkTypes(data, file: file)
    return try AWAREScheduleImport.read(root, file: file, startDate: CalendarDate(year: 2026, month: 1, day: 5)!, days: 14).parts.count
  }

  /// Reads the schedules of an ESMira study file and returns the number of schedule parts.
  @discardableResult
  public static func esmiraStudy(_ data: Data, file: String = "study.json") throws(ScenarioError) -> Int {
    try ESMiraStudyImport.read(ScenarioLoader.parse(data, file: file), file: file).parts.count
  }

  /// Reads a PACO experiment for a 14-day study from 2026-01-05 and returns the number of
  /// schedule parts.
  @discardableResult
  public static func pacoExperiment(_ data: Data, file: String = "experiment.json") throws(ScenarioError) -> Int {
    try PACOExperimentImport.read(
      ScenarioLoader.parse(data, file: file), file: file, startDate: CalendarDate(year: 2026, month: 1, day: 5)!, days: 14
    ).parts.count
  }

  /// Reads a Beiwe study export for a 14-day study from 2026-01-05 and returns the number of
  /// schedule parts.
  @discardableResult
  public static func beiweStudy(_ data: Data, file: String = "study.json") throws(ScenarioError) -> Int {
    try BeiweStudyImport.read(
      ScenarioLoader.parse(data, file: file), file: file, startDate: CalendarDate(year: 2026, month: 1, day: 5)!, days: 14
    ).parts.count
  }

  /// Reads a pilot's records (`esmsim calibrate`): AWARE `esms` rows when the first line
  /// names `esmStatus`, otherwise Beiwe iOS survey timings; returns the prompts read.
  @discardableResult
  public static func pilot(_ data: Data, file: String = "pilot.csv") throws(ScenarioError) -> Int {
    let header = data.prefix(4096).split(separator: UInt8(ascii: "\n"), maxSplits: 1).first ?? Data()
    if String(decoding: header, as: UTF8.self).contains("esmStatus") {
      return try PilotReaders.aware(data, file: file).prompts.count
    }
    return try PilotReaders.beiweTimings(data, file: file, participant: "p").prompts.count
  }

  /// Reads a sweep file; `file` locates its base scenario.
  public static func sweep(_ data: Data, file: String) throws(ScenarioError) -> SweepSpec {
    try SweepSpec.read(ScenarioLoader.parse(data, file: file), file: file)
  }
}
