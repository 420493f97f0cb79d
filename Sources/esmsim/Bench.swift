import Presentation
import Study
import ArgumentParser
import Benchmarks
import Reporting
import SimKernel

/// `esmsim bench …`: benchmarks that print figures.
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench",
    abstract: "Run a benchmark and print its figures.",
    subcommands: [Kernel.self, Random.self, Schedules.self, CaseStudy.self, City.self, Scaling.self, PlannerChange.self, DesignTiming.self]
  )

  struct Kernel: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "kernel",
      abstract: "The hold model: each entity repeatedly waits an Exp(1 s) time.",
      discussion: """
        Prints, as its last line, events=<count> seconds=<wall> events_per_second=<rate>.
        per-entity simulates each entity alone with its own small queue (as esmsim simulates \
        participants); global keeps every entity's pending event in one queue.
        """
    )

    @Option(help: "Number of entities.") var entities = 10_000
    @Option(help: "Events per entity.") var eventsPerEntity = 100
    @Option(help: "per-entity or global.") var mode: HoldModel.Mode = .perEntity
    @Option(help: "Master seed.") var seed: UInt64 = 1
    @Option(help: "Repeat the run this many times and report the fastest.") var repeats = 5
    @Option(help: "Also write the figures into this JSON file (key \"kernel_<mode>\").") var results: String?

    func validate() throws {
      guard entities > 0 else { throw ValidationError("--entities must be at least 1") }
      guard eventsPerEntity > 0 else { throw ValidationError("--events-per-entity must be at least 1") }
      guard repeats > 0 else { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
      var best = Double.infinity
      var result: HoldModel.Result?
      for _ in 0..<repeats {
        let watch = Stopwatch()
        result = HoldModel.run(
          entities: entities, eventsPerEntity: eventsPerEntity, mode: mode, seed: seed)
        best = min(best, watch.seconds)
      }
      guard let result else { return }
      print("mode=\(mode.rawValue) entities=\(entities) events_per_entity=\(eventsPerEntity) seed=\(seed) checksum=\(result.checksum)")
      let rate = Double(result.events) / best
      print("events=\(result.events) seconds=\(NumberText.fixed(best, 3)) events_per_second=\(Int(rate.rounded()))")
      try BenchResults.record(
        "kernel_\(mode.rawValue)",
        .object([
          ("entities", .int(entities)), ("events_per_entity", .int(eventsPerEntity)), ("events", .int(result.events)),
          ("seconds", .number(best)), ("events_per_second", .number(rate)), ("machine", BenchResults.machine),
        ]), in: results)
    }
  }

  struct Random: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "random",
      abstract: "Nanoseconds per draw: native Swift against GSL samplers on the same stream.")

    @Option(help: "Draws per kind.") var count = 10_000_000
    @Option(help: "Master seed.") var seed: UInt64 = 1

    func validate() throws {
      guard count > 0 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
      for line in RandomBenchmark.run(count: count, seed: seed) {
        print("\(line.name): \(NumberText.fixed(line.nanoseconds, 2)) ns/draw (sum \(NumberText.fixed(line.sum, 1)))")
      }
    }
  }

  struct Schedules: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "schedules",
      abstract: "Seconds per 10^6 participant-days of schedule generation, per algorithm.",
      discussion: "Window 08:00-22:00, 5 signals a day, a 30-minute gap for fixed blocks. Target: under 1 s each."
    )

    @Option(help: "Participant-days per algorithm.") var days = 1_000_000
    @Option(help: "Master seed.") var seed: UInt64 = 1

    func validate() throws {
      guard days > 0 else { throw ValidationError("--days must be at least 1") }
    }

    func run() throws {
      var rows = [["algorithm", "days", "seconds", "days/s", "signals"]]
      for line in try ScheduleBenchmark.run(days: days, seed: seed) {
        rows.append([
          line.name, "\(days)", NumberText.fixed(line.seconds, 3),
          "\(Int((Double(days) / line.seconds).rounded()))", "\(line.signals)",
        ])
      }
      print(TextTable.render(rows), terminator: "")
    }
  }
}

extension HoldModel.Mode: ExpressibleByArgument {}
