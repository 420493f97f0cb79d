import Schedules
import SimKernel

/// One participant's whole study as a discrete-event simulation with its own small queue.
///
/// The participant's days and contexts are drawn up front (``DailyLife``); the event loop
/// then follows each prompt's life (scheduled → planned or sent → delivered, delayed or lost
/// → noticed → opened → submitted, dismissed or expired), the app's life on the phone
/// (running, suspended, killed, woken) and the battery. Sensor yields are not events: they
/// are counted afterwards over the stretches in which the app ran (``CoverageCalculator``).
///
/// Randomness: every component draws from its own stream of the participant's address
/// (traits, day, context, response, state, phone, delivery, schedule), so that variants
/// differing in one respect share every other draw (common random numbers).
public struct ParticipantSimulation: EventHandler {
  // MARK: Inputs
  let plan: StudyPlan
  let proto: ProtocolPlan
  let profile: DeviceProfile
  /// Phone checks per tick while awake with the phone at hand, and its inverse (the notice
  /// time's search multiplies by them).
  let checks: (perTick: Double, ticksEach: Double)
  /// The profile's drains and the charge (``DeviceProfile/chargePerHour``), percent per tick.
  let drain: (awake: Double, asleep: Double, app: Double, charge: Double)
  /// The participant's traits.
  public let person: Person
  /// Their days and contexts.
  public let life: DailyLife
  let studyEnd: SimTime
  /// The push server's tick, or 0 when prompts go out at their times.
  let serverTick: SimTime

  // MARK: Streams
  var responseStream: RandomStream
  var phoneStream: RandomStream
  var deliveryStream: RandomStream
  var stateStream: RandomStream

  // MARK: Prompts
  /// Every prompt of the study, in time order.
  public private(set) var prompts: [PromptRecord] = []
  /// Answers given with no prompt pending.
  public private(set) var volunteered: [PromptRecord] = []
  var times: [SimTime] = []
  var days: [Int32] = []
  /// Prompt indices ordered by (day, index), and where each day's run of them begins
  /// (`days + 1` entries), so that a day's prompts are found without a scan.
  var promptsByDay: [Int32] = []
  var firstPromptOfDay: [Int32] = []
  /// The episode in which each prompt's scheduled time falls (a hint for the timeline's search).
  var dueHints: [Int32] = []
  /// The first of the places among simultaneous events taken for each day's promptDue events.
  var duePlaces: [UInt64] = []
  var expiresAt: [SimTime] = []
  var remindersLeft: [Int] = []
  var progress: [Progress] = []
  var deliveredAsleep: [Bool] = []
  /// The last delivered prompt still answerable under "until the next signal".
  var openUntilNext = -1
  /// Whether the scheduler could not be built for this participant's window.
  public private(set) var scheduleFailed = false
  /// The part of the day the schedule samples on weekdays and weekends, in minutes after
  /// midnight (for normalising prompt times).
  public private(set) var samplingWindows: (weekday: Block, weekend: Block)?

  enum Progress: UInt8 {
    case waiting, declined, intending, opened, final
  }

  // MARK: Phone and app
  enum Mode {
    case off, notRunning, suspended, anchored, bounded, foreground
  }
  var mode = Mode.anchored
  var forceQuit = false
  var phoneIsOn = true
  var lowPower: Bool
  var awake = false
  var charging = false
  var daytimeCharging = false
  var battery: Battery
  var planner: LocalPlanner
  var heldPush = -1
  var sessionUntil: SimTime = -1
  var lastLocationWake: SimTime = -Tick.hour
  var timelineCursor = 0
  /// Events handled by ``run()``, and how many of them were follow-ups handed over at once
  /// (``Simulator/followUp(at:kind:entity:payload:priority:slot:)``).
  var eventsHandled = 0
  var followUpsHandled = 0
  /// Whether follow-ups are handed over at once when they can be (false: every one goes
  /// through the queue; the results are the same, which a test checks).
  var carriesOutFollowUps = true
  /// Whether app timers that cannot fire are left out of the queue (``armAppTimer(_:)``;
  /// false: every one is queued; the results are the same, which a test checks).
  var leavesOutDeadTimers = true
  /// Where ``nextAwakeChange(after:)`` has got to.
  var awakeCursor = 0
  /// The transition at `awakeCursor` (`.min`: not yet found).
  var awakeChange = SimTime.min
  /// When the battery next reaches a level that matters (`.max`: not before the next wake
  /// or bedtime), and when the battery event in the queue fires (`.max`: none).
  var batteryDue = SimTime.max
  var batteryEventAt = SimTime.max
  /// Stretches in which the app ran, was in the foreground, the phone was on, Low Power Mode
  /// was on, the phone was charging.
  public private(set) var runs = Intervals()
  public private(set) var foreground = Intervals()
  public private(set) var phoneOn = Intervals()
  public private(set) var lowPowerSpans = Intervals()
  public private(set) var chargingSpans = Intervals()
  /// Battery level over time (time, percent) at every change of rate.
  public private(set) var batteryTrace: [(SimTime, Double)] = []
  let traceBattery: Bool

  // MARK: Participant
  var truth: GroundTruth
  /// Whether the participant declined the last prompt they decided on (nil: none yet).
  var previousMissed: Bool?
  var droppedOut = false
  /// When the participant left the study (the study's end if they did not).
  public private(set) var enrolledUntil: SimTime

  /// Sets up a participant: draws their traits, days and every prompt's scheduled time.
  public init(plan: StudyPlan, seed: UInt64, replication: UInt32, participant: UInt32, traceBattery: Bool = false) {
    func stream(_ p: Purpose) -> RandomStream {
      RandomStream(StreamAddress(seed: seed, replication: replication, participant: participant, purpose: p))
    }
    self.plan = plan
    proto = plan.protocolPlan
    self.traceBattery = traceBattery
    var traits = stream(.traits)
    person = Person(plan: plan, stream: &traits)
    profile = plan.devices[person.device].profile
    checks = (person.checksPerHour / Double(Tick.hour), Double(Tick.hour) / person.checksPerHour)
    drain = (
      Battery.perTick(profile.drainAwake), Battery.perTick(profile.drainAsleep), Battery.perTick(profile.drainApp),
      Battery.perTick(DeviceProfile.chargePerHour)
    )
    var dayStream = stream(.day)
    var contextStream = stream(.context)
    // Days up to and including the dropout day (whose start is the participant's last moment).
    life = DailyLife(
      plan: plan, person: person, dayCount: person.dropoutDay < plan.days ? person.dropoutDay + 1 : nil,
      days: &dayStream, contexts: &contextStream)
    studyEnd = SimTime(plan.days) * Tick.day
    serverTick = proto.channel.kind == .push ? max(Tick.minutes(proto.channel.serverTickMinutes), 0) : 0
    enrolledUntil = studyEnd
    responseStream = stream(.response)
    phoneStream = stream(.phone)
    deliveryStream = stream(.delivery)
    stateStream = stream(.state)
    lowPower = profile.lowPowerMode
    battery = Battery(level: phoneStream.uniform(60, 100))
    planner = LocalPlanner(channel: proto.channel, reminders: proto.reminders.count)
    truth = GroundTruth(
      plan: plan.dailyLife.state, conditions: plan.dailyLife.conditions, personLevel: person.stateLevel,
      first: .asleep, stream: &stateStream)
    var scheduleStream = stream(.schedule)
    makePrompts(&scheduleStream)
  }

  /// Draws every day's schedule in the participant's windows.
  mutating func makePrompts(_ s: inout RandomStream) {
    let parts = proto.schedules
    guard !parts.isEmpty else { return }
    // Each part's scheduler and window, weekday and weekend.
    var built: [(weekday: (AnyScheduler, Window), weekend: (AnyScheduler, Window))] = []
    for part in parts {
      var pair: [(AnyScheduler, Window)] = []
      for weekend in [false, true] {
        guard let window = participantWindow(part.window, weekend: weekend),
          let scheduler = try? AnyScheduler(part.choice.algorithm, part.choice.parameters, window: window)
        else {
          scheduleFailed = true
          return
        }
        pair.append((scheduler, window))
      }
      built.append((pair[0], pair[1]))
    }
    // The envelope of the parts' sampling windows, in minutes after midnight.
    func envelope(_ weekend: Bool) -> Block {
      var lo = Double.infinity
      var hi = -Double.infinity
      for b in built {
        let (scheduler, window) = weekend ? b.weekend : b.weekday
        let sampling = scheduler.samplingWindow(for: window)
        lo = min(lo, window.start.minutes + sampling.start)
        hi = max(hi, window.start.minutes + sampling.end)
      }
      return Block(start: lo, end: hi)
    }
    samplingWindows = (envelope(false), envelope(true))
    var minutes: [Double] = []
    let change = proto.settingsChange
    let changed = change.map { Mappiness(perDay: $0.perDay) }
    for d in 0..<plan.days {
      let weekend = plan.isWeekend(d)
      let weekday = (plan.startWeekday + d) % 7
      for (k, part) in parts.enumerated() where part.isActive(day: d, weekday: weekday) {
        var (scheduler, window) = weekend ? built[k].weekend : built[k].weekday
        if let change, let changed, d > change.day {
          (scheduler, window) = (.mappiness(changed), change.window)
        }
        minutes.removeAll(keepingCapacity: true)
        scheduler.schedule(in: window, into: &minutes, using: &s)
        let midnight = SimTime(d) * Tick.day
        let windowStart = midnight + Tick.minutes(window.start.minutes)
        var end = studyEnd
        if let change, d == change.day { end = min(end, midnight + Tick.minutes(change.atMinute)) }
        for m in minutes {
          let t = windowStart + Tick.minutes(m)
          guard t < end else { continue }
          times.append(t)
          days.append(Int32(d))
        }
        if let change, let changed, d == change.day {
          // The old schedule ran until the change; the rest of the day in the new hours.
          let newStart = midnight + Tick.minutes(change.window.start.minutes)
          let at = midnight + Tick.minutes(change.atMinute)
          minutes.removeAll(keepingCapacity: true)
          changed.rest(of: change.window, after: Double(at - newStart) / Double(Tick.minute), into: &minutes, using: &s)
          for m in minutes {
            let t = newStart + Tick.minutes(m)
            guard t < studyEnd else { continue }
            times.append(t)
            days.append(Int32(d))
          }
        }
      }
    }
    // Several parts, or windows crossing midnight, can leave times out of order.
    if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
      let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
      times = order.map { times[$0] }
      days = order.map { days[$0] }
    }
    prompts = times.indices.map { PromptRecord(index: $0, day: Int(days[$0]), scheduled: times[$0]) }
    expiresAt = Array(repeating: .max, count: times.count)
    remindersLeft = Array(repeating: proto.reminders.count, count: times.count)
    progress = Array(repeating: .waiting, count: times.count)
    deliveredAsleep = Array(repeating: false, count: times.count)
    firstPromptOfDay = Array(repeating: 0, count: plan.days + 1)
    duePlaces = Array(repeating: 0, count: plan.days)
    for d in days { firstPromptOfDay[Int(d) + 1] += 1 }
    for d in 0..<plan.days { firstPromptOfDay[d + 1] += firstPromptOfDay[d] }
    var next = firstPromptOfDay
    promptsByDay = Array(repeating: 0, count: times.count)
    for i in times.indices {
      promptsByDay[Int(next[Int(days[i])])] = Int32(i)
      next[Int(days[i])] += 1
    }
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
  func participantWindow(_ plan: WindowPlan, weekend: Bool) -> Window? {
    switch plan {
    case .fixed(let weekday, let weekendWindow):
      return weekend ? weekendWindow : weekday
    case .participant(let afterWake, let beforeBed):
      let life = self.plan.dailyLife
      let start = Mappiness.quarterHour(ClockTime(minutes: life.weekdayWake + person.sleepOffset + afterWake))
      let end = Mappiness.quarterHour(ClockTime(minutes: life.weekdayBed + person.sleepOffset - beforeBed))
      return try? Window(start: start, end: end)
    }
  }

  /// Runs the whole study, then settles what is still open at its end.
  public mutating func run() {
    var sim = Simulator(capacity: 64, slots: Slot.count)
    sim.carriesOutFollowUps = carriesOutFollowUps
    start(&sim)
    // A participant who drops out leaves at the start of that day: nothing after it counts,
    // so the simulation stops there and the later prompts are settled without events.
    let leaves = person.dropoutDay < plan.days ? SimTime(person.dropoutDay) * Tick.day : studyEnd
    eventsHandled = sim.run(until: min(leaves, studyEnd), &self)
    followUpsHandled = sim.followUpsCarriedOut
    if droppedOut {
      let now = sim.now
      if traceBattery {
        // Close the trace: the level falls or rises on the same line until the dropout.
        battery.update(to: now)
        batteryTrace.append((now, battery.level))
      }
      let tick = serverTick
      for i in prompts.indices where progress[i] == .waiting && prompts[i].delivered < 0 {
        let due = Self.dueTime(times[i], dayStart: SimTime(days[i]) * Tick.day, serverTick: tick)
        if due > now { settle(i, .droppedOut, .droppedOut, at: due) }
      }
    }
    finish(at: studyEnd)
  }

  mutating func start(_ sim: inout Simulator) {
    phoneOn.begin(at: 0)
    // Room for 72 run stretches a day (a silent push every half hour and a wake an hour;
    // more grow the array, and pages never touched cost nothing).
    runs.reserveCapacity(72 * plan.days)
    runs.begin(at: 0)
    if lowPower { lowPowerSpans.begin(at: 0) }
    if person.os == .android || proto.channel.kind == .push {
      planner.planAll(count: times.count)
    } else {
      planner.refill(at: 0, times: times, days: days, today: 0)
    }
    // The study starts at midnight with the participant asleep.
    charging = phoneStream.bernoulli(DeviceProfile.chargeNightly)
    if charging { chargingSpans.begin(at: 0) }
    updateBattery(&sim)
    armAppTimer(&sim)
    sim.schedule(at: 0, kind: EventKind.dayStarts.rawValue, payload: 0, priority: .urgent)
    if let hours = proto.channel.backgroundTaskHours, person.os == .ios, proto.channel.kind == .local {
      sim.schedule(at: Tick.minutes(hours * 60), kind: EventKind.backgroundTask.rawValue)
    }
  }

  // MARK: - Events

  public mutating func handle(_ event: Event, _ sim: inout Simulator) {
    let i = Int(event.payload)
    switch EventKind.of(event.kind) {
    case .dayStarts: dayStarts(i, &sim)
    case .wakes: setAwake(true, &sim)
    case .goesToBed: setAwake(false, &sim)
    case .promptDue: dueFalls(i, &sim)
    case .promptArrives: promptArrives(i, &sim)
    case .promptNoticed: promptNoticed(i >> 1, reminded: i & 1 == 1, &sim)
    case .promptOpened: promptOpened(i, &sim)
    case .promptSubmitted: promptSubmitted(i, &sim)
    case .promptExpires: promptExpires(i, at: sim.now)
    case .promptDismissed: promptDismissed(i, at: sim.now)
    case .reminder: reminder(i, &sim)
    case .appTimer: appTimer(AppTimer(rawValue: event.payload)!, &sim)
    case .appWake: appWake(WakeSource(rawValue: event.payload)!, &sim)
    case .spontaneousOpen: spontaneousOpen(volunteer: i == 1, &sim)
    case .sessionEnds: if sim.now >= sessionUntil { leaveForeground(&sim) }
    case .battery: batteryEvent(&sim)
    case .reboot: phoneGoesOff(&sim, until: sim.now + Tick.seconds(DeviceProfile.rebootSeconds))
    case .phoneOn: phoneComesOn(&sim)
    case .backgroundTask: backgroundTask(&sim)
    case .dropout: dropout(&sim)
    case .charger: charger(plugged: i == 1, &sim)
    }
  }

  mutating func dayStarts(_ d: Int, _ sim: inout Simulator) {
    let now = sim.now
    sim.schedule(at: life.wake[d], kind: EventKind.wakes.rawValue, payload: Int32(d), priority: .urgent)
    sim.schedule(at: life.bed[d], kind: EventKind.goesToBed.rawValue, payload: Int32(d), priority: .urgent)
    // The day's prompts: their places among simultaneous events are taken now, but each is
    // queued only when the one before it falls due (``dueFalls(_:_:)``), which keeps the
    // queue small.
    if !firstPromptOfDay.isEmpty && firstPromptOfDay[d] < firstPromptOfDay[d + 1] {
      let first = Int(firstPromptOfDay[d])
      duePlaces[d] = sim.reservePlaces(Int(firstPromptOfDay[d + 1]) - first)
      scheduleDue(first, day: d, &sim)
    }
    // Spontaneous openings and volunteered answers, at random waking moments.
    let wake = life.wake[d]
    let awakeLength = Double(life.bed[d] - wake)
    var opens = Int(proto.appOpensPerDay.rounded(.down))
    if responseStream.bernoulli(proto.appOpensPerDay - Double(opens)) { opens += 1 }
    for _ in 0..<opens {
      sim.schedule(at: wake + SimTime(responseStream.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue)
    }
    if proto.volunteered {
      for _ in 0..<responseStream.poisson(mean: plan.compliance.volunteeredPerDay) {
        sim.schedule(
          at: wake + SimTime(responseStream.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue, payload: 1)
      }
    }
    if profile.rebootPerDay > 0 && phoneStream.bernoulli(profile.rebootPerDay) {
      sim.schedule(at: now + SimTime(phoneStream.uniform() * Double(Tick.day)), kind: EventKind.reboot.rawValue)
    }
    if d == person.dropoutDay {
      sim.schedule(at: now, kind: EventKind.dropout.rawValue, priority: .urgent)
    }
    if d + 1 < plan.days {
      sim.schedule(at: SimTime(d + 1) * Tick.day, kind: EventKind.dayStarts.rawValue, payload: Int32(d + 1), priority: .urgent)
    }
  }

  /// Queues the promptDue event of the `j`th prompt in day order (``promptsByDay``), of day
  /// `d`, in the place taken for it when the day started.
  mutating func scheduleDue(_ j: Int, day d: Int, _ sim: inout Simulator) {
    let i = Int(promptsByDay[j])
    sim.schedule(
      at: Self.dueTime(times[i], dayStart: SimTime(d) * Tick.day, serverTick: serverTick),
      kind: EventKind.promptDue.rawValue, payload: Int32(j), place: duePlaces[d] + UInt64(j - Int(firstPromptOfDay[d])))
  }

  /// The `j`th prompt in day order (the promptDue event's payload) falls due: the day's next
  /// one is queued in its place, and this one handled (``promptDue(_:_:)``).
  mutating func dueFalls(_ j: Int, _ sim: inout Simulator) {
    let i = Int(promptsByDay[j])
    let d = Int(days[i])
    if j + 1 < Int(firstPromptOfDay[d + 1]) { scheduleDue(j + 1, day: d, &sim) }
    promptDue(i, &sim)
  }

  /// When a prompt scheduled at `time` falls due, its day having started at `dayStart`: at
  /// its time, or for a push at the server's next tick. (A function of values: called as a
  /// method of the whole simulation inside a loop that mutates it, it made Swift copy the
  /// simulation at every call.)
  static func dueTime(_ time: SimTime, dayStart: SimTime, serverTick tick: SimTime) -> SimTime {
    max(tick > 0 ? (time + tick - 1) / tick * tick : time, dayStart)
  }

  mutating func setAwake(_ isAwake: Bool, _ sim: inout Simulator) {
    awake = isAwake
    if isAwake {
      if charging {
        charging = false
        chargingSpans.end(at: sim.now)
      }
    } else if phoneStream.bernoulli(DeviceProfile.chargeNightly) {
      charging = true
      chargingSpans.begin(at: sim.now)
      if !phoneIsOn && !droppedOut { sim.schedule(at: sim.now, kind: EventKind.phoneOn.rawValue) }
    }
    updateBattery(&sim)
    if mode == .anchored { armAppTimer(&sim) }
  }

  // MARK: Prompts

  mutating func promptDue(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    timelineCursor = life.timeline.index(at: now, from: max(timelineCursor, Int(dueHints[i])))
    let here = life.timeline.episodes[timelineCursor]
    prompts[i].context = here.context
    if droppedOut { return settle(i, .droppedOut, .droppedOut, at: sim.now) }
    if person.os == .android && mode == .notRunning && !forceQuit {
      // An alarm runs the app's code, which restarts its service.
      startRunning(now, &sim)
    }
    switch proto.channel.kind {
    case .local:
      guard planner.isPlanned(i) else {
        return settle(i, .undelivered, planner.cutByCap ? .cap : .notRefilled, at: sim.now)
      }
      guard phoneIsOn else { return settle(i, .undelivered, .phoneOff, at: sim.now) }
      deliver(i, at: now, &sim)
    case .push:
      if phoneIsOn && here.network != .unreachable {
        let latency = Compliance.delay(
          medianSeconds: proto.channel.latencySeconds, sigma: proto.channel.latencySigma, &deliveryStream)
        sim.followUp(at: now + latency, kind: EventKind.promptArrives.rawValue, payload: Int32(i))
      } else {
        // APNs holds one notification per app while the phone is offline: a newer one
        // replaces it (`device_and_compliance.md` §1.4).
        if heldPush >= 0 { settle(heldPush, .undelivered, .replaced, at: now) }
        heldPush = i
        if phoneIsOn, let back = nextReachable(after: now), back - now <= Tick.minutes(proto.channel.storeHours * 60) {
          sim.schedule(at: back, kind: EventKind.promptArrives.rawValue, payload: Int32(i))
        }
      }
    }
  }

  mutating func promptArrives(_ i: Int, _ sim: inout Simulator) {
    if heldPush == i { heldPush = -1 }
    guard progress[i] == .waiting, prompts[i].delivered < 0 else { return }
    if droppedOut { return settle(i, .droppedOut, .droppedOut, at: sim.now) }
    guard phoneIsOn else {
      heldPush = i
      return
    }
    if sessionUntil > sim.now {
      // Mappiness `apn_ignored`: inside another survey the signal is not shown, not
      // counted and not rescheduled.
      prompts[i].delivered = sim.now
      return settle(i, .ignored, .busy, at: sim.now)
    }
    deliver(i, at: sim.now, &sim)
  }

  mutating func deliver(_ i: Int, at t: SimTime, _ sim: inout Simulator) {
    prompts[i].delivered = t
    prompts[i].context = context(at: t)
    truth.advance(to: t, timeline: life.timeline, stream: &stateStream)
    prompts[i].trueState = truth.value
    deliveredAsleep[i] = !awake
    switch proto.expiry {
    case .after(let w):
      expiresAt[i] = t + w
      sim.schedule(at: t + w, kind: EventKind.promptExpires.rawValue, payload: Int32(i), priority: .late)
    case .untilNextSignal:
      if openUntilNext >= 0 && openUntilNext != i { promptExpires(openUntilNext, at: t) }
      openUntilNext = i
    case .never:
      break
    }
    if remindersLeft[i] > 0 {
      sim.schedule(at: t + proto.reminders.interval, kind: EventKind.reminder.rawValue, payload: Int32(i))
    }
    if mode == .foreground {
      sim.followUp(at: t, kind: EventKind.promptNoticed.rawValue, payload: Int32(i << 1))
    } else if let n = noticeTime(after: t, alert: true), n < expiresAt[i] {
      sim.followUp(at: n, kind: EventKind.promptNoticed.rawValue, payload: Int32(i << 1))
    }
  }

  mutating func promptNoticed(_ i: Int, reminded: Bool, _ sim: inout Simulator) {
    let now = sim.now
    guard now < expiresAt[i], !droppedOut else { return }
    switch progress[i] {
    case .waiting: break
    case .declined where reminded: break
    default: return
    }
    if prompts[i].noticed < 0 { prompts[i].noticed = now }
    let e = episode(at: now)
    let conditions = plan.dailyLife.conditions[e.context.rawValue]
    var z = 0.0
    if plan.compliance.stateDependence != 0 {
      truth.advance(to: now, timeline: life.timeline, stream: &stateStream)
      let level = conditions.stateMean + person.stateLevel
      z = (truth.value - level) / plan.dailyLife.state.sd
    }
    let p = Compliance.probability(
      plan.compliance, level: person.answerLevel, previousMissed: previousMissed, day: Int(days[i]),
      hour: Int((now % Tick.day) / Tick.hour), context: conditions.willingness, stateZ: z)
    if responseStream.uniform() < p {
      let delay = Compliance.delay(
        medianSeconds: plan.compliance.openDelaySeconds, sigma: plan.compliance.openDelaySigma, &responseStream)
      let from = answerableFrom(now)
      let openAt = from == .max ? SimTime.max : max(from + delay, sessionUntil)
      progress[i] = .intending
      previousMissed = false
      if openAt < expiresAt[i] {
        sim.followUp(at: openAt, kind: EventKind.promptOpened.rawValue, payload: Int32(i))
      }
    } else {
      progress[i] = .declined
      previousMissed = true
      if responseStream.bernoulli(plan.compliance.dismissShare) {
        sim.followUp(
          at: now + Tick.seconds(responseStream.exponential(mean: 5)), kind: EventKind.promptDismissed.rawValue,
          payload: Int32(i))
      }
    }
  }

  mutating func promptOpened(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    guard progress[i] == .intending, now < expiresAt[i], !droppedOut, phoneIsOn else { return }
    if sessionUntil > now {
      sim.followUp(at: sessionUntil, kind: EventKind.promptOpened.rawValue, payload: Int32(i))
      return
    }
    if !canAnswer(at: now) {
      // Asleep or driving by now: answer as soon as possible, if still in time.
      let from = answerableFrom(now)
      if from < expiresAt[i] { sim.followUp(at: from, kind: EventKind.promptOpened.rawValue, payload: Int32(i)) }
      return
    }
    progress[i] = .opened
    prompts[i].opened = now
    truth.advance(to: now, timeline: life.timeline, stream: &stateStream)
    prompts[i].trueState = truth.value
    prompts[i].reported = truth.value + stateStream.normal(sd: plan.dailyLife.state.reportNoise)
    sessionUntil = now + completionTime()
    enterForeground(&sim)
    sim.followUp(at: sessionUntil, kind: EventKind.promptSubmitted.rawValue, payload: Int32(i))
    if openUntilNext == i { openUntilNext = -1 }
  }

  mutating func promptSubmitted(_ i: Int, _ sim: inout Simulator) {
    prompts[i].submitted = sim.now
    settle(i, .answered, .none, at: sim.now)
    if sim.now >= sessionUntil { leaveForeground(&sim) }
  }

  mutating func promptExpires(_ i: Int, at t: SimTime) {
    guard progress[i] != .final, progress[i] != .opened, prompts[i].delivered >= 0 else { return }
    expiresAt[i] = min(expiresAt[i], t)
    let reason: MissReason
    switch progress[i] {
    case .intending: reason = .tooLate
    case .declined: reason = .unwilling
    default: reason = deliveredAsleep[i] && prompts[i].noticed < 0 ? .asleep : .notNoticed
    }
    settle(i, .expired, droppedOut ? .droppedOut : reason, at: t)
  }

  mutating func promptDismissed(_ i: Int, at t: SimTime) {
    guard progress[i] == .declined else { return }
    settle(i, .dismissed, .unwilling, at: t)
  }

  mutating func reminder(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    guard progress[i] == .waiting || progress[i] == .declined, now < expiresAt[i], phoneIsOn, !droppedOut else { return }
    remindersLeft[i] -= 1
    if let n = noticeTime(after: now, alert: true), n < expiresAt[i] {
      sim.schedule(at: n, kind: EventKind.promptNoticed.rawValue, payload: Int32(i << 1 | 1))
    }
    if remindersLeft[i] > 0 {
      sim.schedule(at: now + proto.reminders.interval, kind: EventKind.reminder.rawValue, payload: Int32(i))
    }
  }

  mutating func settle(_ i: Int, _ status: PromptStatus, _ reason: MissReason, at t: SimTime) {
    guard progress[i] != .final else { return }
    if openUntilNext == i { openUntilNext = -1 }  // settled: no longer answerable
    progress[i] = .final
    prompts[i].status = status
    prompts[i].reason = reason
    prompts[i].closed = t
  }

  /// A spontaneous opening of the app: pending prompts are shown at once (Mappiness presents
  /// the survey immediately when a signal is pending); a volunteered answer is recorded when
  /// none is pending.
  mutating func spontaneousOpen(volunteer: Bool, _ sim: inout Simulator) {
    let now = sim.now
    guard awake, phoneIsOn, !droppedOut, sessionUntil <= now, canAnswer(at: now) else { return }
    var pending = false
    for i in stride(from: prompts.count - 1, through: 0, by: -1) where times[i] <= now {
      if prompts[i].delivered >= 0 && (progress[i] == .waiting || progress[i] == .declined) && now < expiresAt[i] {
        pending = true
        sim.schedule(at: now, kind: EventKind.promptNoticed.rawValue, payload: Int32(i << 1 | 1))
      }
      if times[i] < now - 2 * Tick.day { break }
    }
    if volunteer {
      guard !pending else { return }
      var r = PromptRecord(index: volunteered.count, day: life.day(at: now), scheduled: now)
      r.volunteered = true
      r.delivered = now
      r.noticed = now
      r.opened = now
      r.context = context(at: now)
      truth.advance(to: now, timeline: life.timeline, stream: &stateStream)
      r.trueState = truth.value
      r.reported = truth.value + stateStream.normal(sd: plan.dailyLife.state.reportNoise)
      sessionUntil = now + completionTime()
      r.submitted = sessionUntil
      r.status = .answered
      volunteered.append(r)
    } else {
      // Ordinary use of the app: about a minute (assumption).
      sessionUntil = now + Tick.seconds(responseStream.exponential(mean: 60))
    }
    enterForeground(&sim)
    sim.followUp(at: sessionUntil, kind: EventKind.sessionEnds.rawValue)
  }

  /// How long answering the items takes.
  mutating func completionTime() -> SimTime {
    Compliance.delay(
      medianSeconds: plan.compliance.completionSeconds, sigma: plan.compliance.completionSigma, &responseStream)
  }

  // MARK: Noticing

  /// When the participant would notice something that appears on the phone at `t`: at once
  /// if an alert is heard, otherwise at the next look at the phone (checks come at
  /// `checksPerHour` while awake with the phone at hand); after sleep, shortly after waking.
  mutating func noticeTime(after t: SimTime, alert: Bool) -> SimTime? {
    var k = life.timeline.index(at: t, from: timelineCursor)
    timelineCursor = k
    let episodes = life.timeline.episodes
    let first = episodes[k]
    if alert && first.context != .asleep {
      // A phone not at hand is usually in the same room (Dey et al. 2011: within arm's reach
      // about half the time, in the same room about 90 %): its alert is heard half as often.
      let reach = first.phoneAtHand ? 1.0 : Self.alertAwayFromHand
      let hear = person.alertHeard * plan.dailyLife.conditions[first.context.rawValue].hearing * reach
      if responseStream.uniform() < hear {
        return t + Tick.seconds(responseStream.exponential(mean: Self.reactionSeconds))
      }
    }
    // Next phone check: an exponential amount of "checking time" spent only where the
    // participant is awake with the phone at hand; the first look after waking is quick.
    var need = responseStream.exponential(mean: 1)  // in units of 1/rate
    let rate = checks.perTick
    var cursor = t
    let limit = t + 3 * Tick.day
    while k < episodes.count && cursor < limit {
      let e = episodes[k]
      if e.context == .asleep {
        // Waking: look at the phone within minutes.
        if k + 1 < episodes.count {
          let wake = episodes[k].end
          let look = wake + Tick.minutes(responseStream.exponential(mean: Self.firstLookMinutes))
          if look < limit { return look }
        }
        return nil
      }
      if e.phoneAtHand {
        let available = Double(e.end - cursor) * rate
        if need <= available { return cursor + SimTime(need * checks.ticksEach) }
        need -= available
      }
      cursor = e.end
      k += 1
    }
    return nil
  }

  /// How much less often an alert is heard when the phone is not at hand (assumption).
  static let alertAwayFromHand = 0.5
  /// Seconds from an alert to noticing it (assumption).
  static let reactionSeconds = 15.0
  /// Minutes from waking to the first look at the phone (assumption).
  static let firstLookMinutes = 10.0

  // Lookups on the timeline at the participant's cursor. Always inlined: a method of the
  // whole simulation that a mutating handler calls out of line gets a copy of all its 2 KB
  // (Swift copies `self` for the call), once per call.

  /// The first moment from `t` at which the participant can safely answer (not driving or
  /// exercising, awake).
  @inline(__always)
  func answerableFrom(_ t: SimTime) -> SimTime {
    let conditions = plan.dailyLife.conditions
    return life.timeline.first(from: t, hint: timelineCursor) { Timeline.canAnswer(in: $0, conditions) } ?? .max
  }

  @inline(__always)
  func canAnswer(at t: SimTime) -> Bool { Timeline.canAnswer(in: episode(at: t), plan.dailyLife.conditions) }

  @inline(__always)
  func episode(at t: SimTime) -> Episode { life.timeline.episode(at: t, from: timelineCursor) }
  @inline(__always)
  func context(at t: SimTime) -> Context { episode(at: t).context }
  @inline(__always)
  func network(at t: SimTime) -> Network { episode(at: t).network }

  /// The first moment after `t` when the network reaches the phone.
  @inline(__always)
  func nextReachable(after t: SimTime) -> SimTime? {
    life.timeline.first(from: t, hint: timelineCursor) { $0.network != .unreachable }
  }

  // MARK: App lifecycle

  var isRunning: Bool { mode == .anchored || mode == .bounded || mode == .foreground }

  mutating func startRunning(_ t: SimTime, _ sim: inout Simulator) {
    runs.begin(at: t)
    mode = .anchored
    sim.cancel(slot: Slot.wake)
    armAppTimer(&sim)
    updateBattery(&sim)
  }

  mutating func stopRunning(_ newMode: Mode, _ sim: inout Simulator) {
    runs.end(at: sim.now)
    mode = newMode
    sim.cancel(slot: Slot.app)
    updateBattery(&sim)
    if newMode == .suspended || newMode == .notRunning { armWake(&sim) }
  }

  mutating func enterForeground(_ sim: inout Simulator) {
    let now = sim.now
    sim.cancel(slot: Slot.app)
    sim.cancel(slot: Slot.wake)
    if !isRunning { runs.begin(at: now) }
    mode = .foreground
    forceQuit = false
    foreground.begin(at: now)
    if proto.channel.kind == .local && person.os == .ios {
      planner.refill(at: now, times: times, days: days, today: life.day(at: now))
    }
    updateBattery(&sim)
  }

  mutating func leaveForeground(_ sim: inout Simulator) {
    guard mode == .foreground else { return }
    foreground.end(at: sim.now)
    mode = .anchored
    armAppTimer(&sim)
    updateBattery(&sim)
  }

  /// Draws the next thing that stops the running background app: the OS suspending it, a
  /// memory-pressure kill, a force-quit (all while the participant is awake and using the
  /// phone: what other apps do is what pushes the study app out). The earliest of these competing clocks is the only one scheduled.
  mutating func armAppTimer(_ sim: inout Simulator) {
    sim.cancel(slot: Slot.app)
    guard mode == .anchored else { return }
    var best = SimTime.max
    var which = AppTimer.suspend
    func consider(_ perHour: Double, _ kind: AppTimer, _ s: inout RandomStream) {
      guard perHour > 0 else { return }
      let t = sim.now + Tick.minutes(s.exponential(mean: 60 / perHour))
      if t < best {
        best = t
        which = kind
      }
    }
    if person.os == .ios {
      if awake {
        let suspend = lowPower && !profile.lowPowerMode ? DeviceProfile.lowPower.suspendPerHour : profile.suspendPerHour
        consider(suspend, .suspend, &phoneStream)
        consider(profile.killPerHour, .kill, &phoneStream)
        consider(profile.forceQuitPerDay / 16, .forceQuit, &phoneStream)
      }
    } else if awake {
      consider(profile.killPerHour, .kill, &phoneStream)
    }
    // A timer at or after the next wake or bedtime never fires: the app is then anchored and
    // the timer drawn afresh (`setAwake`), or has left that mode, which cancels it. Left out
    // of the queue, it does not sit there cancelled (kills and force-quits are days away).
    if best < nextAwakeChange(after: sim.now) || (best < .max && !leavesOutDeadTimers) {
      sim.schedule(at: best, kind: EventKind.appTimer.rawValue, payload: which.rawValue, slot: Slot.app)
    }
  }

  mutating func appTimer(_ kind: AppTimer, _ sim: inout Simulator) {
    switch kind {
    case .suspend, .runEnds:
      guard mode == .anchored || mode == .bounded else { return }
      stopRunning(.suspended, &sim)
    case .kill:
      guard mode == .anchored || mode == .bounded else { return }
      stopRunning(.notRunning, &sim)
      if person.os == .android && profile.wakeRestoresAnchor {
        // A sticky service is restarted by the system after a while (assumption: 5 minutes).
        sim.schedule(
          at: sim.now + 5 * Tick.minute, kind: EventKind.appTimer.rawValue, payload: AppTimer.androidRestart.rawValue,
          slot: Slot.app)
      }
    case .forceQuit:
      guard mode == .anchored || mode == .bounded else { return }
      forceQuit = true
      stopRunning(.notRunning, &sim)
    case .androidRestart:
      guard mode == .notRunning, phoneIsOn, !droppedOut else { return }
      startRunning(sim.now, &sim)
    }
  }

  /// Draws the next background wake of a suspended or terminated iOS app: the next silent
  /// push that gets through, the next significant location change, or a background app
  /// refresh, whichever comes first. A force-quit app is woken by none of them.
  mutating func armWake(_ sim: inout Simulator) {
    sim.cancel(slot: Slot.wake)
    guard person.os == .ios, !forceQuit, phoneIsOn, !droppedOut else { return }
    let now = sim.now
    // Both searches below start from the episode at hand (about every half hour while the
    // app is suspended: the timeline's lookups for prompts start near it too).
    let here = life.timeline.index(at: now, from: timelineCursor)
    timelineCursor = here
    var best = SimTime.max
    var source = WakeSource.silentPush
    if let every = proto.silentPushEvery, let t = nextPushWake(after: now, every: every), t < best {
      best = t
      source = .silentPush
    }
    // Only a location change before the push can win: the search stops there. (Each arming
    // draws afresh whether a trip's change relaunches the app, so the changes it does not
    // reach need no draw: the law of the first wake is the same.)
    if profile.significantChangeWake && !lowPower, let t = nextLocationWake(after: now, in: here, before: best) {
      best = t
      source = .locationChange
    }
    if profile.backgroundRefreshPerDay > 0 && !lowPower {
      let t = now + Tick.minutes(phoneStream.exponential(mean: 1440 / profile.backgroundRefreshPerDay))
      if t < best {
        best = t
        source = .backgroundRefresh
      }
    }
    if best < studyEnd {
      sim.schedule(at: best, kind: EventKind.appWake.rawValue, payload: source.rawValue, slot: Slot.wake)
    }
  }

  /// The first silent push after `t` that wakes the app. Pushes go out every `every` from the
  /// study's start; one sent while the phone is offline is held (the newest only, for AWARE's
  /// one-hour expiry) and delivered when the phone is back.
  mutating func nextPushWake(after t: SimTime, every: SimTime) -> SimTime? {
    let wakeChance = lowPower ? profile.silentPushWakeLowPower : profile.silentPushWake
    var slot = (t / every + 1) * every
    let limit = min(t + 7 * Tick.day, studyEnd)
    while slot < limit {
      if network(at: slot) != .unreachable {
        if deliveryStream.uniform() < wakeChance { return slot + Tick.seconds(2) }
        slot += every
      } else {
        guard let back = nextReachable(after: slot) else { return nil }
        // The newest push sent before the phone came back is the one delivered.
        let newest = ((back - 1) / every) * every
        if back - newest <= Tick.hour && deliveryStream.uniform() < wakeChance { return back + Tick.seconds(2) }
        slot = (back / every + 1) * every
      }
    }
    return nil
  }

  /// The first significant location change (the start or end of a trip, at least 5 minutes
  /// after the last one) after `t`, which falls in episode `current`, and before `limit` that
  /// relaunches the app; a relaunch follows 90 % of them (assumption: commutes are well over
  /// the 500 m threshold; at 750 m only half are seen).
  mutating func nextLocationWake(after t: SimTime, in current: Int, before limit: SimTime) -> SimTime? {
    var k = current
    let episodes = life.timeline.episodes
    let earliest = max(t, lastLocationWake + 5 * Tick.minute)
    let end = min(limit, t + 3 * Tick.day)
    k += 1
    while k < episodes.count && episodes[k].start < end {
      let e = episodes[k]
      let previous = episodes[k - 1]
      if e.start >= earliest && e.context.involvesTravel != previous.context.involvesTravel {
        if phoneStream.uniform() < 0.9 { return e.start }
      }
      k += 1
    }
    return nil
  }

  mutating func appWake(_ source: WakeSource, _ sim: inout Simulator) {
    guard (mode == .suspended || mode == .notRunning), !forceQuit, phoneIsOn, !droppedOut else { return }
    let now = sim.now
    if source == .locationChange { lastLocationWake = now }
    if proto.channel.kind == .local && proto.channel.refillInBackground && person.os == .ios {
      planner.refill(at: now, times: times, days: days, today: life.day(at: now))
    }
    if profile.wakeRestoresAnchor { return startRunning(now, &sim) }
    runs.begin(at: now)
    mode = .bounded
    sim.followUp(
      at: now + Tick.seconds(DeviceProfile.wakeRunSeconds), kind: EventKind.appTimer.rawValue,
      payload: AppTimer.runEnds.rawValue, slot: Slot.app)
    updateBattery(&sim)
  }

  mutating func backgroundTask(_ sim: inout Simulator) {
    guard let hours = proto.channel.backgroundTaskHours else { return }
    if phoneIsOn && !lowPower && !forceQuit && !droppedOut && phoneStream.bernoulli(proto.channel.backgroundTaskSuccess) {
      planner.refill(at: sim.now, times: times, days: days, today: life.day(at: sim.now))
    }
    sim.schedule(at: sim.now + Tick.minutes(hours * 60), kind: EventKind.backgroundTask.rawValue)
  }

  // MARK: Power

  /// Recomputes the battery's rate and the next level that matters.
  mutating func updateBattery(_ sim: inout Simulator) {
    let now = sim.now
    battery.update(to: now)
    var rate = 0.0  // percent per tick
    if phoneIsOn {
      rate -= awake ? drain.awake : drain.asleep
      if isRunning { rate -= drain.app }
      if lowPower { rate *= 0.7 }  // assumption: Low Power Mode saves about a third
    }
    if charging { rate = battery.level >= 100 ? 0 : drain.charge }
    battery.setRate(perTick: rate, at: now)
    if traceBattery { batteryTrace.append((now, battery.level)) }
    // A threshold after the next wake or bedtime needs no event: waking and going to bed
    // bring the battery up to date and schedule afresh.
    let change = nextAwakeChange(after: now)
    var next: SimTime?
    if rate < 0 {
      let offer = !lowPower && !profile.lowPowerMode && battery.level > DeviceProfile.lowPowerOfferLevel
      next = battery.time(reaching: offer ? DeviceProfile.lowPowerOfferLevel : 0, by: change)
    } else if rate > 0 {
      let back = lowPower && !profile.lowPowerMode && battery.level < 80
      next = battery.time(reaching: back ? 80 : 100, by: change)
    }
    if let next, next < studyEnd, next <= change {
      armBattery(at: max(next, now), &sim)
    } else {
      batteryDue = .max
    }
  }

  /// Sets when the battery next reaches a level that matters. The rate changes many times an
  /// hour (the app starting and stopping), moving that moment back and forth; an event
  /// already in the queue no later than it stands (firing early, it only waits on: see
  /// ``batteryEvent(_:)``), which spares a cancellation and an insertion at most changes of
  /// rate. (The kernel would sweep the cancelled events out too, but not the insertions.)
  @inline(__always)
  mutating func armBattery(at t: SimTime, _ sim: inout Simulator) {
    batteryDue = t
    if t < batteryEventAt {
      sim.cancel(slot: Slot.battery)
      sim.schedule(at: t, kind: EventKind.battery.rawValue, slot: Slot.battery)
      batteryEventAt = t
    }
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
    func transition(_ i: Int) -> SimTime { i % 2 == 0 ? life.wake[i / 2] : life.bed[i / 2] }
    let count = 2 * life.wake.count
    while awakeCursor < count && transition(awakeCursor) <= t { awakeCursor += 1 }
    awakeChange = awakeCursor < count ? transition(awakeCursor) : .max
    return awakeChange
  }

  mutating func batteryEvent(_ sim: inout Simulator) {
    let now = sim.now
    batteryEventAt = .max
    guard now >= batteryDue else {
      // Set for a moment the battery no longer reaches then: wait for the one it does.
      if batteryDue < .max { armBattery(at: batteryDue, &sim) }
      return
    }
    battery.update(to: now)
    let level = battery.level
    if level <= 0.0001 && !charging {
      phoneGoesOff(&sim, until: nil)
      return
    }
    if !charging && level <= DeviceProfile.lowPowerOfferLevel + 0.0001 && level > 0.0001 {
      if !lowPower && phoneStream.bernoulli(DeviceProfile.lowPowerAccept) {
        lowPower = true
        lowPowerSpans.begin(at: now)
        if mode == .anchored { armAppTimer(&sim) }
      }
      if awake && !daytimeCharging && phoneStream.bernoulli(DeviceProfile.chargeWhenLow) {
        // Plugged in within half an hour, for an hour and a half.
        let from = now + Tick.minutes(phoneStream.uniform(0, 30))
        sim.schedule(at: from, kind: EventKind.charger.rawValue, payload: 1)
        sim.schedule(at: from + Tick.minutes(DeviceProfile.daytimeChargeMinutes), kind: EventKind.charger.rawValue, payload: 0)
        daytimeCharging = true
      }
    }
    if charging && lowPower && !profile.lowPowerMode && level >= 80 - 0.0001 {
      lowPower = false
      lowPowerSpans.end(at: now)
    }
    updateBattery(&sim)
    // A battery at the offer level without taking it would fire again at once: move on.
    if !charging && !lowPower && abs(level - DeviceProfile.lowPowerOfferLevel) < 0.0001 {
      sim.cancel(slot: Slot.battery)
      batteryEventAt = .max
      batteryDue = .max
      if let empty = battery.time(reaching: 0), empty < studyEnd { armBattery(at: empty, &sim) }
    }
  }

  /// A daytime charge starts or ends.
  mutating func charger(plugged: Bool, _ sim: inout Simulator) {
    if plugged {
      guard !charging else { return }
      charging = true
      chargingSpans.begin(at: sim.now)
      if !phoneIsOn && !droppedOut { sim.schedule(at: sim.now, kind: EventKind.phoneOn.rawValue) }
    } else {
      daytimeCharging = false
      guard charging, awake else { return }
      charging = false
      chargingSpans.end(at: sim.now)
    }
    updateBattery(&sim)
  }

  /// The phone switches off: a reboot (back at `until`) or an empty battery (back when it
  /// is next plugged in).
  mutating func phoneGoesOff(_ sim: inout Simulator, until: SimTime?) {
    guard phoneIsOn else { return }
    halt(.off, &sim)
    phoneIsOn = false
    phoneOn.end(at: sim.now)
    updateBattery(&sim)
    if let until { sim.schedule(at: until, kind: EventKind.phoneOn.rawValue) }
  }

  mutating func phoneComesOn(_ sim: inout Simulator) {
    guard !phoneIsOn else { return }
    phoneIsOn = true
    phoneOn.begin(at: sim.now)
    mode = .notRunning
    forceQuit = false
    if person.os == .android && !droppedOut {
      startRunning(sim.now, &sim)  // a boot receiver restarts the service
    } else {
      updateBattery(&sim)
      armWake(&sim)
    }
    if heldPush >= 0, let back = nextReachable(after: sim.now) {
      sim.schedule(at: back, kind: EventKind.promptArrives.rawValue, payload: Int32(heldPush))
    }
  }

  mutating func dropout(_ sim: inout Simulator) {
    droppedOut = true
    enrolledUntil = sim.now
    halt(.notRunning, &sim)
    forceQuit = true
  }

  /// The app stops at once, foreground or background, and nothing is set to wake it: the
  /// phone goes off, or the participant leaves the study.
  mutating func halt(_ newMode: Mode, _ sim: inout Simulator) {
    if isRunning {
      if mode == .foreground { foreground.end(at: sim.now) }
      runs.end(at: sim.now)
    }
    mode = newMode
    sim.cancel(slot: Slot.app)
    sim.cancel(slot: Slot.wake)
  }

  // MARK: - The end

  /// Settles what is open at the study's end.
  mutating func finish(at end: SimTime) {
    for i in prompts.indices where progress[i] != .final {
      if progress[i] == .opened {
        continue  // submitted after the end: not counted as answered
      }
      if prompts[i].delivered >= 0 {
        promptExpires(i, at: end)
      } else {
        settle(i, droppedOut ? .droppedOut : .undelivered, droppedOut ? .droppedOut : .offline, at: end)
      }
    }
    for i in prompts.indices where progress[i] == .opened && prompts[i].status != .answered {
      settle(i, .expired, .tooLate, at: end)
    }
    truth.advance(to: min(enrolledUntil, end), timeline: life.timeline, stream: &stateStream)
    truth.close(&stateStream)
  }

  /// Closes the stretches still open at `t` (the app's runs, the foreground, the phone on,
  /// Low Power Mode, charging), once the run is over. In place: `closed(at:)` on a record
  /// still held here would copy it whole (a year of runs is hundreds of kilobytes).
  mutating func closeRecords(at t: SimTime) {
    runs.end(at: t)
    foreground.end(at: t)
    phoneOn.end(at: t)
    lowPowerSpans.end(at: t)
    chargingSpans.end(at: t)
  }

  /// Hands over the prompt records and the volunteered answers, keeping none, so that the
  /// caller's changes to them copy nothing.
  mutating func takeRecords() -> (prompts: [PromptRecord], volunteered: [PromptRecord]) {
    defer {
      prompts = []
      volunteered = []
    }
    return (prompts, volunteered)
  }

  /// The ground truth's waking mean over the participant's time in the study.
  public var trueWakingMean: Double { truth.wakingMean }
}
