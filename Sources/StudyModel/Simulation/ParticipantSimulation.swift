import Schedules
import SimKernel

/// One participant's whole study as a discrete-event simulation with its own small queue.
///
/// The participant's days and contexts are drawn up front (``DailyLife``); the event loop
/// then follows each prompt's life and the phone's. The state lives in rooms, one folder each
/// under `Simulation/`, each with its own type and the events that change it:
///
/// | room | state | what happens there |
/// |---|---|---|
/// | `Timetable/` | ``Timetable`` | the prompts' times, a day's start, waking and going to bed |
/// | `Prompts/` | ``PromptLife`` | a prompt's life from due to answered or missed; openings |
/// | `Noticing/` | ``Noticing`` | an alert heard, the next look at the phone; where the participant is |
/// | `App/` (`iOS/`, `Android/`) | ``AppState`` | the app running, suspended, killed, woken |
/// | `Power/` | ``Power`` | battery, charging, Low Power Mode, the phone off and on |
/// | `Delivery/` | ``Delivery`` | local notifications and their plan, pushes, silent pushes |
///
/// Sensor yields are not events: they are counted afterwards over the stretches in which the
/// app ran (``CoverageCalculator``).
///
/// Randomness: every component draws from its own stream of the participant's address
/// (traits, day, context, response, state, phone, delivery, schedule), so that variants
/// differing in one respect share every other draw (common random numbers).
public struct ParticipantSimulation: EventHandler {
  // MARK: Inputs
  let plan: StudyPlan
  let proto: ProtocolPlan
  /// Each schedule's expiry and reminders, looked up once (a schedule is copied whole when
  /// read from the plan).
  let perSchedule: (expiries: [ExpiryPolicy], reminders: [Reminders])
  /// The participant's traits.
  public let person: Person
  /// Their own phone (``PhoneSetup``: its profile, traits, maker and platform's rules).
  let device: PhoneSetup
  /// Their days and contexts.
  public let life: DailyLife
  let studyEnd: SimTime
  /// When the participant leaves: the start of their dropout day, or the study's end.
  let leaves: SimTime

  // MARK: Streams
  /// The participant's random streams (``ParticipantStreams``).
  var streams: ParticipantStreams

  // MARK: Rooms
  var timetable: Timetable
  /// Follow-up schedules: prompts created while the study runs.
  var followUps: FollowUps
  var promptLife: PromptLife
  var burden: PromptBurden
  var noticing: Noticing
  var app = AppState()
  var power: Power
  var delivery: Delivery

  // MARK: The participant
  var awake = false
  /// The episode of the participant's timeline the last lookup found (searches start there).
  var timelineCursor = 0
  var truth: GroundTruth
  /// Company ("with others") and the person's slope; empty when the plan has none.
  let company: Company
  /// What the simulation looks at when a prompt falls due, decided once from the plan: the
  /// state and company (company on), the state's deviation (a variable takes the state).
  let dueLooks: (company: Bool, deviation: Bool)
  /// Whether the participant declined the last prompt they decided on (nil: none yet).
  var previousMissed: Bool?
  var droppedOut = false
  /// When the participant left the study (the study's end if they did not).
  public internal(set) var enrolledUntil: SimTime

  // MARK: Running
  /// Events handled by ``run()`` and how many of them were handed over without the queue;
  /// whether the simulator runs in its reference mode (``Simulator/queuesEverything``: for
  /// the tests that check the queue-saving techniques change nothing).
  var running = (eventsHandled: 0, handedOver: 0, queuesEverything: false)

  /// Sets up a participant: draws their traits, days and every prompt's scheduled time.
  public init(plan: StudyPlan, seed: UInt64, replication: UInt32, participant: UInt32, traceBattery: Bool = false) {
    func stream(_ p: Purpose) -> RandomStream {
      RandomStream(StreamAddress(seed: seed, replication: replication, participant: participant, purpose: p))
    }
    // A participant who joins later lives the plan from their own first day.
    let joinDay = Self.joinDay(plan, stream)
    let plan = plan.joining(on: joinDay)
    self.plan = plan
    proto = plan.protocolPlan
    let reminders = plan.protocolPlan.schedules.indices.map { plan.protocolPlan.reminders(ofSchedule: $0) }
    perSchedule = (plan.protocolPlan.schedules.indices.map { plan.protocolPlan.expiry(ofSchedule: $0) }, reminders)
    var (traits, zones, answering) = (stream(.traits), stream(.zone), stream(.answering))
    person = Person(plan: plan, stream: &traits, zones: &zones, answering: &answering, joinDay: joinDay)
    var phoneTraits = stream(.phoneTraits)
    device = PhoneSetup(plan: plan, person: person, stream: &phoneTraits)
    noticing = Noticing(person: person, compliance: plan.compliance)
    var dayStream = stream(.day)
    var contextStream = stream(.context)
    // Days up to and including the dropout day (whose start is the participant's last moment).
    life = DailyLife(
      plan: plan, person: person, dayCount: person.dropoutDay < plan.days ? person.dropoutDay + 1 : nil,
      days: &dayStream, contexts: &contextStream)
    studyEnd = SimTime(plan.days) * Tick.day
    leaves = person.dropoutDay < plan.days ? SimTime(person.dropoutDay) * Tick.day : studyEnd
    enrolledUntil = studyEnd
    streams = ParticipantStreams(
      response: stream(.response), phone: stream(.phone), delivery: stream(.delivery), state: stream(.state),
      habit: stream(.habit), phoneLife: stream(.phoneLife), maker: stream(.maker))
    delivery = Delivery(channel: proto.channel, os: person.os, reminders: proto.mostReminders)
    power = Power(
      profile: device.profile, lowPowerHabit: device.phone.lowPowerHabit, sensorDrain: SensorDrain.perHour(proto.sensors), level: streams.phone.uniform(Power.startLevels.low, Power.startLevels.high), traces: traceBattery)
    // The truth's path from a stream of its own, to the end of enrolment (the dropout day's
    // start or the study's end: the participant's, not the protocol's).
    truth = GroundTruth(
      plan: plan.dailyLife.state, conditions: plan.dailyLife.conditions, personLevel: person.stateLevel,
      first: .asleep, end: leaves,
      pathStream: stream(.truthPath))
    company = Self.company(plan, life, stream)
    dueLooks = (plan.dailyLife.state.company.isOn, plan.answers.readsState)
    // Each schedule draws from its own stream (the first from the schedule kind's first).
    var scheduleStreams = proto.schedules.indices.map { stream(.schedule($0)) }
    var settingsStream = stream(.settings)
    let unlocks = proto.schedules.contains { $0.trigger?.event == .phoneUnlock }
    var calls: PhoneCalls?
    if proto.schedules.contains(where: { $0.trigger?.event == .callEnd }) {
      var callStream = stream(.calls)
      calls = PhoneCalls(timeline: life.timeline, until: studyEnd, perDay: plan.dailyLife.callsPerDay, stream: &callStream)
    }
    timetable = Timetable(
      plan: plan, person: person, life: life,
      checks: unlocks
        ? Self.phoneChecks(seed: seed, replication: replication, participant: participant, life: life, person: person, until: studyEnd)
        : PhoneChecks(),
      calls: calls, settings: &settingsStream, streams: &scheduleStreams)
    followUps = FollowUps(proto.schedules, streams: scheduleStreams, os: person.os)
    promptLife = PromptLife(timetable, reminders: reminders)
    burden = PromptBurden(
      plan, engagement: person.engagement,
      careless: Careless.fast(plan, seed: seed, replication: replication, participant: participant))
  }

  /// The day after the study's first on which the participant joins: 0 unless the plan
  /// spreads enrolment, then uniform over its days, from a stream of its own.
  static func joinDay(_ plan: StudyPlan, _ stream: (Purpose) -> RandomStream) -> Int {
    guard plan.enrolmentDays > 1 else { return 0 }
    var s = stream(.enrolment)
    return Int(s.integer(below: UInt64(plan.enrolmentDays)))
  }

  /// Company ("with others") along the participant's days, from a stream of its own; none
  /// when the plan records none.
  static func company(_ plan: StudyPlan, _ life: DailyLife, _ stream: (Purpose) -> RandomStream) -> Company {
    guard plan.dailyLife.state.company.isOn else { return Company() }
    var s = stream(.company)
    return Company(plan.dailyLife.state.company, timeline: life.timeline, stream: &s)
  }

  /// The participant's phone checks until `end`, from streams of their own (the same
  /// whether drawn for prompts triggered by unlocking or for the screen's events).
  static func phoneChecks(
    seed: UInt64, replication: UInt32, participant: UInt32, life: DailyLife, person: Person, until end: SimTime
  ) -> PhoneChecks {
    func stream(_ p: Purpose) -> RandomStream {
      RandomStream(StreamAddress(seed: seed, replication: replication, participant: participant, purpose: p))
    }
    var counts = stream(.checkCounts)
    var places = stream(.checkPlaces)
    return PhoneChecks(
      timeline: life.timeline, hours: Int(end / Tick.hour), checksPerHour: person.checksPerHour, counts: &counts,
      places: &places)
  }

  /// Runs the whole study, then settles what is still open at its end.
  public mutating func run() {
    var sim = Simulator(capacity: 64, slots: Slot.count)
    sim.queuesEverything = queuesEverything
    start(&sim)
    // A participant who drops out leaves at the start of that day: nothing after it counts,
    // so the simulation stops there and the later prompts are settled without events.
    eventsHandled = sim.run(until: leaves, &self)
    handedOver = sim.eventsHandedOver
    if droppedOut {
      let now = sim.now
      if power.traces {
        // Close the trace: the level falls or rises on the same line until the dropout.
        power.battery.update(to: now)
        power.trace.append((now, power.battery.level))
      }
      for i in 0..<timetable.count where promptLife.states[i].stage == .waiting && !promptLife.isDelivered(i) {
        let due = timetable.dueTime(i)
        guard due > now else { continue }
        // The state when it would have fallen due, as for one due before the dropout
        // (promptDue): the answers' variables that take it have their complete-data value.
        if dueLooks.deviation { promptLife.records[i].dueDeviation = stateDeviation(due) }
        promptLife.settle(i, .droppedOut, .droppedOut, at: due)
      }
    }
    finish(at: studyEnd)
  }

  /// The study starts at midnight with the participant asleep, the app running and the
  /// phone on (charging overnight with the profile's ``DeviceProfile/chargeNightly``; not
  /// plugged in, at the level the day before left, ``Power/startUncharged(wake:bed:appRunning:chargeWhenLow:stream:)``).
  mutating func start(_ sim: inout Simulator) {
    // Room for 72 run stretches a day (a silent push every half hour and a wake an hour;
    // more grow the array, and pages never touched cost nothing).
    app.runs.reserveCapacity(72 * plan.days)
    // And for the other stretches' usual counts: a foreground stretch for each prompt opened
    // and a spontaneous opening a day, a few background wakes and charges a day (more grow
    // the arrays: each growth copies them).
    app.foreground.reserveCapacity(timetable.count + plan.days)
    app.wakeRuns.reserveCapacity(4 * plan.days)
    power.chargingSpans.reserveCapacity(3 * plan.days)
    if app.trace { app.set(.anchored, at: 0) }
    if canAnchor(fromForeground: true) {
      app.runs.begin(at: 0)
    } else {
      // Opened at enrolment and left: the app waits for its first wake.
      app.set(platform.stoppedMode, at: 0)
    }
    if delivery.plansOnPhone {
      refillPlan(at: 0)
    } else {
      delivery.planner.planAll(count: timetable.count)
    }
    if streams.phoneLife.bernoulli(profile.chargeNightly) {
      power.chargingSpans.begin(at: 0)
    } else if profile.chargeNightly > 0 {
      power.startUncharged(
        wake: timetable.wake[0] - Tick.day, bed: timetable.bed[0] - Tick.day, appRunning: app.isRunning,
        chargeWhenLow: profile.chargeWhenLow, stream: &streams.phoneLife)
    }
    // A phone never plugged in at night starts at the level drawn (its charge at enrolment).
    updateBattery(&sim)
    armAppTimer(&sim)
    if app.isStopped { armWake(&sim) }
    startPhoneHabits(&sim)
    sim.schedule(at: 0, kind: EventKind.dayStarts.rawValue, payload: 0, priority: .urgent)
    if let every = proto.channel.backgroundTaskEvery, delivery.plansOnPhone {
      sim.schedule(at: every, kind: EventKind.backgroundTask.rawValue)
    }
  }

  // MARK: - Events

  /// The dispatch: each event to its room.
  ///
  /// Every handler is out of line (`@inline(never)`), so that the dispatch (inlined into the
  /// simulator's loop) is a jump table of calls that saves no registers per event: with the
  /// handlers inlined here, every event paid for saving and restoring the six registers that
  /// some handler needs (9.0 M instructions on the city study; each handler now saves only
  /// what it uses: 8.4 M fewer in all).
  public mutating func handle(_ event: Event, _ sim: inout Simulator) {
    let i = Int(event.payload)
    switch EventKind.of(event.kind) {
    case .dayStarts: dayStarts(i, &sim)
    case .wakes: setAwake(true, &sim)
    case .goesToBed: setAwake(false, &sim)
    case .promptDue: dueFalls(i, &sim)
    case .followUpDue: promptDue(i, &sim)
    case .promptArrives: promptArrives(i, &sim)
    case .promptNoticed: promptNoticed(Noticed.prompt(event.payload), reminded: Noticed.reminded(event.payload), &sim)
    case .promptOpened: promptOpened(i, &sim)
    case .promptSubmitted: promptSubmitted(i, &sim)
    case .promptExpires: promptLife.expire(i, at: sim.now, droppedOut: droppedOut)
    case .promptDismissed: promptDismissed(i, at: sim.now)
    case .reminder: reminder(i, &sim)
    case .appTimer: appTimer(AppTimer(rawValue: event.payload)!, &sim)
    case .appWake: appWake(WakeSource(rawValue: event.payload)!, &sim)
    case .spontaneousOpen: spontaneousOpen(volunteer: i == 1, &sim)
    case .sessionEnds: if sim.now >= app.sessionUntil { leaveForeground(&sim) }
    case .battery: batteryEvent(&sim)
    case .reboot: phoneGoesOff(&sim, until: sim.now + Tick.seconds(DeviceProfile.rebootSeconds))
    case .phoneOn: phoneComesOn(&sim)
    case .backgroundTask: backgroundTask(&sim)
    case .dropout: dropout(&sim)
    case .charger: charger(plugged: i == 1, &sim)
    case .androidWake: androidWake(event.payload, &sim)
    case .appRemoved: removeApp(&sim)
    case .makerStop: makerStop(&sim)
    case .buildExpired: removeApp(expired: true, &sim)
    }
  }

  /// The participant leaves the study: the app stops for good.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func dropout(_ sim: inout Simulator) {
    droppedOut = true
    enrolledUntil = sim.now
    halt(.notRunning, &sim)
    app.forceQuit = true
  }

  // MARK: - The end

  /// Settles what is open at the study's end.
  mutating func finish(at end: SimTime) {
    for i in 0..<timetable.count where promptLife.states[i].stage != .final {
      if promptLife.states[i].stage == .opened {
        continue  // submitted after the end: not counted as answered
      }
      if promptLife.isDelivered(i) {
        promptLife.expire(i, at: end, droppedOut: droppedOut)
      } else {
        promptLife.settle(i, droppedOut ? .droppedOut : .undelivered, droppedOut ? .droppedOut : .offline, at: end)
      }
    }
    for i in 0..<timetable.count where promptLife.states[i].stage == .opened && promptLife.records[i].status != .answered {
      promptLife.settle(i, .expired, .tooLate, at: end)
    }
    truth.finish(timeline: life.timeline)
    if !followUps.isEmpty { promptLife.putInTimeOrder() }
  }

  /// Closes the stretches still open at `t` (the app's runs, the foreground, the phone on,
  /// Low Power Mode, charging), once the run is over. In place: `closed(at:)` on a record
  /// still held here would copy it whole (a year of runs is hundreds of kilobytes).
  mutating func closeRecords(at t: SimTime) {
    app.close(at: t)
    power.close(at: t)
  }

  /// Hands over the prompt records and the volunteered answers, keeping none, so that the
  /// caller's changes to them copy nothing.
  mutating func takeRecords() -> (prompts: [PromptRecord], volunteered: [PromptRecord]) {
    defer {
      promptLife.records = []
      promptLife.volunteered = []
    }
    return (promptLife.records, promptLife.volunteered)
  }

  // MARK: - What the run produced

  /// Every prompt of the study, in time order.
  public var prompts: [PromptRecord] { promptLife.records }
  /// Answers given with no prompt pending.
  public var volunteered: [PromptRecord] { promptLife.volunteered }
  /// Whether the scheduler could not be built for this participant's window.
  public var scheduleFailed: Bool { timetable.scheduleFailed }
  /// The part of the day the schedule samples on weekdays and weekends, in minutes after
  /// midnight (for normalising prompt times).
  public var samplingWindows: (weekday: Block, weekend: Block)? { timetable.samplingWindows }
  /// Stretches in which the app ran, was in the foreground, the phone was on, Low Power Mode
  /// was on, the phone was charging.
  public var runs: Intervals { app.runs }
  public var foreground: Intervals { app.foreground }
  public var phoneOn: Intervals { power.phoneOn }
  public var lowPowerSpans: Intervals { power.lowPowerSpans }
  public var chargingSpans: Intervals { power.chargingSpans }
  /// Battery level over time (time, percent) at every change of rate.
  public var batteryTrace: [(SimTime, Double)] { power.trace }
  /// The ground truth's waking mean over the participant's time in the study (company's
  /// effect included).
  public var trueWakingMean: Double {
    truth.wakingMean + company.slope * company.minutes(before: leaves) / truth.wakingMinutes
  }

  /// Looks at the true state at `t` (``GroundTruth/advance(to:timeline:stream:)``): its value
  /// with company's effect, and whether the participant is with others (-1: company off).
  mutating func lookAtState(_ t: SimTime) -> (value: Double, withOthers: Int8) {
    truth.advance(to: t, timeline: life.timeline, stream: &streams.state)
    guard plan.dailyLife.state.company.isOn else { return (truth.value, -1) }
    let with = company.isWithOthers(at: t)
    return (truth.value + (with ? company.slope : 0), with ? 1 : 0)
  }

  /// The state's momentary deviation from the person's level in their context at `t`, in
  /// sds, company's effect included: what answering depends on (`state_dependence`) and what
  /// a variable's effect of the state reads.
  mutating func stateDeviation(_ t: SimTime) -> Double {
    truth.advance(to: t, timeline: life.timeline, stream: &streams.state)
    return (truth.noise + company.effect(at: t)) / plan.dailyLife.state.sd
  }

  /// An answer about the state at `t`: the true state and company (``lookAtState(_:)``), and
  /// the report around it with the report noise.
  mutating func answerState(_ t: SimTime) -> (trueState: Double, withOthers: Int8, reported: Double) {
    let look = lookAtState(t)
    return (look.value, look.withOthers, look.value + streams.state.normal(sd: plan.dailyLife.state.reportNoise))
  }
}
