import Measures
import Schedules
import StudyModel

/// One variant's results: its summary rows (each metric's mean over replications, its
/// spread and intervals: `summary.csv`), looked up by ``Metric``, and the pooled figures the
/// charts draw (intensity, predictability, prompts by hour and day, coverage by device and
/// sensor, answers per participant, misses by reason). What every presenter renders.
public struct VariantResults: Sendable {
  public var name: String
  /// Slot intensities of scheduled and of answered prompts (1 is flat).
  public var intensityScheduled: [Double]
  public var intensityAnswered: [Double]
  /// Predictability of the schedule: bits per signal (as `summary.csv`'s
  /// `bits_per_signal_scheduled`: the mean over replications), forced share, largest hazard
  /// (of the schedule's summary: one replication's, or the replications pooled).
  public var bitsPerSignal: Double
  public var forcedShare: Double
  public var maxHazard: Double
  /// The days the predictability model scored (`predictability_held_out_days`, the mean over
  /// replications), and whether every replication scored enough of them
  /// (`predictability_stable`); when not, the figures are flagged as overstated.
  public var heldOutDays: Int
  public var predictabilityStable: Bool
  /// The first sensor's name, and its collected share by participant and study hour.
  public var heatSensor: String
  public var heat: [[Float]]
  /// Delivered and answered prompts by hour of day and by study day.
  public var deliveredByHour: [Int]
  public var answeredByHour: [Int]
  public var deliveredByDay: [Int]
  public var answeredByDay: [Int]
  /// Sampling bias: mean, 95 % interval, root mean square over participants.
  public var bias: Double
  public var biasLow: Double
  public var biasHigh: Double
  public var biasRMSE: Double
  /// Coverage shares (comp, incomp, loss) by device and sensor.
  public var coverage: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)]
  /// The headline: answers and prompts scheduled per participant (every replication's
  /// participants), prompts scheduled and answered, and unanswered prompts by reason.
  public var answersPerParticipant: [Int] = []
  public var scheduledPerParticipant: [Int] = []
  /// The share of participants whose answers reached the target by the end of each study
  /// day: the share a study of that many days would see, on the same people.
  public var reachingTargetByDay: [Double] = []
  /// The participants by their phone's operating system, in the order iPhone, Android (the
  /// systems the study has): how many, their median answers, the share reaching the target,
  /// and the shares of their prompts delivered and answered.
  public var byOS: [OSResults] = []
  public var scheduled = 0
  public var answered = 0
  public var missed: [(reason: MissReason, count: Int)] = []
  /// The unanswered prompts among those `scheduled` counts, by reason: without the prompts
  /// due after a dropout and those that arrived during another survey (Mappiness' ignored
  /// signals), which are not counted as scheduled.
  /// A prompt pending when its participant dropped out (it expired then, reason
  /// `dropped_out`) was due, and is among them, as `compliance` counts it.
  public var missedOfScheduled: [(reason: MissReason, count: Int)] {
    missed.filter { !Self.notCounted.contains($0.reason) } + (pendingAtDropout > 0 ? [(.droppedOut, pendingAtDropout)] : [])
  }
  /// The prompts left out of `scheduled` (after a dropout, during another survey), by reason.
  public var notScheduled: [(reason: MissReason, count: Int)] {
    missed.filter { Self.notCounted.contains($0.reason) }.map { ($0.reason, $0.reason == .droppedOut ? $0.count - pendingAtDropout : $0.count) }
  }
  /// The prompts pending when their participant dropped out: reason `dropped_out` and counted
  /// as scheduled (their status is not `dropped_out`).
  public var pendingAtDropout = 0
  /// The reasons of prompts left out of `scheduled`.
  public static let notCounted: [MissReason] = [.droppedOut, .busy]
  /// The first periodic sensor's name and its share of participant-hours complete, over
  /// every device (nil without one).
  public var sensorComplete: (sensor: String, comp: Double)?
  /// Whether the variant's people are esmsim's default people (``BetweenStudies/defaultPeople(_:)``):
  /// their answered share is then said with the spread between real studies.
  public var defaultPeople = false
  /// The answers each participant should give (`protocol.answers_target`).
  public var target = ProtocolPlan.defaultAnswersTarget
  /// The replications the pooled counts (participants, prompts, answers) add up over.
  public var replications = 1
  /// " over N replications" when the pooled counts add up several replications, else "".
  public var pooledOver: String { replications > 1 ? " over \(replications) replications" : "" }
  /// The variant's summary rows, in `summary.csv`'s order.
  public var rows: [SummaryRow] = [] {
    didSet { index = Dictionary(rows.enumerated().map { ($1.metric, $0) }, uniquingKeysWith: { a, _ in a }) }
  }
  private var index: [Metric: Int] = [:]

  /// The summary row of `metric`, if the variant has one.
  public subscript(_ metric: Metric) -> SummaryRow? { index[metric].map { rows[$0] } }

  /// `metric`'s mean over replications (nan when the variant has no such row).
  public func mean(_ metric: Metric) -> Double { self[metric]?.mean ?? .nan }

  /// A variant's results, every field set here: its summary `rows` (``SummaryRow/rows(variant:replications:)``),
  /// the replications' accumulators `pooled` in order, the first replication's heat map
  /// `heat`, and `scheduled`, the schedule's summary of a single replication (nil: the
  /// pooled schedule's).
  init(
    name: String, plan: StudyPlan, pooled: StudyAccumulator, rows: [SummaryRow], replications: Int,
    scheduled: ScheduleSummary?, heat: [[Float]]
  ) {
    let s = scheduled ?? pooled.scheduledTimes.summary()
    let sensors = plan.protocolPlan.sensors
    self.name = name
    intensityScheduled = pooled.scheduled > 0 ? s.intensity : []
    intensityAnswered = pooled.answered > 0 ? pooled.answeredTimes.intensity : []
    // The figures summary.csv gives where it has them, so that the report says the same.
    func mean(_ metric: Metric) -> Double? { rows.first { $0.metric == metric }.map(\.mean).flatMap { $0.isFinite ? $0 : nil } }
    bitsPerSignal = mean(.bitsPerSignalScheduled) ?? s.bitsPerSignal
    forcedShare = s.forcedShare
    maxHazard = s.maxHazard
    heldOutDays = mean(.predictabilityHeldOutDays).map { Int($0.rounded()) } ?? s.heldOutDays
    predictabilityStable = mean(.predictabilityStable).map { $0 == 1 } ?? s.predictabilityIsStable
    heatSensor = sensors.first?.name ?? ""
    self.heat = sensors.isEmpty ? [] : heat
    deliveredByHour = pooled.deliveredByHour
    answeredByHour = pooled.answeredByHour
    deliveredByDay = pooled.deliveredByDay
    answeredByDay = pooled.answeredByDay
    // The bias's interval across replications, or from one the interval over participants.
    let biasRow = rows.first { $0.metric == .bias }
    bias = biasRow?.mean ?? .nan
    let acrossReplications = (biasRow?.ciLow ?? .nan).isFinite
    biasLow = (acrossReplications ? biasRow?.ciLow : biasRow?.participantLow) ?? .nan
    biasHigh = (acrossReplications ? biasRow?.ciHigh : biasRow?.participantHigh) ?? .nan
    biasRMSE = mean(.biasRMSE) ?? pooled.bias.rootMeanSquare
    coverage = Self.coverage(plan, pooled)
    answersPerParticipant = pooled.participantRows.map(\.completed)
    scheduledPerParticipant = pooled.participantRows.map(\.scheduled)
    let people = Double(max(pooled.participantRows.count, 1))
    var reached = 0
    reachingTargetByDay = pooled.reachedTargetOnDay.map {
      reached += $0
      return Double(reached) / people
    }
    byOS = Self.byOS(pooled, target: plan.protocolPlan.answersTarget)
    self.scheduled = pooled.scheduled
    answered = pooled.answered
    missed = MissReason.allCases.filter { $0 != .none }.map { ($0, pooled.reasonCounts[$0.position]) }
    pendingAtDropout = pooled.reasonCounts[MissReason.droppedOut.position] - pooled.statusCounts[PromptStatus.droppedOut.position]
    sensorComplete = Self.sensorComplete(plan, pooled)
    target = plan.protocolPlan.answersTarget
    defaultPeople = BetweenStudies.defaultPeople(plan)
    self.replications = replications
    self.rows = rows
    index = Dictionary(rows.enumerated().map { ($1.metric, $0) }, uniquingKeysWith: { a, _ in a })
  }

  /// Comp, Incomp and Loss of the periodic sensors (AWARE-iOS Fig. 9) by device and sensor.
  private static func coverage(
    _ plan: StudyPlan, _ pooled: StudyAccumulator
  ) -> [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)] {
    var out: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)] = []
    for (d, device) in plan.devices.enumerated() {
      for (k, sensor) in plan.protocolPlan.sensors.enumerated() {
        guard case .periodic = sensor.kind else { continue }
        let t = pooled.tallies[d][k]
        guard t.hours > 0 else { continue }
        let n = Double(t.hours)
        out.append((device.profile.name, sensor.name, Double(t.comp) / n, Double(t.incomp) / n, Double(t.loss) / n))
      }
    }
    return out
  }

  /// The participants by operating system, iPhone then Android (those the study has).
  private static func byOS(_ pooled: StudyAccumulator, target: Int) -> [OSResults] {
    [OperatingSystem.ios, .android].compactMap { os in
      let rows = pooled.participantRows.filter { $0.os == os }
      guard !rows.isEmpty else { return nil }
      let counted = Double(rows.reduce(0) { $0 + $1.counted })
      let answers = AnswersDistribution(rows.map(\.completed), target: target)
      return OSResults(
        os: os.rawValue, participants: rows.count, answersMedian: answers.quantile(0.5), shareReachingTarget: answers.shareReaching,
        delivered: counted > 0 ? Double(rows.reduce(0) { $0 + $1.delivered }) / counted : .nan,
        answered: counted > 0 ? Double(rows.reduce(0) { $0 + $1.completed }) / counted : .nan)
    }
  }

  /// The first periodic sensor and its share of participant-hours complete over every device.
  private static func sensorComplete(_ plan: StudyPlan, _ pooled: StudyAccumulator) -> (sensor: String, comp: Double)? {
    let sensors = plan.protocolPlan.sensors
    guard let k = sensors.firstIndex(where: { if case .periodic = $0.kind { true } else { false } }) else { return nil }
    let t = pooled.tallies.map { $0[k] }
    let hours = t.map(\.hours).reduce(0, +)
    return hours > 0 ? (sensors[k].name, Double(t.map(\.comp).reduce(0, +)) / Double(hours)) : nil
  }
}

/// One operating system's participants in a variant (``VariantResults/byOS``).
public struct OSResults: Sendable, Equatable {
  /// `ios` or `android`.
  public var os: String
  public var participants: Int
  public var answersMedian: Double
  public var shareReachingTarget: Double
  public var delivered: Double
  public var answered: Double

  public init(os: String, participants: Int, answersMedian: Double, shareReachingTarget: Double, delivered: Double, answered: Double) {
    self.os = os
    self.participants = participants
    self.answersMedian = answersMedian
    self.shareReachingTarget = shareReachingTarget
    self.delivered = delivered
    self.answered = answered
  }
}
