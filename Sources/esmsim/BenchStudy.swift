import Presentation
import Study
import ArgumentParser
import Benchmarks
import Foundation
import Reporting
import Scenarios

#if canImport(Glibc)
  import Glibc
#endif

/// Peak resident memory of this process so far, in MiB (Linux `ru_maxrss` is in KiB).
func peakResidentMiB() -> Double {
  var usage = rusage()
  getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
  return Double(usage.ru_maxrss) / 1024
}

/// One timed run of a scenario into a scratch folder (deleted afterwards).
struct TimedStudy {
  var participants: Int
  var days: Int
  var threads: Int
  var participantDays: Double
  var events: Int
  var seconds: Double

  static func run(_ scenario: Scenario, threads: Int) throws -> TimedStudy {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("esmsim-bench-\(ProcessInfo.processInfo.processIdentifier)").path
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let watch = Stopwatch()
    let outcome = try StudyRun.run(
      scenario, to: scratch, options: StudyRun.Options(threads: threads, force: true), version: ESMSimVersion.string,
      shouldStop: { false })
    let seconds = watch.seconds
    let plan = scenario.variants[0].plan
    return TimedStudy(
      participants: plan.participants, days: plan.days, threads: threads, participantDays: outcome.participantDays,
      events: outcome.events, seconds: seconds)
  }

  /// Microseconds of wall time per simulated participant-day.
  var microsecondsPerParticipantDay: Double { seconds / participantDays * 1e6 }

  var json: JSONValue {
    .object([
      ("participants", .int(participants)), ("days", .int(days)), ("threads", .int(threads)),
      ("participant_days", .number(participantDays)), ("events", .int(events)), ("seconds", .number(seconds)),
      ("events_per_second", .number(Double(events) / seconds)),
      ("participant_days_per_second", .number(participantDays / seconds)),
      ("us_per_participant_day", .number(microsecondsPerParticipantDay)),
    ])
  }
}

/// Figures kept in a JSON file, one entry per benchmark (`make bench` writes bench/results.json).
enum BenchResults {
  static func record(_ key: String, _ value: JSONValue, in path: String?) throws {
    guard let path else { return }
    var entries: [(String, JSONValue)] = []
    if let data = FileManager.default.contents(atPath: path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
    {
      // Keep the other benchmarks' entries.
      for k in object.keys.sorted() where k != key { entries.append((k, json(object[k]!))) }
    }
    entries.append((key, value))
    let dir = (path as NSString).deletingLastPathComponent
    if !dir.isEmpty { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) }
    try AtomicFile.write(JSONValue.object(entries.sorted { $0.0 < $1.0 }).text(indent: 2) + "\n", to: path)
  }

  /// A value read by JSONSerialization, as a JSONValue (object keys in sorted order).
  static func json(_ any: Any) -> JSONValue {
    switch any {
    case let d as [String: Any]: return .object(d.keys.sorted().map { ($0, json(d[$0]!)) })
    case let a as [Any]: return .array(a.map(json))
    case let b as Bool where type(of: any) == Bool.self: return .bool(b)
    case let n as NSNumber:
      return n.doubleValue == n.doubleValue.rounded() && abs(n.doubleValue) < 1e15 ? .int(n.intValue) : .number(n.doubleValue)
    case let s as String: return .string(s)
    default: return .null
    }
  }

  static var machine: JSONValue {
    .object([
      ("cores", .int(ProcessInfo.processInfo.activeProcessorCount)),
      ("memory_gib", .number(Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)),
      ("esmsim", .string(ESMSimVersion.string)),
    ])
  }
}

extension Bench {
  struct CaseStudy: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "case-study",
      abstract: "Events per participant-day in the AWARE-iOS case study: sampling adds no events.",
      discussion: """
        Runs scenarios/aware-ios-case-study.yaml (all four cases) as it is, and again with every \
        sensor sampling ten times as often: the events per participant-day must not change, \
        since sensor samples are counted arithmetically, never simulated one by one.
        """
    )

    @Option(help: "The scenario.") var scenario = "scenarios/aware-ios-case-study.yaml"
    @Option(help: "Also write the figures into this JSON file (key \"case_study\").") var results: String?

    func run() throws {
      let s = try ScenarioInput.resolve(path: scenario, overrides: .init())
      var fast = s
      for i in fast.variants.indices {
        for k in fast.variants[i].plan.protocolPlan.sensors.indices {
          if case .periodic(let p) = fast.variants[i].plan.protocolPlan.sensors[k].kind, p >= 10 {
            fast.variants[i].plan.protocolPlan.sensors[k].kind = .periodic(period: p / 10)
          }
        }
      }
      let cores = ProcessInfo.processInfo.activeProcessorCount
      let normal = try TimedStudy.run(s, threads: cores)
      let dense = try TimedStudy.run(fast, threads: cores)
      let perDay = Double(normal.events) / normal.participantDays
      let densePerDay = Double(dense.events) / dense.participantDays
      print(
        "case study: \(NumberText.fixed(normal.participantDays, 0)) participant-days, \(normal.events) events: \(NumberText.fixed(perDay, 2)) events per participant-day (\(NumberText.fixed(normal.seconds, 2)) s)"
      )
      print(
        "sensors 10x as fast: \(dense.events) events: \(NumberText.fixed(densePerDay, 2)) events per participant-day (\(NumberText.fixed(dense.seconds, 2)) s)"
      )
      try BenchResults.record(
        "case_study",
        .object([
          ("events_per_participant_day", .number(perDay)), ("events_per_participant_day_sensors_10x", .number(densePerDay)),
          ("normal", normal.json), ("sensors_10x", dense.json),
        ]), in: results)
    }
  }

  struct City: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "city",
      abstract: "Time the city study: wall time, events, events and participant-days per second, peak memory.",
      discussion: """
        Runs scenarios/city-study-benchmark.yaml (10,000 participants for a year; summary outputs) \
        into a scratch folder. Targets on a 2-core machine: at most 10 s and 1 GiB. Run it in a \
        fresh process: the peak memory is the process's.
        """
    )

    @Option(help: "The scenario.") var scenario = "scenarios/city-study-benchmark.yaml"
    @Option(help: "Worker threads (default: all cores).") var threads: Int?
    @Option(help: "Participants (overrides the scenario).") var participants: Int?
    @Option(help: "Also write the figures into this JSON file (key \"city\").") var results: String?

    func run() throws {
      let s = try ScenarioInput.resolve(path: scenario, overrides: .init(participants: participants))
      let t = try TimedStudy.run(s, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
      let peak = peakResidentMiB()
      print(
        """
        city study: \(t.participants) participants x \(t.days) days, threads \(t.threads)
        wall \(NumberText.fixed(t.seconds, 2)) s (target 5 s), peak memory \(NumberText.fixed(peak, 0)) MiB (target 1024)
        participant-days \(NumberText.fixed(t.participantDays, 0)) (\(NumberText.fixed(t.participantDays / t.seconds, 0))/s), \
        events \(t.events) (\(NumberText.fixed(Double(t.events) / t.seconds / 1e6, 2)) M/s)
        """)
      var entry = t.json
      if case .object(var pairs) = entry {
        pairs.append(("peak_resident_mib", .number(peak)))
        pairs.append(("machine", BenchResults.machine))
        entry = .object(pairs)
      }
      try BenchResults.record("city", entry, in: results)
    }
  }

  struct Scaling: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "scaling",
      abstract: "Cost per participant-day at growing sizes, and the speed-up of two threads over one.",
      discussion: """
        Runs the city study for 30 days at each size (default 1,000, 10,000 and 100,000 \
        participants): the time per participant-day should stay within 10 %. Then 10,000 \
        participants with one thread and with two: two should be at least 1.8 times faster. \
        An untimed warm-up run comes first (so that the first size does not pay for the \
        process's start: heap growth, thread pool, lazy tables), and each figure is the best \
        of --repeat runs taken in turns (a shared machine only ever adds time), or of as many \
        as fill 3 seconds for a size whose runs are short (at most 25).
        """
    )

    @Option(help: "The scenario.") var scenario = "scenarios/city-study-benchmark.yaml"
    @Option(help: "Sizes, comma-separated.") var sizes = "1000,10000,100000"
    @Option(help: "Study length.") var duration = "30d"
    @Option(help: "Participants for the thread comparison.") var threadSize = 10_000
    @Option(help: "Runs of each measurement; the fastest counts.") var `repeat` = 3
    @Option(help: "Also write the figures into this JSON file (key \"scaling\").") var results: String?

    func run() throws {
      let counts = sizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
      guard !counts.isEmpty, counts.allSatisfy({ $0 > 0 }) else { throw ValidationError("--sizes: positive numbers, comma-separated") }
      let cores = ProcessInfo.processInfo.activeProcessorCount
      var rows = [["participants", "days", "threads", "seconds", "us/participant-day", "events/s"]]
      guard `repeat` > 0 else { throw ValidationError("--repeat: at least 1") }
      let warmUp = try ScenarioInput.resolve(path: scenario, overrides: .init(participants: 200, duration: duration))
      _ = try TimedStudy.run(warmUp, threads: cores)
      // The sizes taken in turns, `repeat` rounds, the fastest of each kept: a slow spell of
      // a shared machine then weighs on every size alike.
      let studies = try counts.map {
        try ScenarioInput.resolve(path: scenario, overrides: .init(participants: $0, duration: duration))
      }
      var sized: [TimedStudy] = []
      var spent = Array(repeating: 0.0, count: studies.count)
      var rounds = Array(repeating: 0, count: studies.count)
      func measure(_ k: Int) throws {
        let t = try TimedStudy.run(studies[k], threads: cores)
        if k == sized.count { sized.append(t) } else if t.seconds < sized[k].seconds { sized[k] = t }
        spent[k] += t.seconds
        rounds[k] += 1
      }
      for _ in 0..<`repeat` {
        for k in studies.indices { try measure(k) }
      }
      // A short run is at the mercy of a moment's noise: more of them, until each size has
      // been measured for a few seconds.
      for k in studies.indices {
        while spent[k] < Self.shortestMeasurement && rounds[k] < Self.mostRounds { try measure(k) }
      }
      rows += sized.map(row)
      let s = try ScenarioInput.resolve(path: scenario, overrides: .init(participants: threadSize, duration: duration))
      // One and two threads taken in turns, so that a slow spell of the machine weighs on both.
      var one = try TimedStudy.run(s, threads: 1)
      var two = try TimedStudy.run(s, threads: 2)
      for _ in 1..<`repeat` {
        let a = try TimedStudy.run(s, threads: 1)
        let b = try TimedStudy.run(s, threads: 2)
        if a.seconds < one.seconds { one = a }
        if b.seconds < two.seconds { two = b }
      }
      rows.append(row(one))
      rows.append(row(two))
      print(TextTable.render(rows), terminator: "")
      let costs = sized.map(\.microsecondsPerParticipantDay)
      let mean = costs.reduce(0, +) / Double(costs.count)
      let spread = costs.map { abs($0 / mean - 1) }.max() ?? 0
      let speedup = one.seconds / two.seconds
      print(
        "cost per participant-day within ±\(NumberText.fixed(spread * 100, 1)) % of its mean (target 10 %); "
          + "two threads \(NumberText.fixed(speedup, 2))x faster than one (target 1.8)")
      try BenchResults.record(
        "scaling",
        .object([
          ("sizes", .array(sized.map(\.json))), ("one_thread", one.json), ("two_threads", two.json),
          ("max_deviation_from_mean_cost", .number(spread)), ("two_thread_speedup", .number(speedup)),
          ("best_of", .array(rounds.map { .int($0) })),
          ("machine", BenchResults.machine),
        ]), in: results)
    }

    /// Seconds each size is measured for at least (in runs of its own), and the most runs.
    static let shortestMeasurement = 3.0
    static let mostRounds = 25

    func row(_ t: TimedStudy) -> [String] {
      [
        "\(t.participants)", "\(t.days)", "\(t.threads)", NumberText.fixed(t.seconds, 2),
        NumberText.fixed(t.microsecondsPerParticipantDay, 2), NumberText.fixed(Double(t.events) / t.seconds, 0),
      ]
    }
  }
}
