import Presentation
import Study
import ArgumentParser
import Foundation
import Reporting
import Scenarios

/// `esmsim run`: simulate a scenario and write its results folder.
struct RunCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run a scenario and write its results folder.",
    discussion: """
      Writes summary.csv and summary.json, coverage_summary.csv, manifest.json, report.html and \
      the per-row tables the scenario asks for (prompts.csv, participants.csv, days.csv, \
      answers.csv, coverage.csv, aware_esm.csv, beiwe/, esmira/, mpath/, results.sqlite; \
      docs/outputs.md). Everything is written into a staging folder that \
      is renamed to DIR only when complete.
      """
  )

  @Argument(help: "The scenario file (YAML or JSON). Optional with --aware-schedule.") var scenario: String?
  @Option(name: .shortAndLong, help: "The results folder to create.") var output: String
  @Option(help: "Replications (overrides the scenario).") var replications: Int?
  @Option(help: "Master seed (overrides the scenario).") var seed: UInt64?
  @OptionGroup var execution: ExecutionOptions
  @Option(help: "Participants per variant (overrides population.size, a variant's own too; for a quick try).")
  var participants: Int?
  @Option(help: "Study length, for example 7d (overrides duration, a variant's own too).") var duration: String?
  @Option(help: "Use this AWARE ESM schedule file as the protocol.") var awareSchedule: String?
  @Flag(help: "Replace DIR if it exists.") var force = false

  func validate() throws {
    if scenario == nil && awareSchedule == nil {
      throw ValidationError("give a scenario file, or --aware-schedule FILE")
    }
    if let replications, replications < 1 || replications > 100_000 {
      throw ValidationError("--replications must be between 1 and 100000")
    }
    // The results folder is not one of the files read (it would be replaced with --force).
    try DistinctPaths.check(
      inputs: [("the scenario", scenario), ("--aware-schedule", awareSchedule)].compactMap { n, p in p.map { (n, $0) } },
      outputs: [("--output", output)])
    if let participants, participants < 1 || participants > 10_000_000 {
      throw ValidationError("--participants must be between 1 and 10000000")
    }
  }

  func run() throws {
    let resolved = try ScenarioInput.resolve(
      path: scenario,
      overrides: ScenarioOverrides(
        replications: replications, seed: seed, participants: participants, duration: duration, awareSchedule: awareSchedule))
    for w in resolved.warnings { FileHandle.standardError.write(Data("esmsim: warning: \(w)\n".utf8)) }
    Interrupts.install()
    let threadCount = execution.threadCount
    let estimate = WorkEstimate.run(resolved, threads: threadCount)
    if estimate.isLarge && !execution.allowLarge {
      FileHandle.standardError.write(
        Data(
          "esmsim: \(scenario ?? "the study") asks for \(estimate.text(threads: threadCount)); refusing a run this large (over \(WorkEstimate.count(WorkEstimate.limit)) participant-days, \(WorkEstimate.size(WorkEstimate.outputLimit)) or \(WorkEstimate.count(WorkEstimate.filesLimit)) files of output) unless you add --allow-large\n"
            .utf8))
      throw ExitCode(1)
    }
    do {
      let outcome = try StudyRun.run(
        resolved, to: output,
        options: StudyRun.Options(threads: threadCount, force: force, progress: true),
        version: ESMSimVersion.string, shouldStop: { Interrupts.requested })
      print(ConsoleSummary.text(resolved, outcome, directory: output), terminator: "")
    } catch let failure as StudyRun.Failure where Interrupts.requested {
      ErrorOutput.fail(failure, code: Interrupts.exitCode)
    }
  }
}

/// `esmsim show`: print a scenario with every default filled in.
struct ShowCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "show", abstract: "Print the fully resolved scenario, every default filled in.")

  @Argument(help: "The scenario file.") var scenario: String

  func run() throws {
    let s = try ScenarioInput.resolve(path: scenario, overrides: .init())
    print(s.resolved.yaml(), terminator: "")
  }
}

/// `esmsim validate`: check a scenario.
struct ValidateCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate", abstract: "Check a scenario file; print what it describes or the first problem.")

  @Argument(help: "The scenario file.") var scenario: String

  func run() throws {
    let s = try ScenarioInput.resolve(path: scenario, overrides: .init())
    let plans = s.variants.map(\.plan)
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let estimate = WorkEstimate.run(s, threads: cores)
    print(
      "\(scenario): ok — \(s.name): \(s.variants.count) variant(s), \(plans.first?.participants ?? 0) participants × \(plans.first?.days ?? 0) days, \(s.replications) replication(s), \(WorkEstimate.count(estimate.participantDays)) participant-days in all"
    )
    print("estimate: \(estimate.text(threads: cores))\(estimate.isLarge ? " (esmsim run needs --allow-large)" : "")")
    for w in s.warnings { print("warning: \(w)") }
  }
}

/// Reading a scenario with command-line overrides; scenario problems become one-line errors
/// with exit code 1.
enum ScenarioInput {
  /// The built-in study used with `--aware-schedule` alone: 100 participants for 14 days on
  /// ordinary phones.
  static let awareDefault = """
    name: AWARE schedule
    description: An AWARE ESM schedule run on 100 simulated participants for 14 days.
    population: {size: 100}
    """

  static func resolve(path: String?, overrides: ScenarioOverrides) throws -> Scenario {
    do {
      var tree: ScenarioValue
      let file: String
      if let path {
        tree = try ScenarioLoader.load(path: path)
        file = path
      } else {
        tree = try ScenarioLoader.parse(Data(awareDefault.utf8), file: "(built-in AWARE study)")
        file = "(built-in AWARE study)"
      }
      tree = overrides.applied(to: tree)
      return try ScenarioResolver.resolve(tree, file: file)
    } catch {
      ErrorOutput.fail(error)
    }
  }
}

/// SIGINT and SIGTERM: stop between batches of participants, leave no results folder.
enum Interrupts {
  nonisolated(unsafe) static var signal: Int32 = 0

  static var requested: Bool { signal != 0 }
  static var exitCode: Int32 { 128 + signal }

  static func install() {
    Foundation.signal(SIGINT) { Interrupts.signal = $0 }
    Foundation.signal(SIGTERM) { Interrupts.signal = $0 }
    // A parent may have started esmsim with these signals blocked (a thread's mask is
    // inherited); then they would never arrive.
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}
