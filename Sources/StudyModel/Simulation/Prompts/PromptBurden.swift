import SimKernel

/// What answering costs the participant (``Compliance/Burden``): each schedule's survey
/// length, in items and in median answering minutes, whether it comes at a fixed time, and
/// the load of prompts noticed shortly before (each adds one, decaying with
/// ``CompliancePlan/densityWindow``).
struct PromptBurden {
  /// Each schedule's survey: items, median answering time (minutes), the length's factor on
  /// the odds of answering.
  let items: [Int]
  let minutes: [Double]
  let lengthOdds: [Double]
  /// Each schedule's median answering time.
  private let medians: [SimTime]
  /// A careless person's prompts answered too fast (nil: none), and each schedule's median
  /// answering time then (`careless.seconds_per_item` an item).
  private let careless: Careless?
  private let fastMedians: [SimTime]
  /// Each schedule's prompts come at fixed times of day.
  let scheduled: [Bool]
  /// The person's log-odds of answering on each study day (level and change,
  /// ``Engagement/change(day:onset:scale:)``), worked out once.
  let dayLogits: [Double]
  /// Each day's odds, e^``dayLogits``: one `exp` a day, not one a prompt.
  private let dayOddsByDay: [Double]
  /// The density load and when it was last brought up to date.
  private var load = 0.0
  private var loadAt: SimTime = 0
  private let window: Double
  private let densityEffect: Double
  private let scheduledBoost: Double

  /// A load left this many windows without a new prompt is taken as gone (e^−8: numerical).
  static let forgetAfter = 8.0

  init(_ plan: StudyPlan, engagement: Engagement, careless: Careless? = nil) {
    let proto = plan.protocolPlan
    let c = plan.compliance
    densityEffect = c.densityEffect
    scheduledBoost = c.scheduledBoost
    // Volunteered answers open the protocol's own survey (schedule 0, or the only one).
    items = proto.schedules.isEmpty ? [proto.survey.length] : proto.schedules.indices.map { proto.survey(ofSchedule: $0).length }
    minutes = items.map { (Tick.inSeconds(c.completion) + Double(max($0 - 1, 0)) * c.secondsPerItem) / 60 }
    lengthOdds = minutes.map { Compliance.Burden.lengthOdds(c, minutes: $0) }
    medians = minutes.map { Tick.seconds($0 * 60) }
    self.careless = careless
    let fast = plan.answers.careless.secondsPerItem ?? 0
    fastMedians = careless == nil ? [] : items.map { Tick.seconds(Double($0) * fast) }
    scheduled = proto.schedules.isEmpty ? [false] : proto.schedules.map { $0.choice?.algorithm == .fixedTimes }
    dayLogits = (0..<max(plan.days, 1)).map {
      engagement.logitLevel + engagement.change(day: $0, onset: c.firstDaysOnset, scale: c.firstDaysScale)
    }
    dayOddsByDay = dayLogits.map { exp($0) }
    window = Double(c.densityWindow)
  }

  /// The median answering time of schedule `k`'s survey; of prompt `i` (its index), too fast
  /// when the person answers it carelessly.
  func completionMedian(_ k: Int, prompt i: Int? = nil) -> SimTime {
    if let careless, let i, careless.prompt(i) { return fastMedians[min(k, fastMedians.count - 1)] }
    return medians[min(k, medians.count - 1)]
  }

  /// The person's log-odds of answering on study day `d`.
  func dayLogit(_ d: Int) -> Double { dayLogits[min(max(d, 0), dayLogits.count - 1)] }

  /// The person's odds of answering on study day `d`, e^``dayLogit(_:)``.
  func dayOdds(_ d: Int) -> Double { dayOddsByDay[min(max(d, 0), dayOddsByDay.count - 1)] }

  /// The load at `t`, decayed from the last prompt noticed.
  private func load(at t: SimTime) -> Double {
    guard load > 0, window > 0 else { return 0 }
    let gone = Double(t - loadAt) / window
    return gone > Self.forgetAfter ? 0 : load * exp(-gone)
  }

  /// The burden of a prompt of schedule `k` noticed at `t`, before it adds to the load.
  func burden(schedule k: Int, at t: SimTime) -> Compliance.Burden {
    burden(schedule: k, load: load(at: t))
  }

  private func burden(schedule k: Int, load: Double) -> Compliance.Burden {
    Compliance.Burden(
      lengthOdds: lengthOdds[k], load: load, scheduled: scheduled[k], densityEffect: densityEffect,
      scheduledBoost: scheduledBoost)
  }

  /// A prompt noticed at `t` adds one to the load.
  mutating func noticed(at t: SimTime) {
    load = load(at: t) + 1
    loadAt = t
  }

  /// The burden of a prompt of schedule `k` noticed at `t` (``burden(schedule:at:)``); a
  /// first notice (not a reminder) then adds one to the load (``noticed(at:)``), the load
  /// decayed once for both.
  mutating func notice(schedule k: Int, at t: SimTime, reminded: Bool) -> Compliance.Burden {
    let now = load(at: t)
    if !reminded {
      load = now + 1
      loadAt = t
    }
    return burden(schedule: k, load: now)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
