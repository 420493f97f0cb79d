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

/// Runs a study: every variant and replication of a scenario simulated and measured in
/// memory (what `esmsim run`, the planner and the sweeps show).
public enum StudySimulation {
  /// How to run.
  public struct Options: Sendable {
    /// Worker threads.
    public var threads: Int
    /// Show a progress bar on standard error (when it is a terminal).
    public var progress: Bool
    /// Participants feeding the KS sample and the predictability model.
    public var detailParticipants: Int

    public init(threads: Int = 1, progress: Bool = false, detailParticipants: Int = 2_000) {
      self.threads = threads
      self.progress = progress
      self.detailParticipants = detailParticipants
    }
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
    let detail = observers.reduce(into: OutcomeDetail()) { $0.formUnion($1.detail) }
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
        let runOptions = StudyRunner.Options(
          seed: scenario.seed, threads: options.threads, detail: detail, heatHours: out.report ? out.heatHours : 0,
          detailParticipants: options.detailParticipants)
        progress.start(variant: variant.name, replication: r, participants: plan.participants)
        let acc = try StudyRunner.run(
          plan, replication: UInt32(r), options: runOptions,
          each: { o in for observer in observers { try observer.participant(o, variant: v, replication: r) } },
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
      var coverage: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)] = []
      for (d, device) in plan.devices.enumerated() {
        for (k, sensor) in plan.protocolPlan.sensors.enumerated() {
          // Comp, Incomp and Loss are the periodic sensors' (AWARE-iOS Fig. 9).
          guard case .periodic = sensor.kind else { continue }
          let t = pooled.tallies[d][k]
          guard t.hours > 0 else { continue }
          let n = Double(t.hours)
          let c = (device.profile.name, sensor.name, Double(t.comp) / n, Double(t.incomp) / n, Double(t.loss) / n)
          coverage.append(c)
        }
      }
      // The bias's interval across replications, or from one the interval over participants.
      let biasRow = rows.first { $0.metric == .bias }
      var low = biasRow?.ciLow ?? .nan
      var high = biasRow?.ciHigh ?? .nan
      if !low.isFinite {
        low = biasRow?.participantLow ?? .nan
        high = biasRow?.participantHigh ?? .nan
      }
      let s = pooledScheduled ?? pooled.scheduledTimes.summary()
      var report =
        VariantResults(
          name: variant.name, intensityScheduled: pooled.scheduled > 0 ? s.intensity : [],
          intensityAnswered: pooled.answered > 0 ? pooled.answeredTimes.intensity : [],
          bitsPerSignal: s.bitsPerSignal, forcedShare: s.forcedShare, maxHazard: s.maxHazard, heldOutDays: s.heldOutDays,
          heatSensor: plan.protocolPlan.sensors.first?.name ?? "", heat: plan.protocolPlan.sensors.isEmpty ? [] : firstHeat,
          deliveredByHour: pooled.deliveredByHour, answeredByHour: pooled.answeredByHour,
          deliveredByDay: pooled.deliveredByDay, answeredByDay: pooled.answeredByDay, bias: biasRow?.mean ?? .nan,
          biasLow: low, biasHigh: high, biasRMSE: pooled.bias.rootMeanSquare, coverage: coverage)
      report.answersPerParticipant = pooled.participantRows.map(\.completed)
      report.scheduledPerParticipant = pooled.participantRows.map(\.scheduled)
      report.byOS = [OperatingSystem.ios, .android].compactMap { os in
        let rows = pooled.participantRows.filter { $0.os == os }
        guard !rows.isEmpty else { return nil }
        let counted = Double(rows.reduce(0) { $0 + $1.counted })
        let answers = AnswersDistribution(rows.map(\.completed), target: plan.protocolPlan.answersTarget)
        return OSResults(
          os: os.rawValue, participants: rows.count, answersMedian: answers.quantile(0.5), shareReachingTarget: answers.shareReaching,
          delivered: counted > 0 ? Double(rows.reduce(0) { $0 + $1.delivered }) / counted : .nan,
          answered: counted > 0 ? Double(rows.reduce(0) { $0 + $1.completed }) / counted : .nan)
      }
      let people = Double(max(pooled.participantRows.count, 1))
      var reached = 0
      report.reachingTargetByDay = pooled.reachedTargetOnDay.map {
        reached += $0
        return Double(reached) / people
      }
      report.scheduled = pooled.scheduled
      report.target = plan.protocolPlan.answersTarget
      report.replications = scenario.replications
      report.rows = rows
      report.answered = pooled.answered
      report.missed = MissReason.allCases.filter { $0 != .none }.map { ($0, pooled.reasonCounts[$0.position]) }
      if let k = plan.protocolPlan.sensors.firstIndex(where: { if case .periodic = $0.kind { true } else { false } }) {
        let t = pooled.tallies.map { $0[k] }
        let hours = t.map(\.hours).reduce(0, +)
        if hours > 0 {
          report.sensorComplete = (plan.protocolPlan.sensors[k].name, Double(t.map(\.comp).reduce(0, +)) / Double(hours))
        }
      }
      reports.append(report)
    }
    for observer in observers { try observer.finish() }
    return Simulated(variants: reports, participantDays: participantDays, events: events)
  }
}
