import Presentation
import Study
import Dispatch
import Foundation
import Measures
import Schedules
import Scenarios
import SimKernel
import StudyModel

/// The interactive planner's work (`esmsim serve`): a scenario's text in, its figures out, in
/// memory. The numbers are those `esmsim run` writes to `summary.csv` for the same text (the
/// same simulation, measured the same way); the charts are report.html's.
public enum Planner {
  /// What one request may ask for.
  public struct Limits: Sendable {
    /// The most participant-days over every variant and replication.
    public var participantDays: Double
    /// The most prompts due over every variant and replication (their most: a follow-up that
    /// cues follow-ups counted at its most a day); by default 50 a participant-day allowed.
    public var prompts: Double
    /// The most bytes of a scenario or an uploaded file.
    public var bytes: Int
    /// The most uploaded files.
    public var files: Int
    /// The most variants (each is simulated, measured and drawn: the page shows two).
    public var variants: Int
    /// The most replications: each has a cost of its own beyond its participant-days (its
    /// measures), so 100,000 one-day replications took a minute within the participant-days.
    public var replications: Int
    /// The most bytes of the files a results archive holds (`esmsim validate`'s estimate): a
    /// 267-byte request for a 1,000 Hz sensor's rows asked for 1.6 GB a participant-day.
    public var resultsBytes: Double

    /// Room for 1,000 participants × 28 days × 2 protocols and a few replications.
    public init(
      participantDays: Double = 200_000, prompts: Double? = nil, bytes: Int = 1_000_000, files: Int = 4, variants: Int = 8,
      replications: Int = 100, resultsBytes: Double = 2e9
    ) {
      self.participantDays = participantDays
      self.prompts = prompts ?? participantDays * 50
      self.bytes = bytes
      self.files = files
      self.variants = variants
      self.replications = replications
      self.resultsBytes = resultsBytes
    }
  }

  /// A request the planner refuses (``PlannerRequest/Refusal``).
  public typealias Refusal = PlannerRequest.Refusal
  /// What the page asks for (``PlannerRequest``).
  public typealias Request = PlannerRequest

  /// Reads a request body (``PlannerRequest/read(_:maxBytes:maxFiles:)``).
  public static func request(json data: Data, limits: Limits) throws(Refusal) -> Request {
    try PlannerRequest.read(data, maxBytes: limits.bytes, maxFiles: limits.files)
  }

  /// Reads the request's scenario as `esmsim run` would (its files only from the upload) and
  /// checks its size against `limits`.
  public static func scenario(_ request: Request, limits: Limits) throws(Refusal) -> Scenario {
    let uploads = request.files.mapValues { Data($0.utf8) }
    let scenario: Scenario
    do {
      scenario = try Readers.scenario(Data(request.scenario.utf8), file: "scenario.yaml", uploads: uploads)
    } catch {
      throw Refusal(description: error.description, kind: .invalid)
    }
    guard scenario.variants.count <= limits.variants else {
      throw Refusal(
        description: "scenario.yaml: variants: \(scenario.variants.count) variants; the planner runs at most \(limits.variants) per change (`esmsim run` takes up to \(ScenarioLimits.variants))",
        kind: .tooLarge)
    }
    guard scenario.replications <= limits.replications else {
      throw Refusal(
        description: "scenario.yaml: replications: \(scenario.replications); the planner runs at most \(limits.replications) per change (`esmsim run` has no such limit)",
        kind: .tooLarge)
    }
    let estimate = WorkEstimate(scenario, threads: 1)
    let days = estimate.participantDays
    guard days <= limits.participantDays else {
      throw Refusal(
        description: "scenario.yaml: \(Int(days)) participant-days over every variant and replication; the planner runs at most "
          + "\(Int(limits.participantDays)) per change (fewer participants, days or replications; `esmsim run` has no such limit)",
        kind: .tooLarge)
    }
    guard estimate.prompts <= limits.prompts else {
      throw Refusal(
        description: "scenario.yaml: up to \(Int(estimate.prompts)) prompts over every variant and replication; the planner runs at most "
          + "\(Int(limits.prompts)) per change (fewer prompts a day, follow-ups or participants; `esmsim run` has no such limit)",
        kind: .tooLarge)
    }
    return scenario
  }

  /// Bits per signal: a chart of the variants (two or more) and the table with the held-out days.
  static func predictability(_ reports: [VariantResults]) -> String {
    guard reports.contains(where: { !$0.intensityScheduled.isEmpty }) else { return "" }
    return (reports.count > 1 ? Report.predictabilityChart(reports) : "") + "<figure><figcaption>Predictability</figcaption>"
      + Report.predictabilityDays(reports) + "</figure>"
  }

  /// Simulates `scenario` and returns the page's figures as JSON; `shouldStop` is polled
  /// between participants (a server shutting down cancels the simulation).
  public static func run(
    _ scenario: Scenario, participant: Int = 0, truth: Bool = false, threads: Int = 2,
    shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws -> JSONValue {
    var scenario = scenario
    scenario.outputs.heatHours = 0
    let start = DispatchTime.now()
    // The answers by hour of the day, for the teaching page's answered picture.
    let byHour = AnsweredStateByHour(variants: truth ? scenario.variants.count : 0)
    let sim = try StudySimulation.simulate(
      scenario, options: StudySimulation.Options(threads: threads), observers: truth ? [byHour] : [], shouldStop: shouldStop)
    let answeredByHour = byHour.sums
    let window = scenario.variants.first?.plan.typicalSamplingWindow() ?? Block(start: 0, end: 1440)
    let reports = sim.variants
    let axes = Report.answerAxes(reports)
    let top = Report.intensityTop(reports)
    var variants: [JSONValue] = []
    for (k, v) in reports.enumerated() {
      let plan = scenario.variants[k].plan
      let who = min(participant, max(plan.participants - 1, 0))
      let number: (Metric) -> JSONValue = { .finite(v.mean($0)) }
      variants.append(
        .object([
          ("name", .string(Labels.variant(v.name))),
          ("answers_median", number(.answersPerParticipantMedian)),
          ("answers_p10", number(.answersPerParticipantP10)),
          ("answers_p90", number(.answersPerParticipantP90)),
          ("share_reaching_target", number(.shareReachingTarget)),
          ("target", .int(v.target)),
          ("delivered_share", number(.deliveredShare)),
          ("compliance", number(.compliance)),
          ("bits_per_signal", number(.bitsPerSignalScheduled)),
          ("bias", .finite(v.bias)), ("bias_low", .finite(v.biasLow)), ("bias_high", .finite(v.biasHigh)),
          ("scheduled", .int(v.scheduled)), ("answered", .int(v.answered)),
          ("missed", .object(v.missed.filter { $0.count > 0 }.map { ($0.reason.rawValue, .int($0.count)) })),
          ("headline", .string(Report.headline(v))),
          ("answers_chart", .string(Report.answersHistogram(v, maxAnswers: axes.maxAnswers, maxShare: axes.maxShare))),
          ("fate_chart", .string(Report.lossBars(v))),
          ("reaching_chart", .string(Report.reachingByDay(v))),
          ("os_split", .string(Report.osSplit(v))),
          ("reaching_by_day", .array(v.reachingTargetByDay.map { .finite($0) })),
          ("uniformity_chart", .string(v.intensityScheduled.isEmpty ? "" : Report.intensityChart(v, window: (window.start, window.length), top: top))),
          ("week", .string(WeekCalendar.svg(plan: plan, seed: scenario.seed, participant: who))),
          ("truth_chart", .string(truth ? TruthChart.svg(v, plan: plan, seed: scenario.seed, answered: answeredByHour[k]) : "")),
        ]))
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e6
    return .object([
      ("ok", .bool(true)),
      ("name", .string(scenario.name)),
      ("participant_days", .number(sim.participantDays)),
      ("milliseconds", .number((elapsed * 10).rounded() / 10)),
      ("warnings", .array(scenario.warnings.map { .string($0.description) })),
      ("variants", .array(variants)),
      ("predictability_chart", .string(predictability(reports))),
      ("bias_chart", .string(reports.contains { !$0.intensityScheduled.isEmpty } ? Report.biasChart(reports) : "")),
      ("coverage_table", .string(reports.contains { !$0.coverage.isEmpty } ? Report.coverageTable(reports) : "")),
    ])
  }
}

/// The reported state of answered prompts by hour of the day, per variant (the teaching
/// page's answered picture).
final class AnsweredStateByHour: StudyObserver {
  var sums: [[(sum: Double, n: Int)]]
  init(variants: Int) { sums = Array(repeating: Array(repeating: (0, 0), count: 24), count: variants) }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication: Int) throws {
    for p in o.prompts where p.status == .answered && p.reported.isFinite {
      let h = Int((p.opened % Tick.day) / Tick.hour)
      sums[v][h].sum += p.reported
      sums[v][h].n += 1
    }
  }
}
