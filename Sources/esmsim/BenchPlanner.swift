import Presentation
import Study
import ArgumentParser
import Benchmarks
import Foundation
import Planner
import Reporting

extension Bench {
  /// `esmsim bench planner`: the time the planner takes to answer one change of its form.
  struct PlannerChange: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "planner",
      abstract: "Milliseconds per change of the planner's form: read the scenario, simulate, measure, draw.",
      discussion: """
        Times what `esmsim serve` does for each change (everything but the HTTP exchange): the \
        scenario's text read and resolved, every participant simulated on --threads threads, \
        the figures measured and the charts and the participant's week drawn, as JSON. One \
        protocol, then two side by side. Prints the median and the fastest of --repeats.
        """
    )

    @Option(help: "Participants.") var participants = 1_000
    @Option(help: "Study days.") var days = 28
    @Option(help: "Worker threads (the server uses the processor count).") var threads = ProcessInfo.processInfo.activeProcessorCount
    @Option(help: "Changes timed.") var repeats = 9
    @Option(help: "Also write the figures into this JSON file (key \"planner\").") var results: String?

    func validate() throws {
      guard participants > 0, days > 0, repeats > 0, threads > 0 else {
        throw ValidationError("--participants, --days, --repeats and --threads must be at least 1")
      }
    }

    /// The planner's default form at this size, with or without a second protocol.
    func scenario(compare: Bool) -> String {
      var text = """
        name: planner benchmark
        seed: 1
        duration: \(days)d
        population:
          size: \(participants)
          os: {ios: 0.6, android: 0.4}
          devices: {ideal: 0.25, non_controlled: 0.45, heavy: 0.15, low_power: 0.15}
        protocol:
          window: "08:00-22:00"
          schedule: {algorithm: mappiness, per_day: 5}
          expiry: 30m
          sensors:
            location: {every: 3m}

        """
      if compare {
        text += """
          variants:
            - name: mappiness
            - name: fixed blocks
              protocol: {schedule: {algorithm: fixed-blocks, per_day: 5, min_gap: 60m, gap_method: truncation}}

          """
      }
      return text
    }

    func run() throws {
      var figures: [(String, JSONValue)] = []
      for compare in [false, true] {
        let request = Planner.Request(scenario: scenario(compare: compare))
        var times: [Double] = []
        for _ in 0..<repeats {
          let watch = Stopwatch()
          let parsed = try Planner.scenario(request, limits: .init(participantDays: .infinity))
          _ = try Planner.run(parsed, threads: threads).text()
          times.append(watch.seconds * 1000)
        }
        times.sort()
        let median = times[times.count / 2]
        let label = compare ? "two_protocols" : "one_protocol"
        print(
          "\(label): participants=\(participants) days=\(days) threads=\(threads) "
            + "median_ms=\(NumberText.fixed(median, 1)) fastest_ms=\(NumberText.fixed(times[0], 1))")
        figures.append(
          (label, .object([("median_ms", .number(median)), ("fastest_ms", .number(times[0]))])))
      }
      try BenchResults.record(
        "planner",
        .object(
          [("participants", .int(participants)), ("days", .int(days)), ("threads", .int(threads))] + figures
            + [("machine", BenchResults.machine)]), in: results)
    }
  }
}
