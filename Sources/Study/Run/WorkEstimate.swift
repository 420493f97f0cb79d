import Measures
import Scenarios
import StudyModel

/// How much a run will do, estimated before it starts, so that absurd sizes are refused
/// (`esmsim run` asks for `--allow-large` above ``limit``) and users see what they ask for.
public struct WorkEstimate: Sendable, Equatable {
  /// Participant-days over every variant and replication.
  public var participantDays: Double
  /// Prompts due.
  public var prompts: Double
  /// Wall time on `threads` cores, seconds (at the measured rate of about 50,000
  /// participant-days a second per core; the city benchmark).
  public var seconds: Double
  /// Peak memory, bytes: a fixed part, and one participant row per participant of a variant
  /// (the only state that grows with participants).
  public var memoryBytes: Double
  /// Bytes of the per-row files the scenario asks for.
  public var outputBytes: Double
  /// Files written (a Beiwe sensor's hourly files make most of them).
  public var outputFiles: Double

  /// Above this many participant-days a run must be confirmed (about 11 hours on 2 cores).
  public static let limit = 4e9
  /// Above this many bytes or files of output a run must be confirmed too.
  public static let outputLimit = 50e9
  public static let filesLimit = 1e6
  /// Seconds to write a byte and to create a file (a laptop's disk; for the estimate only).
  static let secondsPerByte = 1 / 300e6
  static let secondsPerFile = 50e-6
  /// Participant-days per second per core (measured: `esmsim bench city`).
  public static let ratePerCore = 50_000.0

  /// Estimates a scenario's run; `outputs` gives the size of the per-row outputs the scenario
  /// asks for, by variant (each output's own estimate: `WorkEstimate.run` in Reporting; none:
  /// the simulation's work alone).
  public init(_ scenario: Scenario, threads: Int, outputs: (PlanWork) -> OutputSize = { _ in OutputSize() }) {
    var days = 0.0
    var prompts = 0.0
    var rows = 0.0
    var size = OutputSize()
    for (_, plan) in scenario.variants {
      let work = PlanWork(plan)
      days += work.participantDays
      prompts += work.participantDays * work.promptsPerDay
      size.add(outputs(work))
      rows = max(rows, Double(plan.participants))
    }
    // The files every run writes: the summaries, the report (its charts and two weeks a
    // variant), an empty database.
    let variants = Double(scenario.variants.count)
    let fixed = 40e3 * variants + (scenario.outputs.report ? 100e3 + 80e3 * variants : 0) + (scenario.outputs.sqlite ? 50e3 : 0)
    let r = Double(scenario.replications)
    participantDays = days * r
    self.prompts = prompts * r
    outputBytes = (size.tableBytes * (scenario.outputs.sqlite ? 2 : 1) + size.fileBytes) * r + fixed
    outputFiles = size.files * r + 8
    seconds = participantDays / (Self.ratePerCore * Double(max(threads, 1))) + outputBytes * Self.secondsPerByte
      + outputFiles * Self.secondsPerFile
    memoryBytes = 150e6 + Double(max(threads, 1)) * 20e6 + rows * 2 * Double(MemoryLayout<ParticipantRow>.stride)
  }

  /// Whether the run needs confirming: its work, its bytes or its files.
  public var isLarge: Bool { participantDays > Self.limit || outputBytes > Self.outputLimit || outputFiles > Self.filesLimit }

  /// One line: "3.6e+06 participant-days, about 1 min on 2 cores, 180 MB of memory, 20 MB of files".
  public func text(threads: Int) -> String {
    "\(Self.count(participantDays)) participant-days, \(Self.count(prompts)) prompts: about \(Self.duration(seconds)) on \(threads) core\(threads == 1 ? "" : "s"), \(Self.size(memoryBytes)) of memory, \(Self.size(outputBytes)) of files (\(Self.count(outputFiles)) files)"
  }

  /// A count, in full below a million, else in two significant digits.
  public static func count(_ x: Double) -> String {
    x < 1e6 ? NumberText.fixed(x, 0) : String(format: "%.2g", x)
  }

  /// A duration in the largest sensible unit.
  public static func duration(_ s: Double) -> String {
    switch s {
    case ..<60: return "\(max(Int(s.rounded(.up)), 1)) s"
    case ..<3600: return "\(Int((s / 60).rounded())) min"
    case ..<(86_400 * 2): return NumberText.fixed(s / 3600, 1) + " hours"
    case ..<(86_400 * 365 * 2): return NumberText.fixed(s / 86_400, 0) + " days"
    default: return String(format: "%.2g", s / (86_400 * 365)) + " years"
    }
  }

  /// A size in kB, MB, GB or TB.
  public static func size(_ b: Double) -> String {
    switch b {
    case ..<1e6: return "\(max(Int((b / 1e3).rounded()), 0)) kB"
    case ..<1e9: return "\(Int((b / 1e6).rounded())) MB"
    case ..<1e12: return NumberText.fixed(b / 1e9, 1) + " GB"
    default: return String(format: "%.2g", b / 1e12) + " TB"
    }
  }
}

/// One variant's work, for the estimate of an output's size (``OutputSize``).
public struct PlanWork {
  public let plan: StudyPlan
  /// Participants × days.
  public let participantDays: Double
  /// Prompts due a day (a schedule's `per_day` or its times, times the share of the study's
  /// days it signals on; a trigger's most a day; a follow-up's most a day, but no more than the prompts drawn a day unless follow-ups
  /// cue follow-ups).
  public let promptsPerDay: Double
  /// The items an export writes a prompt's answers for: the survey's, and the scenario's own
  /// (`protocol.items`) not named among them (at least 1).
  public let items: Double

  init(_ plan: StudyPlan) {
    self.plan = plan
    participantDays = Double(plan.participants) * Double(plan.days)
    let schedules = plan.protocolPlan.schedules
    let drawn = schedules.reduce(0.0) { total, part in
      guard let p = part.choice?.parameters else {
        return total + (part.trigger?.isFollowUp == true ? 0 : Double(part.trigger?.maxPerDay ?? 0))
      }
      // Times the share of the study's days it signals on.
      return total + (p.perDay ?? Double(p.times?.count ?? 6)) * Double(plan.signallingDays(part)) / Double(max(plan.days, 1))
    }
    // A follow-up: at most one per prompt drawn; when follow-ups cue follow-ups (a chain),
    // each at its most a day.
    // In the schedules' order (a set's would change the sum's rounding from run to run).
    let followUps = schedules.indices.compactMap { k in schedules[k].trigger.map { (index: k, trigger: $0) } }
      .filter { $0.trigger.isFollowUp }
    let indices = followUps.map(\.index)
    let chained = followUps.contains { !$0.trigger.followUpSources.isDisjoint(with: indices) }
    promptsPerDay = followUps.reduce(drawn) { total, f in
      let most = Double(f.trigger.maxPerDay)
      return total + (chained ? most : min(most, max(drawn, 1)))
    }
    let survey = plan.protocolPlan.survey.items
    let own = plan.answers.items.filter { item in !survey.contains { $0.id == item.name } }.count
    items = Double(max(survey.count + own, 1))
  }

  /// Prompts due over the participant-days.
  public var prompts: Double { participantDays * promptsPerDay }
}

/// The bytes and files an output writes for one variant and replication, estimated before
/// the run: its tables' bytes (written again into SQLite when the run keeps a database),
/// other files' bytes, and the number of files.
public struct OutputSize: Sendable {
  public var tableBytes = 0.0
  public var fileBytes = 0.0
  public var files = 0.0

  public init(tableBytes: Double = 0, fileBytes: Double = 0, files: Double = 0) {
    self.tableBytes = tableBytes
    self.fileBytes = fileBytes
    self.files = files
  }

  public mutating func add(_ o: OutputSize) {
    tableBytes += o.tableBytes
    fileBytes += o.fileBytes
    files += o.files
  }
}
