import ArgumentParser
import Benchmarks
import SimKernel

/// `esmsim bench …`: benchmarks that print figures.
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Run a benchmark and print its figures.",
    subcommands: [Kernel.self, Random.self]
  )

  struct Kernel: ParsableCommand {
    static let configuration = CommandConfiguration(
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
      print("events=\(result.events) seconds=\(format(best)) events_per_second=\(Int((Double(result.events) / best).rounded()))")
    }
  }

  struct Random: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Nanoseconds per draw: native Swift against GSL samplers on the same stream.")

    @Option(help: "Draws per kind.") var count = 10_000_000
    @Option(help: "Master seed.") var seed: UInt64 = 1

    func validate() throws {
      guard count > 0 else { throw ValidationError("--count must be at least 1") }
    }

    func run() throws {
      for line in RandomBenchmark.run(count: count, seed: seed) {
        print("\(line.name): \(format(line.nanoseconds, digits: 2)) ns/draw (sum \(format(line.sum, digits: 1)))")
      }
    }
  }
}

extension HoldModel.Mode: ExpressibleByArgument {}

/// Formats a number with a fixed number of decimals (no locale, no scientific notation).
func format(_ x: Double, digits: Int = 3) -> String {
  guard x.isFinite else { return String(x) }
  var scale = 1.0
  for _ in 0..<digits { scale *= 10 }
  let r = (abs(x) * scale).rounded()
  let whole = Int(r / scale)
  let frac = Int(r - Double(whole) * scale)
  let sign = x < 0 && r > 0 ? "-" : ""
  if digits == 0 { return "\(sign)\(whole)" }
  let f = String(frac)
  return "\(sign)\(whole)." + String(repeating: "0", count: digits - f.count) + f
}
