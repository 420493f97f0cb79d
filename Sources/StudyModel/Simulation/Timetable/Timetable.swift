import Schedules
import SimKernel

/// The participant's timetable: every prompt's scheduled time, drawn in the participant's
/// windows when the study starts, the days' wake and bed times, and the places each day's
/// prompts take among simultaneous events.
///
/// A day's prompts are queued one at a time: their places are reserved when the day starts
/// and each is queued when the one before it falls due (``Simulator/reservePlaces(_:)``).
struct Timetable {
  /// Every prompt's scheduled time, and its study day: the prompts drawn when the study
  /// starts, in time order, then the follow-ups in the order the run created them.
  var times: [SimTime] = []
  /// The prompts drawn when the study starts (the rest are follow-ups).
  private(set) var drawnCount = 0
  var days: [Int32] = []
  /// Each prompt's schedule (its index in the protocol's schedules, at most
  /// `ScenarioLimits.schedules`, well inside 16 bits).
  var scheduleOf: [UInt16] = []
  /// Prompt indices ordered by (day, index), and where each day's run of them begins
  /// (`days + 1` entries), so that a day's prompts are found without a scan.
  var promptsByDay: [Int32] = []
  var firstPromptOfDay: [Int32] = []
  /// The episode in which each prompt's scheduled time falls (a hint for the timeline's search).
  var dueHints: [Int32] = []
  /// The first of the places among simultaneous events taken for each day's promptDue events.
  var duePlaces: [UInt64] = []
  /// The push server's tick, or 0 when prompts go out at their times.
  let serverTick: SimTime
  /// The days' wake and bed times.
  let wake: [SimTime]
  let bed: [SimTime]
  /// Where ``nextAwakeChange(after:)`` has got to, and the transition there (`.min`: not yet found).
  var awakeCursor = 0
  var awakeChange = SimTime.min
  /// Whether the scheduler could not be built for this participant's window.
  var scheduleFailed = false
  /// The part of the day the schedule samples on weekdays and weekends, in minutes after
  /// midnight (for normalising prompt times).
  var samplingWindows: (weekday: Block, weekend: Block)?
  /// Minutes by which the participant moved every schedule (`protocol.own_times`).
  private(set) var shift = 0.0

  /// Draws every prompt's time for the participant (`settings`: the draws of their own
  /// change of settings, ``OwnSettingsChanges``; `streams`: each schedule's draws, its own
  /// so that adding a questionnaire leaves the others' times alone; `checks`: the phone
  /// checks, for prompts triggered by unlocking).
  init(
    plan: StudyPlan, person: Person, life: DailyLife, checks: PhoneChecks, calls: PhoneCalls? = nil, settings: inout RandomStream,
    streams: inout [RandomStream]
  ) {
    wake = life.wake
    bed = life.bed
    let channel = plan.protocolPlan.channel
    serverTick = channel.kind == .push ? max(channel.serverTick, 0) : 0
    draw(plan: plan, person: person, life: life, checks: checks, calls: calls, settings: &settings, &streams)
  }

  /// The participant's change of settings: the study's, or their own.
  private(set) var change: SettingsChange?

  /// The participant's own change of settings under `rule`, if they make one, drawn from
  /// `stream`: a study day after the first, a time in 08:00–22:00, their new hours (each end of
  /// `window` moved, to quarter hours) and count (1–5) ([@MacKerron2012]; sizes D).
  static func ownChange(
    _ rule: OwnSettingsChanges, window: Window, days: Int, stream s: inout RandomStream
  ) -> SettingsChange? {
    guard days > 1, s.bernoulli(rule.share) else { return nil }
    let day = 1 + Int(s.integer(below: UInt64(days - 1)))
    let at = Tick.minutes(8 * 60 + s.uniform() * 14 * 60)
    let sd = Tick.inMinutes(rule.hoursSD)
    for _ in 0..<20 {
      let start = Mappiness.quarterHour(ClockTime(minutes: window.start.minutes + s.normal(sd: sd)))
      let end = Mappiness.quarterHour(ClockTime(minutes: window.start.minutes + window.length + s.normal(sd: sd)))
      let perDay = 1 + Int(s.integer(below: 5))
      if let w = try? Window(start: start, end: end), w.length >= 60,
        (try? AnyScheduler(.mappiness, ScheduleParameters(perDay: Double(perDay)), window: w)) != nil
      {
        return SettingsChange(day: day, timeOfDay: at, window: w, perDay: perDay)
      }
    }
    return nil
  }

  /// The number of prompts.
  var count: Int { times.count }

  /// When prompt `i` falls due: at its time, or for a push at the server's next tick (never
  /// before its day has started).
  @inline(__always)
  func dueTime(_ i: Int) -> SimTime {
    let tick = serverTick
    let time = times[i]
    return max(tick > 0 ? (time + tick - 1) / tick * tick : time, SimTime(days[i]) * Tick.day)
  }

  /// The range of day `d`'s prompts in day order (positions in ``promptsByDay``).
  func positions(ofDay d: Int) -> Range<Int> {
    firstPromptOfDay.isEmpty ? 0..<0 : Int(firstPromptOfDay[d])..<Int(firstPromptOfDay[d + 1])
  }

  /// The next wake or bedtime after `t` (`.max` after the last one). Time only moves
  /// forward, so a cursor over wake₀, bed₀, wake₁, bed₁, … finds it.
  @inline(__always)
  mutating func nextAwakeChange(after t: SimTime) -> SimTime {
    // Asked several times between two changes: the last answer stands until `t` reaches it.
    t < awakeChange ? awakeChange : findAwakeChange(after: t)
  }

  /// ``nextAwakeChange(after:)`` once `t` has reached the last answer.
  mutating func findAwakeChange(after t: SimTime) -> SimTime {
    func transition(_ i: Int) -> SimTime { i % 2 == 0 ? wake[i / 2] : bed[i / 2] }
    let count = 2 * wake.count
    while awakeCursor < count && transition(awakeCursor) <= t { awakeCursor += 1 }
    awakeChange = awakeCursor < count ? transition(awakeCursor) : .max
    return awakeChange
  }

  /// How one schedule draws its prompts for this participant: its windows on a weekday and a
  /// weekend day, and the algorithm built for each (none for event-contingent prompts).
  private struct Built {
    var windows: [Window]
    var schedulers: [AnyScheduler]

    /// The part of the window sampled on a weekday or weekend day, in minutes after midnight.
    func sampling(weekend: Bool) -> Block {
      let w = windows[weekend ? 1 : 0]
      guard !schedulers.isEmpty else { return Block(start: w.start.minutes, end: w.start.minutes + w.length) }
      let sampling = schedulers[weekend ? 1 : 0].samplingWindow(for: w)
      return Block(start: w.start.minutes + sampling.start, end: w.start.minutes + sampling.end)
    }
  }

  /// Draws every day's schedule in the participant's windows: builds each schedule's
  /// algorithm in its windows, finds the sampled hours and the settings change, draws the
  /// days, puts the times in order and indexes them by day and by the timeline's episode.
  private mutating func draw(
    plan: StudyPlan, person: Person, life: DailyLife, checks: PhoneChecks, calls: PhoneCalls? = nil, settings: inout RandomStream,
    _ streams: inout [RandomStream]
  ) {
    let parts = plan.protocolPlan.schedules
    guard !parts.isEmpty else { return }
    guard let (built, events) = Self.build(parts, plan: plan, person: person, life: life, checks: checks, calls: calls) else {
      scheduleFailed = true
      return
    }
    // The envelope of the parts' sampling windows, in minutes after midnight (a prompt after
    // joining and a follow-up have no window: left out unless every part is one).
    let windowed = parts.indices.filter { parts[$0].isDrawnDaily }
    func envelope(_ weekend: Bool) -> Block {
      let blocks = (windowed.isEmpty ? Array(built.indices) : windowed).map { built[$0].sampling(weekend: weekend) }
      return Block(start: blocks.map(\.start).min()!, end: blocks.map(\.end).max()!)
    }
    change = plan.protocolPlan.settingsChange
    if change == nil, let rule = plan.protocolPlan.ownSettingsChanges, parts.count == 1, parts[0].choice?.algorithm == .mappiness {
      change = Self.ownChange(rule, window: built[0].windows[0], days: plan.days, stream: &settings)
    }
    // The participant's own times move every schedule (the resolver keeps them apart from
    // the settings changes, which draw from the same stream).
    shift = plan.protocolPlan.ownTimes?.draw(&settings) ?? 0
    func moved(_ b: Block) -> Block { shift == 0 ? b : Block(start: b.start + shift, end: b.end + shift) }
    samplingWindows = (moved(envelope(false)), moved(envelope(true)))
    drawDays(plan: plan, person: person, built: built, events: events, &streams)
    sortTimes()
    indexDays(plan.days)
    hintEpisodes(life)
    drawnCount = times.count
  }

  /// Adds a follow-up prompt (``FollowUps``) at `t` of schedule `k` while the study runs,
  /// after the drawn ones (so indices already handed out stay), with `hint` the timeline's
  /// episode at `t` or before it; returns its index.
  mutating func addFollowUp(at t: SimTime, schedule k: Int, hint: Int) -> Int {
    times.append(t)
    days.append(Int32(t / Tick.day))
    scheduleOf.append(UInt16(k))
    dueHints.append(Int32(hint))
    return times.count - 1
  }

  /// Whether prompt `i` is a follow-up created while the study ran.
  @inline(__always)
  func isFollowUp(_ i: Int) -> Bool { i >= drawnCount }

  /// The time of the drawn prompt after prompt `i`, which ends `i` when it is answerable until
  /// the next signal (nil: `i` is the last drawn prompt, or a follow-up).
  @inline(__always)
  func nextSignal(after i: Int) -> SimTime? { i + 1 < drawnCount ? times[i + 1] : nil }

  /// Each schedule's windows (weekday, weekend) and algorithm built in them, and the events
  /// of each event-contingent one; nil when a schedule cannot run for this participant.
  private static func build(
    _ parts: [SchedulePart], plan: StudyPlan, person: Person, life: DailyLife, checks: PhoneChecks, calls: PhoneCalls?
  ) -> (built: [Built], events: [EventPrompts?])? {
    var built: [Built] = []
    var events: [EventPrompts?] = []
    for part in parts {
      var windows: [Window] = []
      var schedulers: [AnyScheduler] = []
      for weekend in [false, true] {
        guard let window = Self.participantWindow(part.window, weekend: weekend, plan: plan, person: person) else { return nil }
        windows.append(window)
        if let choice = part.choice {
          guard let scheduler = try? AnyScheduler(choice.algorithm, choice.parameters, window: window) else { return nil }
          schedulers.append(scheduler)
        }
      }
      built.append(Built(windows: windows, schedulers: schedulers))
      if let trigger = part.trigger {
        events.append(EventPrompts(trigger, timeline: life.timeline, checks: checks, calls: calls, joined: life.wake.first ?? 0))
      } else {
        events.append(nil)
      }
    }
    return (built, events)
  }

  /// Every study day's prompts: each active schedule's draws in its window (the settings
  /// change's new hours after it), an event-contingent one's events; on a push server's clock
  /// where it sends by its own.
  private mutating func drawDays(
    plan: StudyPlan, person: Person, built: [Built], events: [EventPrompts?], _ streams: inout [RandomStream]
  ) {
    var events = events
    let proto = plan.protocolPlan
    let parts = proto.schedules
    let studyEnd = SimTime(plan.days) * Tick.day
    var minutes: [Double] = []
    let change = self.change
    let changed = change.map { Mappiness(perDay: $0.perDay) }
    // A push server schedules by its own clock: its times, on the participant's clock, move by
    // the difference of the zones' offsets (an hour when one of them has changed to summer
    // time and the other not), and can cross into another day or out of the study.
    let local = plan.timeZones[person.zone].zone
    let serverClock = proto.channel.kind == .push && proto.serverZone.name != local.name
    // Adds a prompt at `t` of day `d` and schedule `k`; a time the server drew (`drawn`) is on
    // its clock when it sends, an event's is the phone's own.
    func append(_ t: SimTime, day d: Int, schedule k: Int, drawn: Bool = true) {
      var (t, d) = (t, d)
      if serverClock && drawn {
        t = local.wall(ofInstant: proto.serverZone.instant(ofWall: t))
        guard t >= 0 && t < studyEnd else { return }
        d = Int(t / Tick.day)
      }
      times.append(t)
      days.append(Int32(d))
      scheduleOf.append(UInt16(k))
    }
    // Adds the drawn `minutes` after `start` that fall before `end`, as prompts of day `d`
    // and schedule `k`.
    func add(from start: SimTime, before end: SimTime, day d: Int, schedule k: Int) {
      for m in minutes {
        let t = start + Tick.minutes(m)
        if t < end && t >= 0 { append(t, day: d, schedule: k) }
      }
    }
    // Joining: one event, prompted on after its delay on a day the schedule is active.
    for k in parts.indices where parts[k].trigger?.event == .joined {
      for t in events[k]!.prompts(from: 0, to: studyEnd, before: studyEnd, using: &streams[k]) {
        let d = Int(t / Tick.day)
        if plan.signals(parts[k], onDay: d) { append(t, day: d, schedule: k, drawn: false) }
      }
    }
    for d in 0..<plan.days {
      let weekend = plan.isWeekend(d)
      let weekday = plan.weekday(ofDay: d)
      let midnight = SimTime(d) * Tick.day
      for k in parts.indices where parts[k].isActive(day: d, weekday: weekday) && parts[k].isDrawnDaily {
        let w = weekend ? 1 : 0
        var window = built[k].windows[w]
        guard !built[k].schedulers.isEmpty else {
          // Event-contingent: the day's events in the window.
          let start = midnight + Tick.minutes(window.start.minutes + shift)
          let end = min(start + Tick.minutes(window.length), studyEnd)
          for t in events[k]!.prompts(from: max(start, 0), to: end, before: studyEnd, using: &streams[k]) {
            append(t, day: d, schedule: k, drawn: false)
          }
          continue
        }
        var scheduler = built[k].schedulers[w]
        if let change, let changed, d > change.day {
          (scheduler, window) = (.mappiness(changed), change.window)
        }
        minutes.removeAll(keepingCapacity: true)
        scheduler.schedule(in: window, into: &minutes, using: &streams[k])
        let windowStart = midnight + Tick.minutes(window.start.minutes + shift)
        var end = studyEnd
        if let change, d == change.day { end = min(end, midnight + change.timeOfDay) }
        add(from: windowStart, before: end, day: d, schedule: k)
        if let change, let changed, d == change.day {
          // The old schedule ran until the change; the rest of the day in the new hours.
          let newStart = midnight + Tick.minutes(change.window.start.minutes)
          let at = midnight + change.timeOfDay
          minutes.removeAll(keepingCapacity: true)
          changed.rest(of: change.window, after: Double(at - newStart) / Double(Tick.minute), into: &minutes, using: &streams[k])
          add(from: newStart, before: studyEnd, day: d, schedule: k)
        }
      }
    }
  }

  /// Puts the times in order (several parts, or windows crossing midnight, can leave them
  /// out of order), keeping equal times in the order drawn.
  private mutating func sortTimes() {
    if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
      let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
      times = order.map { times[$0] }
      days = order.map { days[$0] }
      scheduleOf = order.map { scheduleOf[$0] }
    }
  }

  /// Each day's prompts: where they start, and their positions by day.
  private mutating func indexDays(_ dayCount: Int) {
    firstPromptOfDay = Array(repeating: 0, count: dayCount + 1)
    duePlaces = Array(repeating: 0, count: dayCount)
    for d in days { firstPromptOfDay[Int(d) + 1] += 1 }
    for d in 0..<dayCount { firstPromptOfDay[d + 1] += firstPromptOfDay[d] }
    var next = firstPromptOfDay
    promptsByDay = Array(repeating: 0, count: times.count)
    for i in times.indices {
      promptsByDay[Int(next[Int(days[i])])] = Int32(i)
      next[Int(days[i])] += 1
    }
  }

  private mutating func hintEpisodes(_ life: DailyLife) {
    // The episode of each prompt's time, in one walk along the timeline (the times are in
    // order): where the timeline's search starts when the prompt falls due, hours after the
    // last lookup (a phone that runs on its own needs none in between).
    dueHints = life.timeline.episodes.withUnsafeBufferPointer { episodes in
      var k = 0
      return times.map { t in
        while k + 1 < episodes.count && episodes[k].end <= t { k += 1 }
        return Int32(k)
      }
    }
  }

  /// The window of a part for this participant: the study's, or the participant's own hours
  /// chosen once from their usual weekday times, to the nearest quarter hour.
  static func participantWindow(_ window: WindowPlan, weekend: Bool, plan: StudyPlan, person: Person) -> Window? {
    switch window {
    case .fixed(let weekday, let weekendWindow):
      return weekend ? weekendWindow : weekday
    case .participant(let afterWake, let beforeBed):
      let life = plan.dailyLife
      let start = Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(life.weekdayWake) + person.sleepOffset + afterWake))
      let end = Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(life.weekdayBed) + person.sleepOffset - beforeBed))
      return try? Window(start: start, end: end)
    }
  }
}
