import Foundation
import Scenarios
import Study
import StudyModel

/// The results folder a run writes into, as its outputs see it: where files go, the SQLite
/// database, the tables and files written (for the manifest), the study's clock.
final class RunFolder {
  let directory: String
  let scenario: Scenario
  /// The study's calendar, for each participant's clock times.
  let time: Timestamps
  var sqlite: SQLiteDatabase?
  /// The files written, relative to the folder.
  private(set) var files: [String] = []
  /// The tables written (their schemas, for the manifest).
  private(set) var schemas: [TableSchema] = []

  init(_ directory: String, scenario: Scenario) {
    self.directory = directory
    self.scenario = scenario
    time = Timestamps(start: scenario.startDate)
  }

  /// The path of `file` in the folder, recorded as written.
  func path(_ file: String) -> String {
    files.append(file)
    return (directory as NSString).appendingPathComponent(file)
  }

  /// A table: its CSV file (when `csv`) and its SQLite table (when the run writes one).
  func table(_ schema: TableSchema, csv: Bool = true) throws -> TableSink {
    schemas.append(schema)
    files.append(schema.file)
    return try TableSink(schema, directory: csv ? directory : nil, sqlite: sqlite)
  }

  /// The plan and name of variant `v`, and participant `o`'s own clock.
  func variant(_ v: Int) -> (name: String, plan: StudyPlan) { (scenario.variants[v].name, scenario.variants[v].plan) }
  func clock(_ o: ParticipantOutcome, plan: StudyPlan) -> Timestamps { time.in(plan.timeZones[o.zone].zone).joining(on: o.joinDay) }

  /// The folder `output/vV-rR/` of variant `v` and replication `r` (from 0), created, and its
  /// key `vV-rR`: an export written per variant and replication (ESMira's, m-Path's).
  func replicationDirectory(_ output: String, variant v: Int, replication r: Int) throws -> String {
    let dir = (directory as NSString).appendingPathComponent("\(output)/\(Self.replicationKey(variant: v, replication: r))")
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    return dir
  }

  static func replicationKey(variant v: Int, replication r: Int) -> String { "v\(v + 1)-r\(r + 1)" }
}

/// An output of a run (a file or folder of the results; `Reporting/Outputs/`): an observer
/// of the simulation with its key, its size and how it starts.
protocol RunOutput: StudyObserver {
  /// Whether the scenario's `outputs` ask for it (its key).
  static func isOn(_ outputs: OutputSettings) -> Bool
  /// What it writes for one variant and replication, estimated before the run (the disk
  /// check and `--allow-large`: ``WorkEstimate``).
  static func size(_ work: PlanWork) -> OutputSize
  /// Opens its files in `folder`.
  init(_ folder: RunFolder) throws
}

/// The per-row outputs, in the order they are written.
enum RunOutputs {
  static let kinds: [any RunOutput.Type] = [
    PromptsOutput.self, AnswersOutput.self, CoverageOutput.self, ParticipantsOutput.self, DaysOutput.self, AWARERowsOutput.self,
    BeiweSensorsOutput.self, BeiweSurveysOutput.self, ESMiraExportOutput.self, MPathExportOutput.self,
  ]

  /// The outputs `outputs` ask for, in the order of writing.
  static func asked(_ outputs: OutputSettings) -> [any RunOutput.Type] { kinds.filter { $0.isOn(outputs) } }

  /// The outputs `scenario` asks for, opened in `folder`.
  static func make(_ scenario: Scenario, folder: RunFolder) throws -> [any StudyObserver] {
    try asked(scenario.outputs).map { try $0.init(folder) }
  }
}

extension WorkEstimate {
  /// The estimate of a scenario's run with the files its outputs write (each output's own
  /// ``RunOutput/size(_:)``).
  public static func run(_ scenario: Scenario, threads: Int) -> WorkEstimate {
    let kinds = RunOutputs.asked(scenario.outputs)
    return WorkEstimate(scenario, threads: threads) { work in
      kinds.reduce(into: OutputSize()) { $0.add($1.size(work)) }
    }
  }
}
