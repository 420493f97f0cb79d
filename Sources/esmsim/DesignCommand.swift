import ArgumentParser
import Foundation
import Presentation
import Reporting
import Scenarios
import Study

/// `esmsim design`: the smallest designs of a scenario that reach an answers target.
struct DesignCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "design",
    abstract: "Find the smallest designs (participants, days, prompts a day) that reach an answers target.",
    discussion: """
      Runs the scenario (one variant: --variant, default the first) at the designs given by \
      --vary and reports, for each number of participants and prompts a day, the fewest days \
      that reach --target, with the figure's 95 % interval, and the cheapest (--cost). \
      Answers grow with days and prompts a day, so the days are searched by bisection, \
      not tried one by one; each design is replicated until its interval clears the target \
      or --replications ran. Every design uses the scenario's seed: participant i is the same \
      person in each. Not varied: the scenario's own value. Example: esmsim design \
      scenarios/quickstart.yaml --target answers:30@0.9 --vary days=5..28 --vary per_day=3..8
      """)

  @Argument(help: "The scenario file.") var scenario: String
  @Option(help: "answers:N@S (a share S of participants give at least N answers) or p10:N (the tenth percentile of answers is at least N).")
  var target: String
  @Option(help: "NAME=VALUES, NAME one of participants, days, per_day; VALUES a list (7,14,21), a range (5..28) or a range with a step (50..200:50). Repeat for each.")
  var vary: [String] = []
  @Option(help: "The variant to design (default: the first).") var variant: String?
  @Option(help: "What makes a design cheaper: participant-days or prompts.") var cost: String = "participant-days"
  @Option(help: "Most replications of a design (each adds the scenario's participants).") var replications = 5
  @Option(help: "Write the designs as JSON to this file (atomically).") var output: String?
  @OptionGroup var execution: ExecutionOptions

  /// Most participant-days the search may simulate.
  static let maxWork = 2_000_000_000.0

  func validate() throws {
    guard DesignTarget(target) != nil else {
      throw ValidationError("--target: expected answers:N@S (N from 1, S between 0 and 1, for example answers:30@0.9) or p10:N, found '\(target.prefix(60))'")
    }
    guard DesignCost(rawValue: cost) != nil else { throw ValidationError("--cost: expected participant-days or prompts, found '\(cost.prefix(40))'") }
    guard (1...50).contains(replications) else { throw ValidationError("--replications: expected 1 to 50, found \(replications)") }
    _ = try Self.ranges(vary)
    try DistinctPaths.check(inputs: [("the scenario", scenario)], outputs: output.map { [("--output", $0)] } ?? [])
    // Where the JSON goes, checked before the search rather than after it.
    if let output {
      do { try AtomicFile.requireWritable(output) } catch { throw ValidationError("--output: \(error)") }
    }
  }

  /// The varied keys' values, sorted and distinct (``DesignRanges``).
  static func ranges(_ vary: [String]) throws -> [String: [Int]] {
    do { return try DesignRanges.parse(vary) } catch { throw ValidationError(error.message) }
  }

  func run() throws {
    let target = DesignTarget(target)!
    let ranges = try Self.ranges(vary)
    do {
      let space = try DesignSpace.load(path: scenario, variant: variant)
      let participants = ranges["participants"] ?? [space.base.participants]
      let days = ranges["days"] ?? [space.base.days]
      let perDay = ranges["per_day"] ?? [space.base.perDay]
      let work = DesignRanges.mostWork(participants: participants, days: days, perDay: perDay, replications: replications)
      if work > Self.maxWork && !execution.allowLarge {
        throw ValidationError(
          "the search could simulate up to \(Int(work)) participant-days (over \(Int(Self.maxWork))): narrow --vary or pass --allow-large")
      }
      let result = try DesignSearch.search(
        space, target: target, participants: participants, days: days, perDay: perDay, cost: DesignCost(rawValue: cost)!,
        maxReplications: replications, threads: execution.threadCount)
      if let output {
        try AtomicFile.requireRegular(output)
        try AtomicFile.write(DesignText.json(result, space: space).text(indent: 2) + "\n", to: output)
      }
      print(DesignText.text(result, space: space), terminator: "")
    } catch let error as ScenarioError {
      ErrorOutput.fail(error)
    }
  }
}
