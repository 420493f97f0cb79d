import SimKernel
import StudyModel

/// A resolved scenario: the study's name and run settings, and one ``StudyPlan`` per variant.
public struct Scenario: Sendable {
  /// The file it was read from.
  public var file: String
  /// The study's name.
  public var name: String
  /// What it is for.
  public var description: String
  /// The master seed.
  public var seed: UInt64
  /// Replications (each a run number with its own random streams).
  public var replications: Int
  /// The calendar date of the first study day.
  public var startDate: CalendarDate
  /// The variants, in the file's order (one named `base` when the file has none).
  public var variants: [(name: String, plan: StudyPlan)]
  /// Which result files to write.
  public var outputs: OutputSettings
  /// The scenario with every default filled in (what `esmsim show` prints).
  public var resolved: ScenarioValue
  /// What the file asks for that esmsim simulates otherwise or not at all (``ScenarioWarning``).
  public var warnings: [ScenarioWarning] = []

  /// The protocol files the scenario imports (`aware_schedule`, `esmira_study`,
  /// `paco_experiment`, `beiwe_study`), as named, with the SHA-256 of their bytes, by name.
  public var imports: [(name: String, sha256: String)] = []

  /// A stable hash of the resolved scenario (SHA-256 of its text and of the files it imports,
  /// whose contents the text only names), for manifests.
  public var hash: String { SHA256.hex(Array(hashedText.utf8)) }

  /// What ``hash`` hashes: the resolved scenario, then a line for each imported file.
  public var hashedText: String {
    resolved.yaml() + imports.map { "import \($0.name) \($0.sha256)\n" }.joined()
  }
}

/// Which files a run writes besides the summaries and the manifest.
public struct OutputSettings: Sendable, Equatable {
  /// `prompts.csv`: one row per prompt.
  public var prompts = true
  /// `answers.csv`: the variables' true values and the items' answers at every prompt
  /// (on by default when the scenario declares `population.variables`).
  public var answers = false
  /// `coverage.csv`: one row per participant-hour and sensor.
  public var coverage = false
  /// `participants.csv`: Mappiness' participant statistics and the bias per participant.
  public var participants = true
  /// `days.csv`: a row per participant and study day, its prompts and what became of them.
  public var days = false
  /// `aware_esm.csv`: AWARE ESM rows.
  public var awareESM = false
  /// `esmira/`: ESMira's data export (events.csv and a file per questionnaire).
  public var esmira = false
  /// ESMira's export with `invitation_missed` events (off in ESMira by default).
  public var esmiraMissed = false
  /// `mpath/`: m-Path's per-beep export (basic.csv and its meta.csv).
  public var mpath = false
  /// `beiwe/`: Beiwe survey timings, one file per participant.
  public var beiwe = false
  /// `beiwe/…/<stream>/`: Beiwe's passive sensor files (gps, accel, gyro, magnetometer,
  /// devicemotion), hour by hour, a row per sample the simulated sensor collected.
  public var beiweSensors = false
  /// `results.sqlite`: the same tables in SQLite.
  public var sqlite = true
  /// `report.html`.
  public var report = true
  /// Study hours shown in the report's participant × hour heat map.
  public var heatHours = 168

  public init() {}
}

/// A calendar date (proleptic Gregorian).
public struct CalendarDate: Sendable, Equatable, CustomStringConvertible {
  /// The default start date of a study (`start_date`; a Monday) and of the readers that
  /// read an imported file alone: the one home of it.
  public static let defaultStart = CalendarDate(year: 2026, month: 1, day: 5)!

  public var year: Int
  public var month: Int
  public var day: Int

  /// Creates a date; nil if it does not exist.
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), (1900...2999).contains(year) else { return nil }
    let lengths = [31, CalendarDate.isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...lengths[month - 1]).contains(day) else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  /// Parses `YYYY-MM-DD`.
  public init?(iso text: String) {
    let p = text.split(separator: "-")
    guard p.count == 3, p[0].count == 4, p[1].count == 2, p[2].count == 2, let y = Int(p[0]), let m = Int(p[1]),
      let d = Int(p[2])
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  /// Parses AWARE's `MM-dd-yyyy`.
  public init?(aware text: String) {
    let p = text.split(separator: "-")
    guard p.count == 3, p[0].count == 2, p[1].count == 2, p[2].count == 4, let m = Int(p[0]), let d = Int(p[1]),
      let y = Int(p[2])
    else { return nil }
    self.init(year: y, month: m, day: d)
  }

  static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

  /// Days since 1970-01-01 (Howard Hinnant's days-from-civil).
  public var daysSinceEpoch: Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The date `days` after 1970-01-01; nil outside the years 1900–2999.
  public init?(daysSinceEpoch days: Int) {
    let (y, m, d) = Self.civil(days)
    self.init(year: y, month: m, day: d)
  }

  /// The proleptic Gregorian year, month and day `days` after 1970-01-01, any year (Howard
  /// Hinnant's civil-from-days): the one home of the conversion.
  public static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }

  /// 0 Monday … 6 Sunday.
  public var weekday: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

  /// Milliseconds since the Unix epoch at this date's midnight (UTC).
  public var epochMilliseconds: Int64 { Int64(daysSinceEpoch) * 86_400_000 }

  public var description: String {
    func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
    return "\(year)-\(two(month))-\(two(day))"
  }
}
