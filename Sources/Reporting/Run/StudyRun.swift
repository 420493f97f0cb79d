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
    let needed = WorkEstimate(scenario, threads: 1).outputBytes * 1.1 * copies
    if needed > free {
      throw Failure(
        "\(directory): the run writes about \(WorkEstimate.size(needed)) of files and \(parent) has \(WorkEstimate.size(free)) free; free some space, choose another disk, or ask for fewer per-row outputs")
    }
  }

  /// The per-row outputs of a run, open while it runs.
  final class Tables {
    var prompts: CSVFile?
    /// Whether prompts.csv has the company columns (some variant records company).
    var company = false
    var coverage: CSVFile?
    var participants: CSVFile?
    var aware: CSVFile?
    var sqlite: SQLiteDatabase?
    var beiweRoot: String?
    var awareId = 0

    func close() throws {
      try prompts?.close()
      try coverage?.close()
      try participants?.close()
      try aware?.close()
    }
  }

  static func write(
    _ scenario: Scenario, into dir: String, options: Options, version: String, shouldStop: @escaping @Sendable () -> Bool
  ) throws -> Outcome {
    let out = scenario.outputs
    let time = Timestamps(start: scenario.startDate)
    let tables = Tables()
    var files: [String] = []
    func path(_ f: String) -> String {
      files.append(f)
      return (dir as NSString).appendingPathComponent(f)
    }
    tables.company = scenario.variants.contains { $0.plan.dailyLife.state.company.isOn }
    if out.prompts {
      tables.prompts = try CSVFile(path: path("prompts.csv"), header: Rows.promptHeader(company: tables.company))
    }
    if out.coverage { tables.coverage = try CSVFile(path: path("coverage.csv"), header: Rows.coverageHeader) }
    if out.participants { tables.participants = try CSVFile(path: path("participants.csv"), header: Rows.participantHeader) }
    if out.awareESM { tables.aware = try CSVFile(path: path("aware_esm.csv"), header: AWAREESMRows.header) }
    if out.beiwe {
      tables.beiweRoot = path("beiwe")
      try FileManager.default.createDirectory(atPath: tables.beiweRoot!, withIntermediateDirectories: false)
    }
    if out.sqlite {
      let db = try SQLiteDatabase(path: path("results.sqlite"))
      tables.sqlite = db
      if out.prompts { try db.createTable("prompts", SQLiteColumns.prompts(company: tables.company)) }
      if out.coverage { try db.createTable("coverage", SQLiteColumns.coverage) }
      if out.participants { try db.createTable("participants", SQLiteColumns.participants) }
      if out.awareESM { try db.createTable("aware_esm", SQLiteColumns.aware) }
      try db.createTable("summary", SQLiteColumns.summary)
      try db.createTable("coverage_summary", SQLiteColumns.coverageSummary)
    }

    let sim = try StudySimulation.simulate(scenario, options: options.simulation, shouldStop: shouldStop) { o, v, r in
      let variant = scenario.variants[v]
      try writeRows(o, variant: variant.name, v: v, replication: r, plan: variant.plan, tables: tables, time: time)
    }
    let summary = sim.summary
    let reports = sim.variants
    // coverage_summary.csv: each variant's shares by device and sensor.
    let coverageRows = reports.flatMap { v in
      v.coverage.map { [v.name, $0.device, $0.sensor, NumberText.fixed($0.comp, 6), NumberText.fixed($0.incomp, 6), NumberText.fixed($0.loss, 6)] }
    }
    try tables.close()

    let summaryCSV = CSVFile.text(header: SummaryRow.header, rows: summary.map(\.cells))
    try AtomicFile.write(summaryCSV, to: path("summary.csv"))
    let summaryJSON = JSONValue.object([
      ("scenario", .string(scenario.name)), ("replications", .int(scenario.replications)),
      ("rows", .array(summary.map(\.json))),
    ])
    try AtomicFile.write(summaryJSON.text(indent: 2) + "\n", to: path("summary.json"))
    let coverageHeader = ["variant", "device", "sensor", "comp", "incomp", "loss"]
    try AtomicFile.write(CSVFile.text(header: coverageHeader, rows: coverageRows), to: path("coverage_summary.csv"))
    if let db = tables.sqlite {
      for r in summary { try db.insert("summary", r.cells) }
      for r in coverageRows { try db.insert("coverage_summary", r) }
      try db.close()
    }
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
        ("Scenario", scenario.file), ("Participants", String(first?.participants ?? 0)),
        ("Study days", String(first?.days ?? 0)), ("Replications", String(scenario.replications)),
        ("Seed", String(scenario.seed)), ("Variants", scenario.variants.map(\.name).joined(separator: ", ")),
      ]
      let html = Report.html(
        title: scenario.name, description: scenario.description, facts: facts,
        window: (window.start, window.length), variants: reports, weeks: weeks)
      try AtomicFile.write(html, to: path("report.html"))
    }
    files.append("manifest.json")
    let manifest = Manifest.json(scenario: scenario, version: version, files: files.sorted())
    try AtomicFile.write(manifest.text(indent: 2) + "\n", to: (dir as NSString).appendingPathComponent("manifest.json"))
    return Outcome(variants: reports, files: files.sorted(), participantDays: sim.participantDays, events: sim.events)
  }

  static func writeRows(
    _ o: ParticipantOutcome, variant: String, v: Int, replication r: Int, plan: StudyPlan, tables: Tables, time study: Timestamps
  ) throws {
    // The participant's own clock.
    let time = study.in(plan.timeZones[o.zone].zone)
    if let f = tables.prompts {
      let names = plan.protocolPlan.surveyIDs
      for p in o.prompts + o.volunteered {
        // Volunteered answers without a schedule open the protocol's survey.
        let row = Rows.prompt(
          p, variant: variant, replication: r, participant: o.participant,
          questionnaire: p.schedule < names.count ? names[p.schedule] : plan.protocolPlan.survey.id, time: time,
          company: tables.company)
        try f.row(row)
        try tables.sqlite?.insert("prompts", row)
      }
    }
    if let f = tables.coverage {
      let device = plan.devices[o.device].profile.name
      for c in o.coverageRows {
        let row = Rows.coverage(
          c, variant: variant, replication: r, participant: o.participant, device: device, os: o.os.rawValue,
          sensor: plan.protocolPlan.sensors[c.sensor].name)
        try f.row(row)
        try tables.sqlite?.insert("coverage", row)
      }
    }
    if let f = tables.participants {
      // The participant's row, built the way the accumulator builds it.
      var single = StudyAccumulator(plan: plan, detailParticipants: 0, heatParticipants: 0)
      single.add(o)
      for pr in single.participantRows {
        let row = Rows.participant(
          pr, variant: variant, replication: r, device: plan.devices[o.device].profile.name,
          timeZone: plan.timeZones[o.zone].zone.name)
        try f.row(row)
        try tables.sqlite?.insert("participants", row)
      }
    }
    if let f = tables.aware {
      let id = AWAREESMRows.deviceId(variant: v, replication: r, participant: o.participant)
      for p in o.prompts {
        for row in AWAREESMRows.rows(p, survey: plan.protocolPlan.survey(ofSchedule: p.schedule), os: o.os, deviceId: id, time: time, nextId: &tables.awareId) {
          try f.row(row)
          try tables.sqlite?.insert("aware_esm", row)
        }
      }
    }
    if let root = tables.beiweRoot {
      // Beiwe's layout: a folder per participant, survey files per survey ([@Beiwe]).
      let folder = (root as NSString).appendingPathComponent("v\(v)-r\(r)/p\(o.participant)")
      func directory(_ path: String) throws -> String {
        let full = (folder as NSString).appendingPathComponent(path)
        if !FileManager.default.fileExists(atPath: full) {
          try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        }
        return full
      }
      var timings: [String: CSVFile] = [:]
      for p in o.prompts {
        let survey = plan.protocolPlan.survey(ofSchedule: p.schedule)
        let rows = BeiweSurveys.timings(p, survey: survey, os: o.os, time: time)
        guard !rows.isEmpty else { continue }
        if timings[survey.id] == nil {
          timings[survey.id] = try CSVFile(
            path: (try directory("survey_timings") as NSString).appendingPathComponent("\(survey.id).csv"),
            header: BeiweSurveys.timingsHeader(o.os))
        }
        for row in rows { try timings[survey.id]!.row(row) }
        if let answers = BeiweSurveys.answers(p, survey: survey, os: o.os) {
          let stamp = time.unix(p.submitted >= 0 ? p.submitted : p.closed)
          let file = try CSVFile(
            path: (try directory("survey_answers/\(survey.id)") as NSString).appendingPathComponent("\(stamp).csv"),
            header: BeiweSurveys.answersHeader)
          for row in answers { try file.row(row) }
          try file.close()
        }
      }
      for file in timings.values { try file.close() }
      if let events = o.phoneEvents, o.os == .ios {
        let reach = try CSVFile(
          path: (try directory("") as NSString).appendingPathComponent("reachability.csv"),
          header: BeiwePhoneEvents.reachabilityHeader)
        for e in events.reachability { try reach.row([String(time.unix(e.time)), BeiwePhoneEvents.name(e.network)]) }
        try reach.close()
        let power = try CSVFile(
          path: (try directory("") as NSString).appendingPathComponent("power_state.csv"),
          header: BeiwePhoneEvents.powerStateHeader)
        for e in events.power {
          try power.row([String(time.unix(e.time)), BeiwePhoneEvents.name(e.event), e.level.isFinite ? NumberText.fixed(e.level, 0) : ""])
        }
        try power.close()
      }
    }
  }
}

/// SQLite column types of the tables (the CSV headers with types).
enum SQLiteColumns {
  static func typed(_ header: [String], integer: Set<String>, real: Set<String>) -> [SQLiteDatabase.Column] {
    header.map { ($0, integer.contains($0) ? "INTEGER" : (real.contains($0) ? "REAL" : "TEXT")) }
  }
  static func prompts(company: Bool) -> [SQLiteDatabase.Column] {
    typed(
      Rows.promptHeader(company: company),
      integer: ["replication", "participant", "prompt", "day", "received", "volunteered", "with_others", "due_with_others"],
      real: ["latency_s", "true_state", "reported_state", "due_state"])
  }
  static let coverage = typed(
    Rows.coverageHeader, integer: ["replication", "participant", "day", "hour", "expected", "collected", "received"], real: [])
  static let participants = typed(
    Rows.participantHeader, integer: ["replication", "participant", "scheduled", "signals", "completed", "volunteered", "dropped_out"],
    real: ["response_rate", "median_response_s", "reported_mean", "true_mean", "bias"])
  static let aware = typed(
    AWAREESMRows.header, integer: ["id", "timestamp", "timezone", "jsonVersion", "esmType", "esmAnswerTime", "esmStatus", "esmNotificationTime"],
    real: [])
  static let summary = typed(
    SummaryRow.header, integer: ["n"], real: ["mean", "sd", "ci_low", "ci_high", "participant_ci_low", "participant_ci_high"])
  static let coverageSummary = typed(["variant", "device", "sensor", "comp", "incomp", "loss"], integer: [], real: ["comp", "incomp", "loss"])
}
