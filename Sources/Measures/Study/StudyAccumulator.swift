import Schedules
import SimKernel
import StudyModel

/// Everything measured over the participants of one variant in one replication: streaming
/// and mergeable, so that participants simulated on different threads pool into the same
/// result when merged in participant order.
///
/// Memory does not grow with participants × days: per-prompt values are counted, latency
/// goes into a histogram, and the Kolmogorov–Smirnov sample and the predictability model use
/// only the first ``detailParticipants`` participants (decided by participant index, so the
/// result does not depend on how participants are grouped), and no more of them than
/// ``detailParticipantDays`` allows.
public struct StudyAccumulator: Sendable {
  /// The plan measured.
  public let plan: StudyPlan
  /// Participants whose days feed the KS sample and the predictability model.
  public let detailParticipants: Int
  /// At most this many participant-days feed the KS sample and the predictability model
  /// (a year-long study uses its first 273 participants): enough for both measures, and
  /// their cost stays bounded however long the study.
  public static let detailParticipantDays = 100_000
  /// Participants in the heat map.
  public let heatParticipants: Int

  /// Participants counted.
  public private(set) var participants = 0
  /// Participants who dropped out.
  public private(set) var droppedOut = 0
  /// Participants for whom no schedule could be drawn in their window.
  public private(set) var scheduleFailures = 0
  /// Participant-days in the study (enrolled).
  public var participantDays: Double { Double(enrolledMilliseconds) / Double(Tick.day) }
  /// The participants' time in the study, summed exactly.
  public private(set) var enrolledMilliseconds: SimTime = 0
  /// Events the participants' simulations handled.
  public private(set) var events = 0

  /// Prompts by final status (``PromptStatus/allCases`` order).
  public private(set) var statusCounts = [Int](repeating: 0, count: PromptStatus.allCases.count)
  /// Prompts by reason (``MissReason/allCases`` order).
  public private(set) var reasonCounts = [Int](repeating: 0, count: MissReason.allCases.count)
  /// Prompts scheduled, delivered, answered, and answers received by the server.
  public private(set) var scheduled = 0
  public private(set) var delivered = 0
  public private(set) var answered = 0
  public private(set) var answersReceived = 0
  /// Prompts opened (answered, broken off, or expired while being answered).
  public private(set) var opened = 0
  /// Volunteered answers (excluded from analysis).
  public private(set) var volunteered = 0
  /// Seconds from delivery to opening, answered prompts.
  /// Seconds to submission: 1 s bins up to 4 hours, then minutes up to 31 days (an answer
  /// window can be 30 days long).
  public private(set) var latency = Histogram(binWidth: 1, bins: 4 * 3600, coarseWidth: 60, coarseBins: 31 * 24 * 60)
  /// Delivered and answered prompts by hour of day of delivery, and by study day.
  public private(set) var deliveredByHour = [Int](repeating: 0, count: 24)
  public private(set) var answeredByHour = [Int](repeating: 0, count: 24)
  public private(set) var deliveredByDay: [Int]
  public private(set) var answeredByDay: [Int]
  /// Participants whose answers reached `protocol.answers_target` on each study day (by the
  /// day's end, summed: the share reaching it in a study of that many days, the same people).
  public private(set) var reachedTargetOnDay: [Int]
  /// Uniformity and predictability of scheduled and of answered prompts.
  public private(set) var scheduledTimes: ScheduleMeasures
  public private(set) var answeredTimes: ScheduleMeasures

  /// Sensor tallies by device profile (outer) and sensor (inner).
  public private(set) var tallies: [[SensorTally]]
  /// RAPIDS data yield.
  public private(set) var yield = DataYield()

  /// Per participant with at least one analysed answer: mean reported state minus the true
  /// waking mean (the sampling bias). Computed from the participant rows in participant
  /// order, so that it does not depend on how participants were grouped and merged.
  public var bias: Moments { overAnswering { $0.reportedMean - $0.trueMean } }
  /// Reported means and true means, over the same participants.
  public var reportedMeans: Moments { overAnswering(\.reportedMean) }
  public var trueMeans: Moments { overAnswering(\.trueMean) }

  func overAnswering(_ value: (ParticipantRow) -> Double) -> Moments {
    var m = Moments()
    for r in participantRows where r.completed > 0 && r.reportedMean.isFinite && r.trueMean.isFinite { m.add(value(r)) }
    return m
  }

  /// One row per participant: Mappiness' participant statistics and the bias.
  public private(set) var participantRows: [ParticipantRow] = []
  /// The heat map: the first sensor's collected share by participant (first participants)
  /// and study hour.
  public private(set) var heat: [[Float]] = []

  /// The questionnaire of each schedule, when the study has more than one (else empty), and
  /// how many there are.
  let questionnaireOfSchedule: [Int]
  let questionnaireCount: Int

  /// Creates an empty accumulator.
  public init(plan: StudyPlan, detailParticipants: Int = 2_000, heatParticipants: Int = 40) {
    self.plan = plan
    questionnaireCount = plan.protocolPlan.questionnaires.count
    questionnaireOfSchedule = questionnaireCount > 1 ? plan.protocolPlan.questionnaireOfSchedule : []
    self.detailParticipants = min(detailParticipants, max(1, Self.detailParticipantDays / max(plan.days, 1)))
    self.heatParticipants = heatParticipants
    deliveredByDay = Array(repeating: 0, count: plan.days)
    answeredByDay = Array(repeating: 0, count: plan.days)
    reachedTargetOnDay = Array(repeating: 0, count: plan.days)
    let reference = plan.referenceSamplingMinutes
    scheduledTimes = ScheduleMeasures(referenceMinutes: reference)
    answeredTimes = ScheduleMeasures(referenceMinutes: reference)
    tallies = Array(
      repeating: Array(repeating: SensorTally(), count: plan.protocolPlan.sensors.count), count: plan.devices.count)
  }

  /// Counts one participant.
  public mutating func add(_ o: ParticipantOutcome) {
    participants += 1
    if o.enrolledUntil < SimTime(plan.days) * Tick.day { droppedOut += 1 }
    if o.scheduleFailed { scheduleFailures += 1 }
    enrolledMilliseconds += o.enrolledUntil
    events += o.events
    let detailed = o.participant < detailParticipants
    var reports = Moments()
    var latencies: [Double] = []
    latencies.reserveCapacity(o.prompts.count)
    var signals = 0
    // The prompts over all schedules and by questionnaire, with the prompts of each enrolled day.
    let enrolledDays = Int(o.enrolledUntil / Tick.day)
    var all = QuestionnaireTally(days: enrolledDays)
    var byQuestionnaire = Array(repeating: all, count: questionnaireOfSchedule.isEmpty ? 0 : questionnaireCount)
    for p in o.prompts {
      statusCounts[p.status.position] += 1
      reasonCounts[p.reason.position] += 1
      if p.status != .ignored && p.delivered >= 0 { signals += 1 }
      // Mappiness does not count ignored signals; prompts after a dropout were never due.
      if p.status == .ignored || p.status == .droppedOut { continue }
      scheduled += 1
      all.add(p)
      if !byQuestionnaire.isEmpty { byQuestionnaire[questionnaireOfSchedule[p.schedule]].add(p) }
      if p.delivered >= 0 {
        delivered += 1
        let hour = Int((p.delivered % Tick.day) / Tick.hour)
        deliveredByHour[hour] += 1
        deliveredByDay[min(p.day, plan.days - 1)] += 1
        if p.status == .answered {
          answeredByHour[hour] += 1
          answeredByDay[min(p.day, plan.days - 1)] += 1
        }
      }
      if p.opened >= 0 { opened += 1 }
      if p.status == .answered {
        answered += 1
        if reports.count + 1 == plan.protocolPlan.answersTarget { reachedTargetOnDay[min(p.day, plan.days - 1)] += 1 }
        if p.received { answersReceived += 1 }
        latency.add(p.responseSeconds)
        latencies.append(p.responseSeconds)
        reports.add(p.reported)
      }
    }
    all.endDay()
    for q in byQuestionnaire.indices { byQuestionnaire[q].endDay() }
    volunteered += o.volunteered.count
    if let windows = o.samplingWindows {
      addTimes(o.prompts, windows: windows, joinDay: o.joinDay, detailed: detailed)
    }
    for (k, t) in o.tallies.enumerated() { tallies[o.device][k].add(t) }
    yield.add(o.yield)
    participantRows.append(
      ParticipantRow(
        participant: o.participant, device: o.device, os: o.os, scheduled: o.prompts.count, signals: signals,
        completed: reports.count, volunteered: o.volunteered.count,
        responseRate: all.counted == 0 ? .nan : Double(reports.count) / Double(all.counted),
        medianResponseSeconds: Moments.median(selecting: &latencies),
        reportedMean: reports.count > 0 ? reports.mean : .nan, trueMean: o.trueMean,
        droppedOut: o.enrolledUntil < SimTime(plan.days) * Tick.day, tallies: o.tallies, prompts: all,
        questionnaires: byQuestionnaire))
    if o.participant < heatParticipants { heat.append(o.heat) }
  }

  /// Feeds each study day's scheduled and answered prompt times to the uniformity and
  /// predictability measures, normalised to that day's sampling window.
  mutating func addTimes(_ prompts: [PromptRecord], windows: (weekday: Block, weekend: Block), joinDay: Int, detailed: Bool) {
    // Each day's times are written to one buffer a participant, its scheduled times in the
    // first half and its answered ones in the second: appended to arrays, each was checked
    // that the array was not shared (230,000 checks on the city workload).
    let n = prompts.count
    withUnsafeTemporaryAllocation(of: Double.self, capacity: 2 * n) { buffer in
      var i = 0
      for d in 0..<plan.days {
        let window = plan.isWeekend(joinDay + d) ? windows.weekend : windows.weekday
        let origin = Double(d) * 1440
        var (scheduledCount, answeredCount) = (0, 0)
        while i < prompts.count && prompts[i].day == d {
          let p = prompts[i]
          let minute = Double(p.scheduled) / Double(Tick.minute) - origin
          if p.status != .ignored {
            buffer[scheduledCount] = minute
            scheduledCount += 1
          }
          if p.status == .answered {
            buffer[n + answeredCount] = minute
            answeredCount += 1
          }
          i += 1
        }
        while i < prompts.count && prompts[i].day < d { i += 1 }
        var dayScheduled = UnsafeMutableBufferPointer(rebasing: buffer[..<scheduledCount])
        // The prompts of a day come in time order unless several schedules share it.
        if zip(dayScheduled, dayScheduled.dropFirst()).contains(where: { $1 < $0 }) { dayScheduled.sort() }
        let dayAnswered = UnsafeBufferPointer(rebasing: buffer[n..<(n + answeredCount)])
        scheduledTimes.add(day: d, times: UnsafeBufferPointer(dayScheduled), sampling: window, detailed: detailed)
        answeredTimes.add(day: d, times: dayAnswered, sampling: window, detailed: detailed)
      }
    }
  }

  /// Pools another accumulator (the next participants in order) into this one.
  public mutating func merge(_ o: StudyAccumulator) {
    participants += o.participants
    droppedOut += o.droppedOut
    scheduleFailures += o.scheduleFailures
    enrolledMilliseconds += o.enrolledMilliseconds
    events += o.events
    for k in statusCounts.indices { statusCounts[k] += o.statusCounts[k] }
    for k in reasonCounts.indices { reasonCounts[k] += o.reasonCounts[k] }
    scheduled += o.scheduled
    delivered += o.delivered
    answered += o.answered
    answersReceived += o.answersReceived
    opened += o.opened
    volunteered += o.volunteered
    latency.merge(o.latency)
    for h in 0..<24 {
      deliveredByHour[h] += o.deliveredByHour[h]
      answeredByHour[h] += o.answeredByHour[h]
    }
    for d in deliveredByDay.indices {
      deliveredByDay[d] += o.deliveredByDay[d]
      answeredByDay[d] += o.answeredByDay[d]
      reachedTargetOnDay[d] += o.reachedTargetOnDay[d]
    }
    scheduledTimes.merge(o.scheduledTimes)
    answeredTimes.merge(o.answeredTimes)
    for d in tallies.indices { for k in tallies[d].indices { tallies[d][k].add(o.tallies[d][k]) } }
    yield.add(o.yield)
    participantRows += o.participantRows
    heat += o.heat.prefix(max(heatParticipants - heat.count, 0))
  }

  /// A sensor's tally over every device.
  public func tally(sensor k: Int) -> SensorTally {
    var t = SensorTally()
    for d in tallies.indices { t.add(tallies[d][k]) }
    return t
  }
}

/// One participant's row: Mappiness' participant statistics (assessments completed, response
/// rate = signalled responses / signals sent, as Mappiness' main screen shows it [@MacKerron2012];
/// "typical" = median response time) and the bias of their answers.
public struct ParticipantRow: Sendable, Equatable {
  public var participant: Int
  public var device: Int
  public var os: OperatingSystem
  public var scheduled: Int
  public var signals: Int
  public var completed: Int
  public var volunteered: Int
  public var responseRate: Double
  public var medianResponseSeconds: Double
  public var reportedMean: Double
  public var trueMean: Double
  public var droppedOut: Bool
  /// The sensors' tallies of this participant, in the protocol's order.
  public var tallies: [SensorTally]
  /// The prompts counted in compliance over every schedule (not ignored, not after a dropout).
  public var prompts: QuestionnaireTally
  /// Each questionnaire's prompts, when the study has more than one (else empty).
  public var questionnaires: [QuestionnaireTally]
  /// The prompts counted in compliance, and those delivered.
  public var counted: Int { prompts.counted }
  public var delivered: Int { prompts.delivered }
}

/// One participant's prompts of one questionnaire (or of all): counted (as in compliance),
/// delivered, answered, and the prompts counted on each enrolled day (their sum and sum of
/// squares, in integers, so that pooling over participants is exact in any grouping).
public struct QuestionnaireTally: Sendable, Equatable {
  public var counted = 0
  public var delivered = 0
  public var completed = 0
  /// Enrolled days, and the sum and sum of squares of the day's prompts over them.
  public var days: Int
  public var perDaySum = 0
  public var perDaySquares = 0
  /// The day being counted and its prompts so far (prompts come in day order, so each day's
  /// count is a run; days without prompts add nothing to the sums).
  private var day = -1
  private var today = 0

  /// A tally over `days` enrolled days.
  public init(days: Int) { self.days = days }

  /// Counts a prompt due (in day order).
  mutating func add(_ p: PromptRecord) {
    counted += 1
    if p.delivered >= 0 { delivered += 1 }
    if p.status == .answered { completed += 1 }
    guard p.day < days else { return }
    if p.day != day {
      endDay()
      day = p.day
    }
    today += 1
  }

  /// Adds the current day's count to the sums.
  mutating func endDay() {
    perDaySum += today
    perDaySquares += today * today
    today = 0
  }
}
