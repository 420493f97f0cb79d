import Presentation
import Study
import ArgumentParser
import Foundation
import Measures
import Reporting
import Schedules
import StudyModel

/// `esmsim schedule`: draw a signal schedule, or compare every algorithm.
struct ScheduleCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "schedule",
    abstract: "Draw signal schedules as real ESM systems do, and measure them.",
    subcommands: [Generate.self, Compare.self],
    defaultSubcommand: Generate.self
  )
}

/// What every schedule command takes.
struct ScheduleOptions: ParsableArguments {
  @Option(help: "Signals per day (a fraction is allowed for bernoulli).") var perDay: Double?
  @Option(help: "The signalling window, HH:MM-HH:MM (may cross midnight).") var window: String
  @Option(help: "Mappiness: minutes before the window end at which signalling stops (default 10).")
  var endMargin: Double?
  @Option(help: "Fixed blocks: the minimum gap between signals, minutes.") var minGap: Double?
  @Option(help: "Fixed blocks: none, resample-schedule, sequential-rejection, truncation or sort-and-space.")
  var gapMethod: GapMethod?
  @Option(help: "Fixed blocks: custom blocks, for example 08:00-12:00,12:00-16:00,16:00-20:00.")
  var blocks: String?
  @Option(help: "Fixed times: clock times, for example 09:00,17:00.") var times: String?
  @Option(help: "Fixed times: ± jitter in whole minutes, redrawn daily.") var jitter: Int?
  @Option(help: "Chain: the fixed lag in minutes (default 90).") var fixedLag: Double?
  @Option(help: "Chain: the largest random lag in minutes (default 30).") var randomLag: Double?
  @Option(help: "Buffered blocks: share of each block excluded at each end (default 0.10).")
  var buffer: Double?
  @Option(help: "Only these weekdays, for example mon,tue,wed,thu,fri (day 0 is --first-weekday).")
  var weekdays: String?
  @Option(help: "Only every N days, counted from day 0.") var everyDays = 1
  @Option(help: "The weekday of day 0 (mon … sun).") var firstWeekday = "mon"
  @Option(help: "Days to draw.") var days = 7
  @Option(help: "Master seed.") var seed: UInt64 = 1

  func parsedWindow() throws -> Window {
    do { return try Window(parsing: window) } catch { throw ValidationError("--window: \(error.message)") }
  }

  func parameters() throws -> ScheduleParameters {
    var p = ScheduleParameters(
      perDay: perDay, endMargin: endMargin, minGap: minGap, gapMethod: gapMethod, jitter: jitter,
      fixedLag: fixedLag, randomLag: randomLag, buffer: buffer)
    if let blocks {
      p.blocks = try blocks.split(separator: ",").map {
        guard let r = ClockRange($0.trimmingCharacters(in: .whitespaces)) else {
          throw ValidationError("--blocks: expected HH:MM-HH:MM,HH:MM-HH:MM…, got '\($0)'")
        }
        return r
      }
    }
    if let times {
      p.times = try times.split(separator: ",").map {
        guard let t = ClockTime($0.trimmingCharacters(in: .whitespaces)) else { throw ValidationError("--times: expected HH:MM,HH:MM…, got '\($0)'") }
        return t
      }
    }
    return p
  }

  /// Builds and checks a scheduler; an impossible parameter, or one the algorithm does not
  /// read (`onlyRead`: left out instead, as `compare` gives each algorithm what it reads), is
  /// a usage error naming its flag.
  func scheduler(_ name: AnyScheduler.Name, onlyRead: Bool = false) throws -> AnyScheduler {
    let window = try parsedWindow()
    var p = try parameters()
    if onlyRead {
      p = p.keepingRead(by: name)
    } else if let unread = p.unread(by: name).first {
      throw ValidationError("--\(unread.rawValue): does not apply to \(name.rawValue) (\(name.rawValue) reads \(Self.flags(of: name)))")
    }
    do {
      return try AnyScheduler(name, p, window: window)
    } catch {
      throw ValidationError("--\(error.parameter.rawValue): \(error.message)")
    }
  }

  /// The flags an algorithm reads, for the message refusing one it does not.
  static func flags(of name: AnyScheduler.Name) -> String {
    ([.perDay] + ScheduleParameters.read(by: name)).map { "--" + $0.rawValue }.joined(separator: ", ")
  }

  /// Whether the schedule runs on day `d` (weekdays and every N days, as in a scenario's
  /// `schedule.weekdays` and `schedule.every_days`).
  func activeDays() throws -> (Int) -> Bool {
    func weekday(_ text: Substring, _ flag: String) throws -> Int {
      guard let d = Weekdays.index(of: text.trimmingCharacters(in: .whitespaces)) else {
        throw ValidationError("\(flag): expected weekday names mon, tue, wed, thu, fri, sat, sun, got '\(text)'")
      }
      return d
    }
    let first = try weekday(Substring(firstWeekday), "--first-weekday")
    guard everyDays >= 1 && everyDays <= 365 else { throw ValidationError("--every-days: 1 to 365") }
    let weekdays = try weekdays.map { Set(try $0.split(separator: ",").map { try weekday($0, "--weekdays") }) }
    if weekdays?.isEmpty == true { throw ValidationError("--weekdays: name at least one weekday (mon … sun)") }
    return { [everyDays] d in SchedulePart.runs(onDay: d, weekday: (first + d) % 7, everyDays: everyDays, weekdays: weekdays) }
  }

  /// The fewest `--days` that hold `count` days the schedule runs on (nil: more than the
  /// largest --days allowed).
  func daysHolding(_ count: Int) throws -> Int? {
    let active = try activeDays()
    var held = 0
    for d in 0..<10_000_000 {
      if active(d) { held += 1 }
      if held >= count { return d + 1 }
    }
    return nil
  }

  func validate() throws {
    guard days >= 1 else { throw ValidationError("--days: at least 1 day") }
    _ = try activeDays()
    guard days <= 10_000_000 else { throw ValidationError("--days: at most 10,000,000 days") }
    _ = try parsedWindow()
    _ = try parameters()
    if try daysHolding(1).map({ $0 > days }) ?? true {
      throw ValidationError("--weekdays/--every-days: no day of the \(days) --days is one the schedule runs on")
    }
  }
}

extension GapMethod: ExpressibleByArgument {}
extension AnyScheduler.Name: ExpressibleByArgument {}

extension ScheduleCommand {
  struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "generate",
      abstract: "Draw one algorithm's schedule: one row per signal (day,index,minute).",
      discussion: """
        minute is minutes after the window start (fractional). --format timeline draws one line \
        per day with the signals marked on the window, for teaching.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case csv, json, timeline }

    @Option(help: "mappiness, fixed-blocks, bernoulli, fixed-times, chain or buffered-blocks.")
    var algorithm: AnyScheduler.Name
    @OptionGroup var options: ScheduleOptions
    @Option(help: "csv, json or timeline.") var format: Format = .csv
    @Option(help: "Write to this file (atomically) instead of standard output.") var output: String?

    func validate() throws { _ = try options.scheduler(algorithm) }

    func run() throws {
      let scheduler = try options.scheduler(algorithm)
      if algorithm == .fixedBlocks, let gap = try options.parameters().unkeptMinGap {
        FileHandle.standardError.write(
          Data("warning: --min-gap is kept only with a --gap-method (\(GapMethod.keepingNames)); with none, signals may come closer than \(String(format: "%g", gap)) minutes\n".utf8))
      }
      let window = try options.parsedWindow()
      let active = try options.activeDays()
      let text: String
      switch format {
      case .csv, .json:
        let signals = ScheduleRun.signals(scheduler, window: window, days: options.days, seed: options.seed, active: active)
        text = format == .csv ? ScheduleText.csv(signals) : ScheduleText.json(signals)
      case .timeline:
        var lines = [ScheduleText.timelineHeader(window)]
        ScheduleRun.days(scheduler, window: window, days: options.days, seed: options.seed, active: active) { day, times in
          lines.append(ScheduleText.timeline(day: day, times: times, window: window))
        }
        text = lines.joined(separator: "\n") + "\n"
      }
      try emit(text, to: output)
    }
  }

  struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "compare",
      abstract: "Run every algorithm (fixed blocks once per gap method) on the same days and measure each.",
      discussion: """
        Only the days --weekdays and --every-days allow are drawn and measured. \
        Columns: intensity min/max (1 is flat), Kolmogorov-Smirnov D and p against uniform, \
        gaps (minutes), share of days with no signal, predictability (bits per signal and per day \
        on held-out days, share of forced signals, largest hazard). fixed-times uses --times, or \
        the centres of --per-day equal blocks.
        """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case table, json }

    @OptionGroup var options: ScheduleOptions
    @Option(help: "table or json.") var format: Format = .table
    @Option(help: "Slot width for intensity and predictability, minutes.") var slot = 10.0
    @Option(help: "Write to this file (atomically) instead of standard output.") var output: String?

    func validate() throws {
      // The predictability table grows with the square of the slots in the window.
      guard slot >= 1, slot.isFinite else { throw ValidationError("--slot: at least 1 minute") }
      if let n = options.perDay, !(n > 0 && n.isFinite) {
        throw ValidationError("--per-day: more than 0 signals a day, not \(n)")
      }
      if let gap = options.minGap, !(gap >= 0 && gap.isFinite) {
        throw ValidationError("--min-gap: 0 or more minutes, not \(gap)")
      }
    }

    func run() throws {
      let window = try options.parsedWindow()
      let active = try options.activeDays()
      var rows: [(AnyScheduler, ScheduleSummary)] = []
      var skipped: [(label: String, message: String)] = []
      for (name, method) in AnyScheduler.comparisonLineUp {
        var opts = options
        if let method { opts.gapMethod = method }
        if name == .fixedTimes, opts.times == nil, let n = opts.perDay, n >= 1, n == n.rounded() {
          let block = window.length / n
          opts.times = (0..<Int(n)).map {
            ClockTime(minutes: window.start.minutes + (Double($0) + 0.5) * block).description
          }.joined(separator: ",")
        }
        do {
          let s = try opts.scheduler(name, onlyRead: true)
          let measured = ScheduleRun.measure(
            s, window: window, days: options.days, seed: options.seed, slotMinutes: slot, active: active)
          rows.append((s, measured))
        } catch let error as ValidationError {
          let label = name.rawValue + (method.map { " (\($0.rawValue))" } ?? "")
          skipped.append((label, error.message))
        }
      }
      // Nothing to compare: one usage error (the first algorithm's reason), not an empty table.
      if rows.isEmpty, let (label, message) = skipped.first { throw ValidationError("\(label): \(message)") }
      for (label, message) in skipped {
        FileHandle.standardError.write(Data("esmsim: \(label) skipped: \(message)\n".utf8))
      }
      let text =
        format == .table
        ? ScheduleComparisonText.table(
          rows, stableDays: try options.daysHolding(2 * ScheduleSummary.stableHeldOutDays))
        : ScheduleComparisonText.json(rows).text(indent: 2) + "\n"
      try emit(text, to: output)
    }
  }
}

/// Prints `text`, or writes it atomically to `path`.
func emit(_ text: String, to path: String?) throws {
  if let path {
    do { try AtomicFile.write(text, to: path) } catch { throw RuntimeError("\(error)") }
  } else {
    print(text, terminator: "")
  }
}

/// An error from running a command (not from its arguments): printed, exit code 1.
struct RuntimeError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
