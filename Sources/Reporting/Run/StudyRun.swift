import Foundation
import Measures
import Schedules
import Scenarios
import SimKernel
import Study
import StudyModel
import Presentation

/// Runs a scenario and writes its results folder.
///
/// Everything is written into a staging folder beside the destination (`.NAME.partial-PID`)
/// and the folder is renamed to its name only when every file, the manifest last, is
/// complete: a folder named as asked for is always a finished run. Per-row tables stream
/// to disk as participants finish, in participant order.
public enum StudyRun {
  /// How to run.
  public struct Options: Sendable {
    /// Worker threads.
    public var threads: Int
    /// Replace an existing results folder.
    public var force: Bool
    /// Show a progress bar on standard error (when it is a terminal).
    public var progress: Bool
    /// Participants feeding the KS sample and the predictability model.
    public var detailParticipants: Int

    public init(threads: Int = 1, force: Bool = false, progress: Bool = false, detailParticipants: Int = 2_000) {
      self.threads = threads
      self.force = force
      self.progress = progress
      self.detailParticipants = detailParticipants
    }

    /// The simulation's part.
    var simulation: StudySimulation.Options { .init(threads: threads, progress: progress, detailParticipants: detailParticipants) }
  }

  /// A problem with the destination or an interrupted run.
  public typealias Failure = StudyFailure



  /// What a run produced.
  public struct Outcome: Sendable {
    /// Each variant's results, in the scenario's order.
    public var variants: [VariantResults]
    /// Every variant's summary rows, in order.
    public var summary: [SummaryRow] { variants.flatMap(\.rows) }
    /// The files written (relative to the results folder).
    public var files: [String]
    /// Simulated participant-days.
    public var participantDays: Double
    /// Simulated events (all participants, variants and replications).
    public var events: Int
  }

  /// Runs `scenario` into `directory`.
  ///
  /// - Parameter shouldStop: polled between batches of participants (SIGINT, SIGTERM).
  public static func run(
    _ scenario: Scenario, to directory: String, options: Options, version: String, shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws -> Outcome {
    let fm = FileManager.default
    let folder = try OutputFolder(directory, force: options.force)
    defer { withExtendedLifetime(folder) {} }  // the lock is held until the folder is in place
    let dest = folder.url
    let parent = dest.deletingLastPathComponent()
    let name = dest.lastPathComponent
    try checkSpace(scenario, in: parent.path, for: directory)
    let staging = parent.appendingPathComponent(".\(name).partial-\(ProcessInfo.processInfo.processIdentifier)")
    if mkdir(staging.path, 0o755) != 0 {
      throw Failure("cannot write \(directory): \(String(cString: strerror(errno)))")
    }
    do {
      let outcome = try write(scenario, into: staging.path, options: options, version: version, shouldStop: shouldStop)
      if fm.fileExists(atPath: dest.path) {
        let old = parent.appendingPathComponent(".\(name).old-\(ProcessInfo.processInfo.processIdentifier)")
        try fm.moveItem(at: dest, to: old)
        try fm.moveItem(at: staging, to: dest)
        try? fm.removeItem(at: old)
      } else {
        try fm.moveItem(at: staging, to: dest)
      }
      return outcome
    } catch {
      try? fm.removeItem(at: staging)
      throw error
    }
  }

  /// Refuses a run whose files would not fit on the disk that holds `parent` (the estimate's
  /// output bytes, `copies` times, and a margin, against the space free to this user).
  public static func checkSpace(_ scenario: Scenario, in parent: String, for directory: String, copies: Double = 1) throws(Failure) {
    var fs = statvfs()
    guard statvfs(parent, &fs) == 0 else { return }
    let free = Double(fs.f_bavail) * Double(fs.f_frsize)
    let needed = WorkEstimate.run(scenario, threads: 1).outputBytes * 1.1 * copies
    if needed > free {
      throw Failure(
        "\(directory): the run writes about \(WorkEstimate.size(needed)) of files and \(parent) has \(WorkEstimate.size(free)) free; free some space, choose another disk, or ask for fewer per-row outputs")
    }
  }

  static func write(
    _ scenario: Scenario, into dir: String, options: Options, version: String, shouldStop: @escaping @Sendable () -> Bool
  ) throws -> Outcome {
    let out = scenario.outputs
    // The per-row outputs, each into its CSV file, its SQLite table or its folder.
    let folder = RunFolder(dir, scenario: scenario)
    if out.sqlite { folder.sqlite = try SQLiteDatabase(path: folder.path("results.sqlite")) }
    let outputs = try RunOutputs.make(scenario, folder: folder)
    let summaryTable = try folder.table(.summary)
    let coverageTable = try folder.table(.coverageSummary)
    let sim = try StudySimulation.simulate(scenario, options: options.simulation, observers: outputs, shouldStop: shouldStop)
    let summary = sim.summary
    let reports = sim.variants
    // coverage_summary.csv: each variant's shares by device and sensor.
    let coverageRows = reports.flatMap { v in
      v.coverage.map { [v.name, $0.device, $0.sensor, NumberText.fixed($0.comp, 6), NumberText.fixed($0.incomp, 6), NumberText.fixed($0.loss, 6)] }
    }
    for r in summary { try summaryTable.row(r.cells) }
    for r in coverageRows { try coverageTable.row(r) }
    try summaryTable.close()
    try coverageTable.close()
    let summaryJSON = JSONValue.object([
      ("scenario", .string(scenario.name)), ("replications", .int(scenario.replications)),
      ("rows", .array(summary.map(\.json))),
    ])
    try AtomicFile.write(summaryJSON.text(indent: 2) + "\n", to: folder.path("summary.json"))
    try folder.sqlite?.close()
    if out.report {
      let window = scenario.variants.first?.plan.typicalSamplingWindow() ?? Block(start: 0, end: 1440)
      // The first participants' weeks (the same people in every variant).
      let weeks = scenario.variants.prefix(reports.count).map { variant in
        (0..<min(Report.weekParticipants, variant.plan.participants)).map {
          WeekCalendar.svg(plan: variant.plan, seed: scenario.seed, participant: $0)
        }
      }
      let first = scenario.variants.first?.plan
      let facts: [(String, String)] = [
        // The file's name, as the manifest records it: the folder is the same however the
        // path was typed.
        ("Scenario", (scenario.file as NSString).lastPathComponent), ("Participants", String(first?.participants ?? 0)),
        ("Study days", String(first?.days ?? 0)), ("Replications", String(scenario.replications)),
        ("Seed", String(scenario.seed)), ("Variants", scenario.variants.map(\.name).joined(separator: ", ")),
      ]
      let html = Report.html(
        title: scenario.name, description: scenario.description, facts: facts,
        window: (window.start, window.length), variants: reports, weeks: weeks)
      try AtomicFile.write(html, to: folder.path("report.html"))
    }
    let files = (folder.files + ["manifest.json"]).sorted()
    // Every folder of files the run wrote (beiwe/, esmira/, mpath/) is counted, so that
    // --force can tell it from one a user put there.
    let folders = [BeiweFolder.name, ESMiraExportOutput.folderName, MPathExportOutput.folderName].compactMap {
      Manifest.FolderDigest.of((dir as NSString).appendingPathComponent($0), name: $0)
    }
    let manifest = Manifest.json(scenario: scenario, version: version, files: files, tables: folder.schemas, folders: folders)
    try AtomicFile.write(manifest.text(indent: 2) + "\n", to: (dir as NSString).appendingPathComponent("manifest.json"))
    return Outcome(variants: reports, files: files, participantDays: sim.participantDays, events: sim.events)
  }
}
