import Measures
import SimKernel
import StudyModel

/// The summary metrics of one replication of one variant, by name (the rows of
/// `summary.csv`; documented in `docs/outputs.md`).
public enum Metrics {
  /// Names and values, in a fixed order; the metrics pooled over participants carry their
  /// standard error over participants (``Estimate``), the rest none.
  ///
  /// - Parameter schedules: the accumulator's scheduled and answered ``ScheduleSummary``s when
  ///   already computed (they are the costly part).
  public static func values(
    _ a: StudyAccumulator, schedules: (scheduled: ScheduleSummary, answered: ScheduleSummary)? = nil
  ) -> [(Metric, Estimate)] {
    func share(_ x: Int, _ of: Int) -> Double { of == 0 ? .nan : Double(x) / Double(of) }
    let rows = a.participantRows
    let ratio = ratios(rows)
    let s = schedules?.scheduled ?? a.scheduledTimes.summary()
    let answeredTimes = schedules?.answered ?? a.answeredTimes.summary()
    var out: [(Metric, Estimate)] = [
      (.participants, plain(Double(a.participants))),
      (.signalsPerDay, plain(a.participantDays > 0 ? Double(a.scheduled) / a.participantDays : .nan)),
      (.signalsPerDaySD, plain(perDaySD(rows.map(\.prompts)))),
      (.deliveredShare, ratio(\.delivered, \.counted)),
      (.compliance, ratio(\.completed, \.counted)),
      (.responseRate, ratio(\.completed, \.delivered)),
      (.answersReceivedShare, plain(share(a.answersReceived, a.answered))),
      (.medianLatency, plain(a.latency.quantile(0.5))),
      (.completedOnceStarted, plain(share(a.answered, a.opened))),
      (.intensityMinScheduled, plain(a.scheduled > 0 ? s.intensityMin : .nan)),
      (.intensityMaxScheduled, plain(a.scheduled > 0 ? s.intensityMax : .nan)),
      (.bitsPerSignalScheduled, plain(s.bitsPerSignal)),
      (.intensityMinAnswered, plain(a.answered > 0 ? answeredTimes.intensityMin : .nan)),
      (.intensityMaxAnswered, plain(a.answered > 0 ? answeredTimes.intensityMax : .nan)),
      (.bitsPerSignalAnswered, plain(answeredTimes.bitsPerSignal)),
      (.predictabilityHeldOutDays, plain(Double(s.heldOutDays))),
      (.predictabilityStable, plain(s.predictabilityIsStable ? 1 : 0)),
    ]
    out += sensorValues(a, rows)
    out += participantValues(a, rows)
    out += questionnaireValues(a, rows)
    return out
  }

  static func plain(_ x: Double) -> Estimate { Estimate(x) }

  /// A ratio of two counts summed over participants, with its standard error over them.
  static func ratios(_ rows: [ParticipantRow]) -> ((ParticipantRow) -> Int, (ParticipantRow) -> Int) -> Estimate {
    { y, x in Estimate.ratio(rows.map { (Double(y($0)), Double(x($0))) }) }
  }

  /// Each sensor's coverage, received share and volume; the valid minutes and hours.
  static func sensorValues(_ a: StudyAccumulator, _ rows: [ParticipantRow]) -> [(Metric, Estimate)] {
    let ratio = ratios(rows)
    var out: [(Metric, Estimate)] = []
    for (k, sensor) in a.plan.protocolPlan.sensors.enumerated() {
      let t = a.tally(sensor: k)
      out += [
        (.coverageComp(sensor.name), ratio({ $0.tallies[k].comp }, { $0.tallies[k].hours })),
        (.coverageIncomp(sensor.name), ratio({ $0.tallies[k].incomp }, { $0.tallies[k].hours })),
        (.coverageLoss(sensor.name), ratio({ $0.tallies[k].loss }, { $0.tallies[k].hours })),
        (.receivedShare(sensor.name), ratio({ $0.tallies[k].received }, { $0.tallies[k].expected })),
        // Volume (AWARE-iOS Table 4's row sizes): what the phone stores and uploads.
        (.rowsPerDay(sensor.name), plain(a.participantDays > 0 ? Double(t.collected) / a.participantDays : .nan)),
        (
          Metric.megabytesPerParticipant(sensor.name),
          plain(a.participants == 0 ? .nan : Double(t.collected) * Double(sensor.bytesPerRow) / 1e6 / Double(a.participants))
        ),
      ]
    }
    if !a.plan.protocolPlan.sensors.isEmpty {
      out += [(.validMinutesRatio, plain(a.yield.minuteRatio)), (.validHoursRatio, plain(a.yield.hourRatio))]
    }
    return out
  }

  /// How different the participants are, what they answer (against the target) and the
  /// answers' bias.
  static func participantValues(_ a: StudyAccumulator, _ rows: [ParticipantRow]) -> [(Metric, Estimate)] {
    // How different the participants are: their answered shares of the prompts due.
    let shares = rows.filter { $0.counted > 0 }.map { Double($0.completed) / Double($0.counted) }
    var spread = Moments()
    for x in shares { spread.add(x) }
    var out: [(Metric, Estimate)] = [
      (.compliancePersonSD, plain(shares.count > 1 ? spread.sd : .nan)),
      (.compliancePersonP10, plain(Estimate.quantile(shares, 0.1))),
      (.compliancePersonMin, plain(shares.min() ?? .nan)),
    ]
    // Answers per participant: what planners size a study by (every participant, dropouts too).
    let answers = rows.map { Double($0.completed) }
    let distribution = AnswersDistribution(rows.map(\.completed), target: a.plan.protocolPlan.answersTarget)
    out += [
      (.bias, Estimate(a.bias)),
      (.biasRMSE, plain(a.bias.rootMeanSquare)),
      (.esmMean, Estimate(a.reportedMeans)),
      (.trueMean, Estimate(a.trueMeans)),
      (.dropoutShare, .mean(rows.map { $0.droppedOut ? 1 : 0 })),
      (.volunteeredPerParticipant, .mean(rows.map { Double($0.volunteered) })),
      (.answersPerParticipant, .mean(answers)),
      (.answersPerParticipantP10, plain(distribution.quantile(0.1))),
      (.answersPerParticipantMedian, plain(distribution.quantile(0.5))),
      (.answersPerParticipantP90, plain(distribution.quantile(0.9))),
      (.shareReachingTarget, .mean(distribution.reachingIndicators)),
    ]
    return out
  }

  /// Each questionnaire apart, when there are several.
  static func questionnaireValues(_ a: StudyAccumulator, _ rows: [ParticipantRow]) -> [(Metric, Estimate)] {
    let names = a.plan.protocolPlan.questionnaires
    guard names.count > 1 else { return [] }
    let ratio = ratios(rows)
    var out: [(Metric, Estimate)] = []
    for (q, name) in names.enumerated() {
      let tallies = rows.map { $0.questionnaires[q] }
      let counted = tallies.reduce(0) { $0 + $1.counted }
      out += [
        (Metric.signalsPerDay.of(questionnaire: name), plain(a.participantDays > 0 ? Double(counted) / a.participantDays : .nan)),
        (Metric.signalsPerDaySD.of(questionnaire: name), plain(perDaySD(tallies))),
        (Metric.deliveredShare.of(questionnaire: name), ratio({ $0.questionnaires[q].delivered }, { $0.questionnaires[q].counted })),
        (Metric.compliance.of(questionnaire: name), ratio({ $0.questionnaires[q].completed }, { $0.questionnaires[q].counted })),
        (Metric.answersPerParticipant.of(questionnaire: name), .mean(tallies.map { Double($0.completed) })),
      ]
    }
    return out
  }

  /// The standard deviation of the prompts a day over every enrolled participant-day (how
  /// much event-contingent prompting varies from day to day and person to person), from the
  /// tallies' exact integer sums.
  static func perDaySD(_ tallies: [QuestionnaireTally]) -> Double {
    let n = tallies.reduce(0) { $0 + $1.days }
    guard n > 1 else { return .nan }
    let sum = Double(tallies.reduce(0) { $0 + $1.perDaySum })
    let squares = Double(tallies.reduce(0) { $0 + $1.perDaySquares })
    return max((squares - sum * sum / Double(n)) / Double(n - 1), 0).squareRoot()
  }
}

/// One row of `summary.csv`: a metric's mean over replications with its spread and 95 %
/// interval across them (from 3 replications), and the 95 % interval over participants
/// (from one replication on), for the metrics pooled over participants; a share's
/// intervals stay in [0, 1] (``AcrossReplications`` says how).
public struct SummaryRow: Sendable, Equatable {
  public var variant: String
  public var metric: Metric
  public var mean: Double
  public var sd: Double
  public var ciLow: Double
  public var ciHigh: Double
  public var n: Int
  /// The interval over participants (nan for a metric not pooled over participants).
  public var participantLow: Double
  public var participantHigh: Double

  /// The rows of one variant from each replication's values (replications with a
  /// non-number for a metric do not count towards it).
  public static func rows(variant: String, replications: [[(Metric, Estimate)]]) -> [SummaryRow] {
    guard let first = replications.first else { return [] }
    return first.indices.map { k in
      let a = AcrossReplications(replications.map { $0[k].1 }, share: first[k].0.isShare, nonNegative: !first[k].0.isSigned)
      return SummaryRow(
        variant: variant, metric: first[k].0, mean: a.mean, sd: a.sd, ciLow: a.low, ciHigh: a.high, n: a.count,
        participantLow: a.participantLow, participantHigh: a.participantHigh)
    }
  }
}
