import ArgumentParser
import Calibration
import Foundation
import Presentation
import Reporting
import Scenarios
import SimKernel
import Study
import StudyModel

/// `esmsim calibrate`: the compliance model from a pilot's records (`docs/calibration.md`).
struct CalibrateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Estimate the compliance model from a pilot's per-prompt records, and check how well it predicts.",
    discussion: """
      Reads a pilot's records (--format aware: AWARE esms rows; beiwe: Beiwe iOS survey \
      timings, the participant the folder above survey_timings; mpath: m-Path's per-beep \
      export; esmira: ESMira's events.csv with its questionnaire files; csv: any platform's \
      per-prompt table, its columns named participant, questionnaire, scheduled, delivered, \
      opened, submitted or mapped with --column), simulates the pilot's protocol (as its \
      records show it, or --scenario) and sets each compliance parameter so that the \
      simulation shows what the pilot shows. Prints a population.compliance block to paste \
      into a scenario, each estimate with its 95 % interval, and what the pilot cannot \
      identify. With --holdout it also fits on part of the pilot and compares the rest with \
      its predictions. With --output FILE it writes FILE and, beside it, FILE's .json and \
      .html (the estimates and the check).
      """)

  @Argument(help: "The pilot's files.") var files: [String]
  @Option(help: "aware, beiwe, mpath, esmira or csv.") var format: String
  @Option(help: "The pilot's scenario: its protocol, phones and population (its compliance is the start). Default: the protocol the records show, on participants' own phones.")
  var scenario: String?
  @Option(parsing: .unconditional, help: "Beiwe, csv: the participants' offset from UTC, minutes (negative west of UTC: --utc-offset -300).")
  var utcOffset: Int?
  @Option(help: "Beiwe, csv: the participants' time zone (IANA, for example Europe/Brussels).") var timeZone: String?
  @Option(name: .customLong("column"), help: "csv: ROLE=NAME, the column of a role (participant, questionnaire, scheduled, delivered, opened, submitted); repeat for each.")
  var columns: [String] = []
  @Option(help: "Fit on part of the pilot and check the rest: days:N (the days from day N+1 on) or participants:F (a share F of the participants).")
  var holdout: String?
  @Option(help: "The records hold only the participants who answered at least this share of their prompts (a number from 0 to 1), or lowest: the pilot's lowest participant share (of those with 5 or more prompts). Each simulation keeps the same participants.")
  var keptAtLeast: String?
  @Flag(help: "Print the protocol the records show, as a scenario (into --output's file too, when given), and stop.") var propose = false
  @Option(help: "Master seed of the simulations.") var seed: UInt64 = 1
  @Option(help: "Participants in each simulation of the pilot (more: less simulation noise, slower).") var people = 300
  @Option(help: "Bootstrap resamples of the pilot's participants for its moments' covariance (the intervals).") var bootstrap = 200
  @Option(help: "Simulations each fit's search may spend.") var evaluations = Calibrator.defaultEvaluations
  @Option(help: "Write the block to this file (atomically), and the estimates and check beside it (.json, .html).") var output: String?
  @OptionGroup var execution: ExecutionOptions

  func validate() throws {
    guard PilotFormat(rawValue: format) != nil else {
      throw ValidationError("--format: expected \(PilotFormat.allCases.map(\.rawValue).joined(separator: ", ")), found '\(format)'")
    }
    if let u = utcOffset, !(-14 * 60...14 * 60).contains(u) {
      throw ValidationError("--utc-offset: expected minutes from -840 to 840 (UTC-14 to UTC+14), found \(u)")
    }
    if utcOffset != nil && timeZone != nil { throw ValidationError("give --utc-offset or --time-zone, not both") }
    if let z = timeZone, z.count > 100 || TimeZone(identifier: z) == nil {
      throw ValidationError("--time-zone: '\(z.prefix(100))' is not a time zone of the IANA database (for example Europe/Brussels)")
    }
    if let h = holdout, PredictiveCheck.Holdout(h) == nil {
      throw ValidationError("--holdout: expected days:N (N from 1) or participants:F (F between 0 and 1), found '\(h.prefix(60))'")
    }
    if let k = keptAtLeast, CalibrationRun.KeptRule(k) == nil {
      throw ValidationError("--kept-at-least: expected a share above 0 and at most 1, or lowest, found '\(k.prefix(60))'")
    }
    if !columns.isEmpty && format != "csv" { throw ValidationError("--column maps a generic file's columns: give --format csv") }
    if (utcOffset != nil || timeZone != nil) && format != "csv" && format != "beiwe" {
      throw ValidationError(
        "\(utcOffset != nil ? "--utc-offset" : "--time-zone") sets the clock of a generic file's or Beiwe's times; --format \(format)'s records carry their own offsets from UTC: leave it out")
    }
    do { _ = try PilotColumns.mapping(columns) } catch { throw ValidationError("--column: \(error.message)") }
    if propose, holdout != nil { throw ValidationError("--propose prints the protocol and stops, so --holdout would check nothing: give one of them") }
    if propose, keptAtLeast != nil {
      throw ValidationError("--propose prints the protocol and stops, so --kept-at-least would keep no one: give one of them")
    }
    if propose, scenario != nil {
      throw ValidationError("--propose proposes the protocol the records show, --scenario gives one: give one of them")
    }
    if let output, output.hasSuffix(".json") || output.hasSuffix(".html") {
      throw ValidationError("--output names the block's YAML file (its .json and .html are written beside it): give a name like \((output as NSString).deletingPathExtension).yaml")
    }
    guard !files.isEmpty else { throw ValidationError("give the pilot's files") }
    guard (10...10_000).contains(people) else { throw ValidationError("--people: expected 10 to 10000, found \(people)") }
    guard (2...10_000).contains(bootstrap) else { throw ValidationError("--bootstrap: expected 2 to 10000, found \(bootstrap)") }
    guard (20...100_000).contains(evaluations) else { throw ValidationError("--evaluations: expected 20 to 100000, found \(evaluations)") }
    try DistinctPaths.check(
      inputs: files.map { ("the pilot's file", $0) } + (scenario.map { [("the scenario", $0)] } ?? []),
      outputs: outputPaths.map { ("--output", $0) })
    // Where the files go, checked before the fit rather than after it.
    for path in outputPaths {
      do { try AtomicFile.requireWritable(path) } catch { throw ValidationError("--output: \(error)") }
    }
  }

  /// The files --output writes: the block, and beside it the JSON and the page.
  var outputPaths: [String] {
    guard let output else { return [] }
    if propose { return [output] }
    let stem = (output.hasSuffix(".yaml") || output.hasSuffix(".yml")) ? (output as NSString).deletingPathExtension : output
    return [output, stem + ".json", stem + ".html"]
  }

  /// The pilot's files, each refused before it is read when larger than a pilot may be.
  func readInputs() throws(ScenarioError) -> [(file: String, data: Data)] {
    var inputs: [(file: String, data: Data)] = []
    for f in files {
      let size = (try? FileManager.default.attributesOfItem(atPath: f)[.size] as? NSNumber)?.intValue
      if let size, size > Pilot.maxFileBytes {
        throw ScenarioError(file: f, "the file has \(size) bytes; a pilot's file has at most \(Pilot.maxFileBytes)")
      }
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: f, isDirectory: &isFolder) else { throw ScenarioError(file: f, "does not exist") }
      guard !isFolder.boolValue else { throw ScenarioError(file: f, "is a folder: give the pilot's files") }
      guard let handle = FileHandle(forReadingAtPath: f), let data = try? handle.read(upToCount: Pilot.maxFileBytes + 1) ?? Data()
      else { throw ScenarioError(file: f, "cannot be read") }
      guard data.count <= Pilot.maxFileBytes else {
        throw ScenarioError(file: f, "the file has more than \(Pilot.maxFileBytes) bytes; a pilot's file has at most that")
      }
      inputs.append((f, data))
    }
    return inputs
  }

  func run() throws {
    let format = PilotFormat(rawValue: format)!
    let clock: PilotClock? = timeZone.map { .zone($0) } ?? utcOffset.map { .offset(minutes: $0) }
    var pilot: Pilot
    let plan: StudyPlan
    var proposed: PilotProtocol?
    do {
      let names = try PilotColumns.mapping(columns)
      pilot = try format.read(try readInputs(), columns: PilotColumns(names: names, clock: clock))
      guard !pilot.prompts.isEmpty else { throw ScenarioError(file: files[0], "no prompts in the pilot's files") }
      guard propose || pilot.prompts.contains(where: { $0.outcome == .answered }) else {
        let hint = format == .csv ? " (a csv's answers are the rows with a time in its column submitted: --column submitted=NAME names the file's)" : ""
        throw ScenarioError(file: files[0], "no prompt in the pilot's files was answered: nothing to fit\(hint)")
      }
      if let scenario {
        plan = try ScenarioInput.resolve(path: scenario, overrides: .init()).variants[0].plan
      } else {
        if propose {
          // The proposal, with what the reading left out or kept, as the fit's report says it.
          let p = PilotProtocol(pilot)
          var text = p.notes.map { "# \($0)\n" }.joined()
          for (reason, n) in pilot.leftOut.sorted(by: { $0.key < $1.key }) { text += "# left out: \(n) of \(reason)\n" }
          for (reason, n) in pilot.adjusted.sorted(by: { $0.key < $1.key }) { text += "# warning: kept \(n) \(reason)\n" }
          text += p.yaml
          print(text, terminator: "")
          if let output {
            do { try AtomicFile.write(text, to: output) } catch { ErrorOutput.fail(error) }
            FileHandle.standardError.write(Data("esmsim calibrate: the proposed scenario is in \(output)\n".utf8))
          }
          return
        }
        let (p, proposedPlan) = try PilotProtocol.scenario(pilot, file: files[0])
        proposed = p
        plan = proposedPlan
      }
    } catch let error as ScenarioError {
      ErrorOutput.fail(error)
    }
    // The pilot's moments, read once (the records' rule changes only how simulations are read).
    let moments = ComplianceMoments(pilot)
    if moments.people < 5 {
      FileHandle.standardError.write(
        Data("esmsim calibrate: warning: the pilot has \(moments.people) participant\(moments.people == 1 ? "" : "s"): the intervals resample participants, and with fewer than 5 they are too narrow\n".utf8))
    }
    if let keptAtLeast, let rule = CalibrationRun.KeptRule(keptAtLeast) {
      switch CalibrationRun.keptAtLeast(rule, moments) {
      case .success(let share): pilot.recording.keptAtLeast = share
      case .failure(let problem): throw ValidationError("--kept-at-least \(keptAtLeast.prefix(60)): \(problem.text)")
      }
    }
    let check = holdout.flatMap(PredictiveCheck.Holdout.init)
    if let check, let problem = CalibrationRun.holdoutProblem(check, moments) {
      throw ValidationError("--holdout \(check): \(problem)")
    }
    // The work, shown and gated like a run's.
    let work = CalibrationRun.work(pilot: moments, people: people, holdout: check != nil, maxEvaluations: evaluations)
    let threads = execution.threadCount
    let seconds = work / (WorkEstimate.ratePerCore * Double(threads))
    FileHandle.standardError.write(
      Data("esmsim calibrate: up to \(WorkEstimate.count(work)) participant-days to simulate, about \(WorkEstimate.duration(seconds)) at most on \(threads) core\(threads == 1 ? "" : "s")\n".utf8))
    if work > WorkEstimate.limit && !execution.allowLarge {
      throw ValidationError("the calibration could simulate \(WorkEstimate.count(work)) participant-days (over \(WorkEstimate.count(WorkEstimate.limit))): lower --people or --evaluations, or pass --allow-large")
    }
    let bar = CalibrationProgress()
    let run = CalibrationRun.run(
      format: format, pilot: pilot, plan: plan, proposed: proposed, scenario: scenario ?? "", holdout: check, seed: seed,
      threads: threads, people: people, maxEvaluations: evaluations, resamples: bootstrap, progress: bar.update)
    bar.finish()
    let text = CalibrationText.text(run)
    // The report on the terminal in every case; with --output, in files as well.
    print(text, terminator: "")
    if let output {
      let paths = outputPaths
      for path in paths { try AtomicFile.requireRegular(path) }
      try AtomicFile.write(CalibrationJSON.value(run).text(indent: 2) + "\n", to: paths[1])
      try AtomicFile.write(CalibrationPage.html(run), to: paths[2])
      try AtomicFile.write(text, to: output)
      print("# written: \(paths.joined(separator: ", "))")
    }
  }
}
