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
  /// Bytes a Beiwe stream's row takes (measured on written files: `docs/outputs.md`), the
  /// share of a day's expected samples that are collected (0.92–0.94 measured on ordinary
  /// phones), and a file's header.
  static let beiweRowBytes: [String: Double] = ["gps": 40, "accel": 41, "gyro": 37, "magnetometer": 33, "devicemotion": 86]
  /// The share of a day's expected samples collected on each default kind of phone
  /// (`coverage_summary.csv` of a 14-day study on the four: ideal 1.00, ordinary 0.95, heavy
  /// 0.15, Low Power Mode 0.80 since it is suspended only when left unattended), 0.93 for a
  /// kind of the scenario's own.
  static let collectedShare: [String: Double] = ["ideal": 1.0, "non_controlled": 0.95, "heavy": 0.15, "low_power": 0.80]
  static func collected(_ plan: StudyPlan) -> Double {
    let total = plan.devices.reduce(0) { $0 + $1.share }
    guard total > 0 else { return 0.93 }
    return plan.devices.reduce(0) { $0 + $1.share * (collectedShare[$1.profile.name] ?? 0.93) } / total
  }
  static let fileHeaderBytes = 45.0
  /// Seconds to write a byte and to create a file (a laptop's disk; for the estimate only).
  static let secondsPerByte = 1 / 300e6
  static let secondsPerFile = 50e-6
  /// Participant-days per second per core (measured: `esmsim bench city`).
  public static let ratePerCore = 50_000.0

  /// Estimates a scenario's run.
  public init(_ scenario: Scenario, threads: Int) {
    var days = 0.0
    var prompts = 0.0
    var rows = 0.0
    var tableBytes = 0.0
    var fileBytes = 0.0
    var files = 0.0
    var largest = 0.0
    for (_, plan) in scenario.variants {
      let pd = Double(plan.participants) * Double(plan.days)
      days += pd
      let perDay = plan.protocolPlan.schedules.reduce(0.0) { total, part in
        guard let p = part.choice?.parameters else { return total + Double(part.trigger?.maxPerDay ?? 0) }
        return total + (p.perDay ?? Double(p.times?.count ?? 6))
      }
      prompts += pd * perDay
      let sensors = Double(plan.protocolPlan.sensors.count)
      // The tables (CSV, and again in SQLite when asked).
      if scenario.outputs.prompts { tableBytes += pd * perDay * 190 }
      if scenario.outputs.coverage { tableBytes += pd * 24 * sensors * 70 }
      if scenario.outputs.participants { tableBytes += Double(plan.participants) * 120 }
      // answers.csv: its fixed columns and about 9 bytes a predictor, variable and item.
      let answerColumns = plan.answers.predictors.count + plan.answers.variables.count + plan.answers.items.count
      if scenario.outputs.answers { tableBytes += pd * perDay * (80 + 9 * Double(answerColumns)) }
      let items = Self.items(plan)
      if scenario.outputs.awareESM { tableBytes += pd * perDay * items * 260 }
      // ESMira's export: an invitation and a questionnaire row in events.csv, one in its file.
      if scenario.outputs.esmira { fileBytes += pd * perDay * (3 * 300 + items * 4) }
      // m-Path's export: a row per beep, its answers' columns (two for an item with options).
      if scenario.outputs.mpath { fileBytes += pd * perDay * (160 + items * 2 * 8) }
      // Beiwe's files: per participant two timings files and a file of answers per prompt
      // answered; each sensor's hourly files, a row per sample collected.
      if scenario.outputs.beiwe {
        fileBytes += pd * perDay * (items * 2 * 50 + 120) + Double(plan.participants) * 3 * Self.fileHeaderBytes
        files += pd * perDay * 0.7 + Double(plan.participants) * 3
      }
      if scenario.outputs.beiweSensors {
        for sensor in plan.protocolPlan.sensors {
          guard let stream = sensor.beiweStream else { continue }
          let samples = pd * Double(sensor.expectedPerHour) * 24 * Self.collected(plan)
          fileBytes += samples * (Self.beiweRowBytes[stream] ?? 40) + pd * 24 * Self.fileHeaderBytes
          files += pd * 24
        }
      }
      rows = max(rows, Double(plan.participants))
      largest = max(largest, pd)
    }
    // The files every run writes: the summaries, the report (its charts and two weeks a
    // variant), an empty database.
    let variants = Double(scenario.variants.count)
    let fixed = 40e3 * variants + (scenario.outputs.report ? 100e3 + 80e3 * variants : 0) + (scenario.outputs.sqlite ? 50e3 : 0)
    let r = Double(scenario.replications)
    participantDays = days * r
    self.prompts = prompts * r
    outputBytes = (tableBytes * (scenario.outputs.sqlite ? 2 : 1) + fileBytes) * r + fixed
    outputFiles = files * r + 8
    seconds = participantDays / (Self.ratePerCore * Double(max(threads, 1))) + outputBytes * Self.secondsPerByte
      + outputFiles * Self.secondsPerFile
    memoryBytes = 150e6 + Double(max(threads, 1)) * 20e6 + rows * 2 * Double(MemoryLayout<ParticipantRow>.stride)
  }

  /// The items an export writes a prompt's answers for: the survey's, and the scenario's own
  /// (`protocol.items`) not named among them.
  static func items(_ plan: StudyPlan) -> Double {
    let survey = plan.protocolPlan.survey.items
    let own = plan.answers.items.filter { item in !survey.contains { $0.id == item.name } }.count
    return Double(max(survey.count + own, 1))
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
