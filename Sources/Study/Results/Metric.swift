/// A figure of a study's results: one row of `summary.csv` per variant, named there by
/// ``name`` (documented in `docs/outputs.md`). Presenters (the report, the planner, the
/// console, sweeps) ask for figures by these values, never by their text, so a renamed
/// metric breaks at compile time.
public struct Metric: Hashable, Sendable, CustomStringConvertible {
  /// The name in `summary.csv`, `summary.json`, SQLite and sweep units.
  public let name: String
  /// A share (a value in [0, 1]): its intervals stay in [0, 1] (``AcrossReplications``).
  public let isShare: Bool

  /// A metric read back by its name (a sweep's unit files), or named here.
  public init(name: String, isShare: Bool = false) {
    self.name = name
    self.isShare = isShare
  }

  /// A share's metric.
  static func share(_ name: String) -> Metric { Metric(name: name, isShare: true) }

  /// Whether the figure can be below 0: only the sampling bias. Every other figure is a
  /// share, a count, seconds, an sd, bits, an intensity or a mean of the 0–100 state, and its
  /// intervals are cut at 0 (by name, so that a sweep's units read back the same).
  public var isSigned: Bool { name == "bias" }

  public var description: String { name }
  public static func == (a: Metric, b: Metric) -> Bool { a.name == b.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }

  // Prompts and answers.
  public static let participants = Metric(name: "participants")
  public static let signalsPerDay = Metric(name: "signals_per_day")
  public static let signalsPerDaySD = Metric(name: "signals_per_day_sd")
  public static let deliveredShare = share("delivered_share")
  public static let compliance = share("compliance")
  public static let responseRate = share("response_rate")
  public static let answersReceivedShare = share("answers_received_share")
  public static let medianLatency = Metric(name: "median_latency_s")
  /// Answered prompts among those opened: what "completed once started" counts.
  public static let completedOnceStarted = share("completed_once_started")
  /// The spread of the participants' answered shares (sd, tenth percentile, lowest).
  public static let compliancePersonSD = Metric(name: "compliance_person_sd")
  public static let compliancePersonP10 = share("compliance_person_p10")
  public static let compliancePersonMin = share("compliance_person_min")
  // The schedule: uniformity and predictability.
  public static let intensityMinScheduled = Metric(name: "intensity_min_scheduled")
  public static let intensityMaxScheduled = Metric(name: "intensity_max_scheduled")
  public static let bitsPerSignalScheduled = Metric(name: "bits_per_signal_scheduled")
  public static let intensityMinAnswered = Metric(name: "intensity_min_answered")
  public static let intensityMaxAnswered = Metric(name: "intensity_max_answered")
  public static let bitsPerSignalAnswered = Metric(name: "bits_per_signal_answered")
  public static let predictabilityHeldOutDays = Metric(name: "predictability_held_out_days")
  public static let predictabilityStable = share("predictability_stable")
  // Passive data.
  public static let validMinutesRatio = share("valid_minutes_ratio")
  public static let validHoursRatio = share("valid_hours_ratio")
  // The state the prompts measure.
  public static let bias = Metric(name: "bias")
  public static let biasRMSE = Metric(name: "bias_rmse")
  public static let esmMean = Metric(name: "esm_mean")
  public static let trueMean = Metric(name: "true_mean")
  // Participants.
  public static let dropoutShare = share("dropout_share")
  public static let volunteeredPerParticipant = Metric(name: "volunteered_per_participant")
  public static let answersPerParticipant = Metric(name: "answers_per_participant")
  public static let answersPerParticipantP10 = Metric(name: "answers_per_participant_p10")
  public static let answersPerParticipantMedian = Metric(name: "answers_per_participant_median")
  public static let answersPerParticipantP90 = Metric(name: "answers_per_participant_p90")
  public static let shareReachingTarget = share("share_reaching_answers_target")

  // Each sensor's.
  public static func coverageComp(_ sensor: String) -> Metric { share("coverage_comp_\(sensor)") }
  public static func coverageIncomp(_ sensor: String) -> Metric { share("coverage_incomp_\(sensor)") }
  public static func coverageLoss(_ sensor: String) -> Metric { share("coverage_loss_\(sensor)") }
  public static func receivedShare(_ sensor: String) -> Metric { share("received_share_\(sensor)") }
  public static func rowsPerDay(_ sensor: String) -> Metric { Metric(name: "rows_per_day_\(sensor)") }
  public static func megabytesPerParticipant(_ sensor: String) -> Metric { Metric(name: "megabytes_per_participant_\(sensor)") }

  /// `metric` of one questionnaire alone (when a study has several): `compliance_morning`.
  public func of(questionnaire q: String) -> Metric { Metric(name: "\(name)_\(q)", isShare: isShare) }
}
