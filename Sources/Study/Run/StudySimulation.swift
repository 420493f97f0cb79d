import Foundation
import Measures
import Schedules
import Scenarios
import SimKernel
import StudyModel

/// A run that could not finish (interrupted), or a problem with its destination.
public struct StudyFailure: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

/// The one way into a simulation: a scenario's every variant and replication simulated and
/// measured in memory (``simulate(_:options:observers:shouldStop:)``: `esmsim run` and the
/// planner), or one replication of one plan (``simulate(_:seed:replication:options:variant:observers:progress:shouldStop:)``:
/// the design search, calibration and sweeps). Observers see every participant's outcome.
public enum StudySimulation {
  /// How to run.
  public struct Options: Sendable {
    /// Worker threads.
    public var threads: Int
    /// Show a progress bar on standard error (when it is a terminal; a scenario's run).
    public var progress: Bool
    /// Participants feeding the KS sample and the predictability model (0: none).
    public var detailParticipants: Int
    /// Study hours of the heat map (0: none); a scenario's run takes its `outputs`' own.
    public var heatHours: Int

    public init(threads: Int = 1, progress: Bool = false, detailParticipants: Int = 2_000, heatHours: Int = 0) {
      self.threads = threads
      self.progress = progress
      self.detailParticipants = detailParticipants
      self.heatHours = heatHours
    }
  }

  /// Simulates replication `replication` (from 0) of `plan` with master seed `seed`, its
  /// participants in parallel and pooled in participant order (``StudyRunner``): the
  /// accumulated measures, or nil when `shouldStop` stopped it. Each of `observers` receives
  /// every participant's outcome as variant `variant`, carrying the details they ask for;
  /// finishing them is the caller's (they may see more replications).
  ///
  /// - Parameter progress: receives the participants merged so far, every few chunks.
  public static func simulate(
    _ plan: StudyPlan, seed: UInt64, replication: Int, options: Options, variant: Int = 0,
    observers: [any StudyObserver] = [], progress: (Int) -> Void = { _ in },
    shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws -> StudyAccumulator? {
    let detail = observers.reduce(into: OutcomeDetail()) { $0.formUnion($1.detail) }
    let runOptions = StudyRunner.Options(
      seed: seed, threads: options.threads, detail: detail, heatHours: options.heatHours,
      detailParticipants: options.detailParticipants)
    return try StudyRunner.run(
      plan, replication: UInt32(replication), options: runOptions,
      each: { o in for observer in observers { try observer.participant(o, variant: variant, replication: replication) } },
      progress: progress, shouldStop: shouldStop)
  }

  /// What the simulation of every variant and replication gives, before anything is written.
  public struct Simulated: Sendable {
    /// Each variant's results, in the scenario's order.
    public var variants: [VariantResults]
    /// Every variant's summary rows, in order (`summary.csv`).
    public var summary: [SummaryRow] { variants.flatMap(\.rows) }
    /// Simulated participant-days.
    public var participantDays: Double
    /// Simulated events.
    public var events: Int
  }

  /// Simulates every variant and replication of `scenario` in memory and measures them;
  /// each of `observers` receives every participant's outcome (variant and replication
  /// indices), in participant order, carrying the details they ask for, and is finished at the
  /// end.
  public static func simulate(
    _ scenario: Scenario, options: Options, observers: [any StudyObserver] = [],
    shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws -> Simulated {
    let out = scenario.outputs
    var runOptions = options
    runOptions.heatHours = out.report ? out.heatHours : 0
    var reports: [VariantResults] = []
    var participantDays = 0.0
    var events = 0
    let progress = ProgressBar(enabled: options.progress, total: scenario.variants.count * scenario.replications)
    for (v, variant) in scenario.variants.enumerated() {
      let plan = variant.plan
      var perReplication: [[(Metric, Estimate)]] = []
      var pooled: StudyAccumulator?
      var firstHeat: [[Float]] = []
      var pooledScheduled: ScheduleSummary?
      for r in 0..<scenario.replications {
        progress.start(variant: variant.name, replication: r, participants: plan.participants)
        let acc = try simulate(
          plan, seed: scenario.seed, replication: r, options: runOptions, variant: v, observers: observers,
          progress: { progress.update($0) }, shouldStop: shouldStop)
        guard let acc else { throw StudyFailure("interrupted; no results were written") }
        participantDays += acc.participantDays
        events += acc.events
        let schedules = ScheduleMeasures.summaries(scheduled: acc.scheduledTimes, answered: acc.answeredTimes)
        if scenario.replications == 1 { pooledScheduled = schedules.scheduled }
        perReplication.append(Metrics.values(acc, schedules: schedules))
        if r == 0 { firstHeat = acc.heat }
        if pooled == nil { pooled = acc } else { pooled!.merge(acc) }
      }
      progress.finish()
      let rows = SummaryRow.rows(variant: variant.name, replications: perReplication)
      guard let pooled else { continue }
      let report = VariantResults(
        name: variant.name, plan: plan, pooled: pooled, rows: rows, replications: scenario.replications,
        scheduled: pooledScheduled, heat: firstHeat)
      reports.append(report)
    }
    for observer in observers { try observer.finish() }
    return Simulated(variants: reports, participantDays: participantDays, events: events)
  }
}
