import ArgumentParser
import Benchmarks
import Foundation
import Presentation
import Scenarios
import Study

extension Bench {
  /// `esmsim bench design`: the time a design search takes for an answers target.
  struct DesignTiming: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "design",
      abstract: "Seconds for a design search: 3 participants x days x 3 prompts a day for an answers target.",
      discussion: """
        Searches the quickstart's phones (mixed devices, 60 % iPhones, Mappiness in \
        08:00-22:00, 30-minute expiry) for the fewest days reaching answers:30@0.9, over \
        participants 50, 100 and 200, days --days, and 3, 4 and 5 prompts a day, as `esmsim \
        design` does. Prints the designs in the space, those simulated, the participant-days \
        and the seconds (median of --repeats).
        """
    )

    @Option(help: "Days to search (a range: 7..21 is every day from 7 to 21).") var days = "5..21"
    @Option(help: "Worker threads.") var threads = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Searches timed.") var repeats = 3
    @Option(help: "Also write the figures into this JSON file (key \"design\").") var results: String?

    func validate() throws {
      guard repeats > 0, threads > 0 else { throw ValidationError("--repeats and --threads must be at least 1") }
      guard DesignRanges.values(days, maxCount: 1_000) != nil else { throw ValidationError("--days: expected a range such as 5..21") }
    }

    static let scenario = """
      name: design benchmark
      seed: 1
      duration: 14d
      population:
        size: 100
        os: {ios: 0.6, android: 0.4}
        devices: {ideal: 0.25, non_controlled: 0.45, heavy: 0.15, low_power: 0.15}
      protocol:
        window: "08:00-22:00"
        schedule: {algorithm: mappiness, per_day: 5}
        expiry: 30m

      """

    func run() throws {
      let dayValues = DesignRanges.values(days, maxCount: 1_000)!
      let file = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-bench-design-\(UUID().uuidString).yaml").path
      try Self.scenario.write(toFile: file, atomically: true, encoding: .utf8)
      defer { try? FileManager.default.removeItem(atPath: file) }
      var times: [Double] = []
      var last: DesignSearch.Result?
      let space = try DesignSpace.load(path: file, variant: nil)
      for _ in 0..<repeats {
        let watch = Stopwatch()
        last = try DesignSearch.search(
          space, target: .shareReaching(answers: 30, share: 0.9), participants: [50, 100, 200], days: dayValues,
          perDay: [3, 4, 5], cost: .participantDays, threads: threads)
        times.append(watch.seconds)
      }
      guard let r = last else { return }
      let median = times.sorted()[times.count / 2]
      let space3 = 3 * dayValues.count * 3
      print(DesignText.text(r, space: space), terminator: "")
      print(
        "designs_in_space=\(space3) designs_simulated=\(r.evaluations.count) participant_days=\(r.participantDays) threads=\(threads) seconds=\(NumberText.fixed(median, 2))"
      )
      try BenchResults.record(
        "design",
        .object([
          ("designs_in_space", .int(space3)), ("designs_simulated", .int(r.evaluations.count)),
          ("participant_days", .int(r.participantDays)), ("threads", .int(threads)), ("seconds", .number(median)),
          ("machine", BenchResults.machine),
        ]), in: results)
    }
  }
}
