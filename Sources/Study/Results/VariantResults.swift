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
  /// Predictability of the schedule: bits per signal, forced share, largest hazard.
  public var bitsPerSignal: Double
  public var forcedShare: Double
  public var maxHazard: Double
  /// The days the predictability model scored; below ``ScheduleSummary/stableHeldOutDays``
  /// the figures are flagged as overstated.
  public var heldOutDays: Int
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
  /// The first periodic sensor's name and its share of participant-hours complete, over
  /// every device (nil without one).
  public var sensorComplete: (sensor: String, comp: Double)?
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

  public init(
    name: String, intensityScheduled: [Double], intensityAnswered: [Double], bitsPerSignal: Double, forcedShare: Double,
    maxHazard: Double, heldOutDays: Int, heatSensor: String, heat: [[Float]], deliveredByHour: [Int], answeredByHour: [Int],
    deliveredByDay: [Int], answeredByDay: [Int], bias: Double, biasLow: Double, biasHigh: Double, biasRMSE: Double,
    coverage: [(device: String, sensor: String, comp: Double, incomp: Double, loss: Double)]
  ) {
    self.name = name
    self.intensityScheduled = intensityScheduled
    self.intensityAnswered = intensityAnswered
    self.bitsPerSignal = bitsPerSignal
    self.forcedShare = forcedShare
    self.maxHazard = maxHazard
    self.heldOutDays = heldOutDays
    self.heatSensor = heatSensor
    self.heat = heat
    self.deliveredByHour = deliveredByHour
    self.answeredByHour = answeredByHour
    self.deliveredByDay = deliveredByDay
    self.answeredByDay = answeredByDay
    self.bias = bias
    self.biasLow = biasLow
    self.biasHigh = biasHigh
    self.biasRMSE = biasRMSE
    self.coverage = coverage
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
