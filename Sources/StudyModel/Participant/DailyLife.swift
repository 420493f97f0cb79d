import SimKernel

/// A participant's whole study as days of sleep and waking, and the waking day as a
/// time-of-day-dependent Markov jump process over contexts.
///
/// The day is cut into periods (for example 09:00–17:00 at work); in each period the next
/// context is drawn with probability proportional to share/duration and held for an
/// exponential time with the context's mean duration, so that in the long run each context
/// fills its share of the period. At a period boundary the process redraws from the new
/// period's table (exponential holding times are memoryless, so this is exact). "Commute"
/// is the person's own mode: public transport, partly underground, or driving. The period
/// tables are assumptions (shape: ATUS time use and ACS commuting, `docs/model.md`).
public struct DailyLife: Sendable {
  /// The episodes of the whole study, asleep ones included.
  public var timeline = Timeline()
  /// Wake time of each study day (absolute).
  public var wake: [SimTime] = []
  /// Bedtime of each study day (absolute; may fall after the next midnight).
  public var bed: [SimTime] = []

  /// A period of the day: until `untilMinute` (minutes after midnight), a table of up to
  /// four rows (context, share, mean duration in minutes). Stored inline (no array: a day's
  /// episodes read their period's table without retaining anything).
  struct Period {
    var untilMinute: Double
    /// The rows' contexts (raw values), mean durations in minutes, and cumulative weights
    /// share/duration (the jump chain's choice), in the table's order.
    private var contexts = SIMD4<Int>()
    private var means = SIMD4<Double>()
    private var cumulative = SIMD4<Double>()
    private let rows: Int

    init(untilMinute: Double, table: [(Context, Double, Double)]) {
      precondition((1...4).contains(table.count), "a period's table has one to four rows")
      self.untilMinute = untilMinute
      rows = table.count
      for (i, c) in table.map({ $0.1 / $0.2 }).cumulativeSums.enumerated() {
        contexts[i] = table[i].0.rawValue
        means[i] = table[i].2
        cumulative[i] = c
      }
    }

    /// The next context and its mean duration: row i with probability proportional to its
    /// weight (``RandomStream/index(count:cumulative:)``).
    func next(_ s: inout RandomStream) -> (context: Context, mean: Double) {
      let i = s.index(count: rows) { cumulative[$0] }
      return (Context(rawValue: contexts[i])!, means[i])
    }
  }

  /// A working day's periods; `mode` is the person's way of commuting (transit or driving),
  /// `commute` the mean length of the trips to and from work in minutes.
  static func workday(_ commute: Double, mode: Context) -> [Period] {
    [
      Period(untilMinute: 8 * 60, table: [(.home, 0.883, 60), (mode, 0.10, commute), (.exercise, 0.017, 40)]),
      Period(untilMinute: 9 * 60, table: [(mode, 0.55, commute), (.work, 0.35, 90), (.home, 0.10, 30)]),
      Period(
        untilMinute: 17 * 60,
        table: [(.work, 0.833, 100), (.social, 0.12, 45), (mode, 0.04, 20), (.exercise, 0.007, 45)]),
      Period(
        untilMinute: 18.5 * 60, table: [(mode, 0.45, commute), (.work, 0.20, 40), (.home, 0.25, 60), (.social, 0.10, 60)]),
      Period(
        untilMinute: 48 * 60,
        table: [(.home, 0.767, 90), (.social, 0.15, 90), (.exercise, 0.023, 50), (mode, 0.06, 25)]),
    ]
  }

  /// A free day's periods; `mode` as for ``workday(_:mode:)``.
  static func freeDay(mode: Context) -> [Period] {
    [
      Period(untilMinute: 12 * 60, table: [(.home, 0.797, 90), (mode, 0.08, 25), (.exercise, 0.023, 60), (.social, 0.10, 60)]),
      Period(untilMinute: 18 * 60, table: [(.home, 0.567, 90), (.social, 0.25, 90), (mode, 0.15, 25), (.exercise, 0.033, 60)]),
      Period(untilMinute: 48 * 60, table: [(.home, 0.72, 90), (.social, 0.20, 100), (mode, 0.07, 25), (.exercise, 0.01, 45)]),
    ]
  }

  /// Shortest night the process allows, minutes (assumption).
  static let minimumSleep = 4.0 * 60
  /// Mean length of a dead zone, minutes (assumption).
  static let deadZoneMinutes = 10.0
  /// 1 / (mean length of a dead zone in ticks).
  static let deadZonesPerTick = 1 / (deadZoneMinutes * Double(Tick.minute))

  /// Generates `plan.days` days, or the first `dayCount` of them (a participant who drops out
  /// lives no further in the study), and the night after the last one. Each day draws from
  /// the streams in order, so the days generated do not depend on how many are.
  public init(
    plan: StudyPlan, person: Person, dayCount: Int? = nil, days dayStream: inout RandomStream,
    contexts s: inout RandomStream
  ) {
    let life = plan.dailyLife
    var previousBed: SimTime = 0
    // "Commute" in the tables is the person's own mode.
    let mode: Context = person.usesTransit ? .transit : .driving
    let workday = Self.workday(Tick.inMinutes(life.commute), mode: mode)
    let freeDay = Self.freeDay(mode: mode)
    let days = min(dayCount ?? plan.days, plan.days)
    // About 30 episodes a day with the default tables (measured on the city benchmark); the
    // builder grows past this if need be.
    var episodes = TimelineBuilder(capacity: 32 * days + 2)
    wake.reserveCapacity(days)
    bed.reserveCapacity(days)
    for d in 0..<days {
      let weekend = plan.isWeekend(d)
      let shift = weekend ? Tick.inMinutes(life.weekendShift) : 0
      let midnight = SimTime(d) * Tick.day
      var w = Tick.inMinutes(life.weekdayWake) + person.sleepOffset + shift + dayStream.normal(sd: Tick.inMinutes(life.daySD))
      var b = Tick.inMinutes(life.weekdayBed) + person.sleepOffset + shift + dayStream.normal(sd: Tick.inMinutes(life.daySD))
      w = min(max(w, 3 * 60), 14 * 60)  // keep the day a day: wake between 03:00 and 14:00
      b = min(max(b, w + 10 * 60), w + 21 * 60)
      var wakeT = midnight + Tick.minutes(w)
      if d > 0 { wakeT = max(wakeT, previousBed + Tick.minutes(Self.minimumSleep)) }
      let bedT = max(midnight + Tick.minutes(b), wakeT + Tick.hour)
      // The night before: asleep at home.
      let nightWifi = s.bernoulli(life.conditions[Context.asleep.rawValue].wifi)
      episodes.append(
        Episode(start: previousBed, end: wakeT, context: .asleep, phoneAtHand: false, network: nightWifi ? .wifi : .cellular))
      wake.append(wakeT)
      bed.append(bedT)
      let periods = (weekend || !person.worksOutside) ? freeDay : workday
      Self.wakingDay(from: wakeT, to: bedT, midnight: midnight, periods: periods, life: life, &s, into: &episodes)
      previousBed = bedT
    }
    // The last night, to the end of the study and a day beyond (prompts may wait for a wake).
    let end = max(SimTime(min(dayCount ?? plan.days, plan.days)) * Tick.day + Tick.day, previousBed + Tick.hour)
    episodes.append(Episode(start: previousBed, end: end, context: .asleep, phoneAtHand: false, network: .wifi))
    timeline = episodes.timeline()
  }

  static func wakingDay(
    from wakeT: SimTime, to bedT: SimTime, midnight: SimTime, periods: [Period], life: DailyLifePlan, _ s: inout RandomStream,
    into episodes: inout TimelineBuilder
  ) {
    var t = wakeT
    var p = periods.firstIndex { midnight + Tick.minutes($0.untilMinute) > t } ?? periods.count - 1
    while t < bedT {
      let period = periods[p]
      let periodEnd = min(midnight + Tick.minutes(period.untilMinute), bedT)
      while t < periodEnd {
        let (context, mean) = period.next(&s)
        let length = max(Tick.minutes(s.exponential(mean: mean)), Tick.minute)
        var end = min(t + length, periodEnd)
        if end >= bedT - 5 * Tick.minute { end = bedT }  // no sliver before bedtime
        addEpisode(context, from: t, to: end, life: life, &s, into: &episodes)
        t = end
      }
      if p + 1 < periods.count { p += 1 }
    }
  }

  /// Appends one episode of `context`, with its underground stretch or dead zone if any.
  @inline(__always)
  static func addEpisode(
    _ context: Context, from a: SimTime, to b: SimTime, life: DailyLifePlan, _ s: inout RandomStream,
    into episodes: inout TimelineBuilder
  ) {
    let cond = life.conditions[context.rawValue]
    // The phone at hand, Wi-Fi and a dead zone: three chances from one draw (each in steps of
    // 2⁻²¹; about 30 episodes a day make this one of the commonest draws).
    let (handU, wifiU, deadU) = s.threeCoarseUniforms()
    let atHand = handU < cond.phoneWithParticipant
    let network: Network = wifiU < cond.wifi ? .wifi : .cellular
    let length = b - a
    if context == .transit && s.bernoulli(life.undergroundShare) {
      // An underground stretch covering 30–70 % of the trip, somewhere inside it.
      let under = SimTime(Double(length) * s.uniform(0.3, 0.7))
      let before = SimTime(Double(length - under) * s.uniform())
      let uCond = life.conditions[Context.underground.rawValue]
      let uAtHand = s.bernoulli(uCond.phoneWithParticipant)
      episodes.append(Episode(start: a, end: a + before, context: .transit, phoneAtHand: atHand, network: network))
      episodes.append(
        Episode(start: a + before, end: a + before + under, context: .underground, phoneAtHand: uAtHand, network: .unreachable))
      episodes.append(Episode(start: a + before + under, end: b, context: .transit, phoneAtHand: atHand, network: network))
      return
    }
    // Chance of a dead zone: the share of time in them over their mean length, per tick
    // (multiplied, not divided: two divisions here were a third of this function's time).
    let deadChance = min(1, Double(length) * (life.deadZoneShare * Self.deadZonesPerTick))
    if life.deadZoneShare > 0 && deadU < deadChance {
      let dead = min(Tick.minutes(s.exponential(mean: Self.deadZoneMinutes)), length / 2)
      let start = a + SimTime(Double(length - dead) * s.uniform())
      episodes.append(Episode(start: a, end: start, context: context, phoneAtHand: atHand, network: network))
      episodes.append(Episode(start: start, end: start + dead, context: context, phoneAtHand: atHand, network: .unreachable))
      episodes.append(Episode(start: start + dead, end: b, context: context, phoneAtHand: atHand, network: network))
      return
    }
    episodes.append(Episode(start: a, end: b, context: context, phoneAtHand: atHand, network: network))
  }

  /// The study day whose waking period or following night contains `t`.
  func day(at t: SimTime) -> Int {
    var lo = 0
    var hi = wake.count - 1
    if hi < 0 { return 0 }
    if t < wake[0] { return 0 }
    while lo < hi {
      let mid = (lo + hi + 1) / 2
      if wake[mid] <= t { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  /// Whether the participant is awake at `t`.
  func isAwake(_ t: SimTime) -> Bool {
    let d = day(at: t)
    return d < wake.count && t >= wake[d] && t < bed[d]
  }
}
