import Presentation
import Study
import ArgumentParser
import Calibration
import Foundation
import Reporting
import Scenarios
import SimKernel
import StudyModel

/// `esmsim calibrate`: the compliance model from a pilot's records (`docs/calibration.md`).
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Estimate the compliance model from a pilot's per-prompt records.",
    discussion: """
      Reads AWARE esms rows (a CSV export of the table) or Beiwe iOS survey timings (one file \
      per participant, or per survey: the participant is the folder above survey_timings), \
      simulates the pilot's protocol (--scenario) and sets each compliance parameter so that \
      the simulation shows what the pilot shows. Prints a population.compliance block to paste \
      into a scenario, each estimate with its bootstrap interval, and what the pilot cannot \
      identify.
      """)

  @Argument(help: "The pilot's files.") var files: [String]
  @Option(help: "aware (esms rows) or beiwe (iOS survey timings); esmira and mpath are not read yet.") var format: String
  @Option(help: "The pilot's scenario: its protocol, phones and population (its compliance is the start).")
  var scenario: String
  @Option(help: "Beiwe: the participants' offset from UTC, minutes (Beiwe writes UTC).") var utcOffset = 0
  @Option(help: "Master seed of the simulations.") var seed: UInt64 = 1
  @Option(help: "Write the block to this file (atomically) instead of standard output.") var output: String?
  @OptionGroup var execution: ExecutionOptions

  func validate() throws {
    guard (-14 * 60...14 * 60).contains(utcOffset) else {
      throw ValidationError("--utc-offset: expected minutes from -840 to 840 (UTC-14 to UTC+14), found \(utcOffset)")
    }
  }

  func run() throws {
    if format == "esmira" || format == "mpath" {
      throw ValidationError(
        "--format \(format): not read yet: the sources esmsim follows define no per-prompt columns for its export (docs/calibration.md); use aware or beiwe")
    }
    guard format == "aware" || format == "beiwe" else {
      throw ValidationError("--format: expected aware or beiwe, found '\(format)'")
    }
    guard !files.isEmpty else { throw ValidationError("give the pilot's files") }
    let pilot: Pilot
    do {
      var parts: [Pilot] = []
      for f in files {
        guard let data = FileManager.default.contents(atPath: f) else { throw ScenarioError(file: f, "cannot read the file") }
        parts.append(
          format == "aware"
            ? try PilotReaders.aware(data, file: f)
            : try PilotReaders.beiweTimings(data, file: f, participant: Self.beiweParticipant(f), utcOffsetMinutes: utcOffset))
      }
      pilot = Pilot(merging: parts)
      try pilot.checkLimits()
    } catch let error as ScenarioError {
      ErrorOutput.fail(error)
    }
    guard !pilot.prompts.isEmpty else {
      FileHandle.standardError.write(Data("esmsim: \(files[0]): no prompts with an outcome in the pilot's files\n".utf8))
      throw ExitCode(1)
    }
    let s = try ScenarioInput.resolve(path: scenario, overrides: .init())
    let moments = ComplianceMoments(pilot)
    let result = Calibrator.calibrate(
      pilot: moments, plan: s.variants[0].plan, awareRows: format == "aware", seed: seed, threads: execution.threadCount)
    let text = Self.report(result, moments: moments, pilot: pilot)
    if let output {
      try AtomicFile.write(text, to: output)
    } else {
      print(text, terminator: "")
    }
  }

  /// Beiwe's layout: PARTICIPANT/survey_timings/SURVEY/FILE.csv (or SURVEY.csv).
  static func beiweParticipant(_ path: String) -> String {
    let parts = path.split(separator: "/").map(String.init)
    if let k = parts.lastIndex(of: "survey_timings"), k > 0 { return parts[k - 1] }
    return ((path as NSString).lastPathComponent as NSString).deletingPathExtension
  }

  static func number(_ x: Double) -> String { x.isFinite ? String(format: "%.4g", x) : "nan" }

  /// The block to paste, with the estimates and what is not identified as comments.
  static func report(_ r: Calibrator.Result, moments m: ComplianceMoments, pilot: Pilot) -> String {
    var out = "# esmsim calibrate: \(m.people) participants, \(m.prompts.count) prompts shown over \(m.days) days; "
    out += "answered \(number(m.rate))\n"
    for (reason, n) in pilot.leftOut.sorted(by: { $0.key < $1.key }) { out += "# left out: \(n) rows of \(reason)\n" }
    out += "# estimate [95 % bootstrap interval]; the pilot's moment, the simulation's at the estimate\n"
    for e in r.estimates {
      out += "#   \(e.key): \(number(e.value)) [\(number(e.low)), \(number(e.high))]; moment \(number(e.pilotMoment)) vs \(number(e.simulatedMoment))\n"
    }
    for h in r.hours {
      out += "#   hour_multipliers[\(h.hour)]: \(number(h.value)) [\(number(h.value - 1.96 * h.standardError)), \(number(h.value + 1.96 * h.standardError))]; \(r.hourCounts[h.hour] ?? 0) prompts\n"
    }
    out += "# not identified by this pilot:\n"
    for n in r.notIdentified { out += "#   \(n)\n" }
    let c = r.compliance
    out += "population:\n  compliance:\n"
    out += "    answer_probability: \(number(c.answerProbability))\n"
    out += "    person_sd: \(number(c.personSD))\n"
    out += "    decline_per_day: \(number(c.declinePerDay))\n"
    out += "    miss_persistence: \(number(c.missPersistence))\n"
    out += "    open_delay: \(Int(Tick.inSeconds(c.openDelay).rounded()))s\n"
    out += "    hour_multipliers: [\(c.hourMultipliers.map { String(format: "%.3f", $0) }.joined(separator: ", "))]\n"
    return out
  }
}
