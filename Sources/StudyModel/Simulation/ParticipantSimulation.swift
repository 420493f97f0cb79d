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
  public internal(set) var prompts: [PromptRecord] = []
  /// Answers given with no prompt pending.
  public internal(set) var volunteered: [PromptRecord] = []
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
  public internal(set) var scheduleFailed = false
  /// The part of the day the schedule samples on weekdays and weekends, in minutes after
  /// midnight (for normalising prompt times).
  public internal(set) var samplingWindows: (weekday: Block, weekend: Block)?

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
  public internal(set) var runs = Intervals()
  public internal(set) var foreground = Intervals()
  public internal(set) var phoneOn = Intervals()
  public internal(set) var lowPowerSpans = Intervals()
  public internal(set) var chargingSpans = Intervals()
  /// Battery level over time (time, percent) at every change of rate.
  public internal(set) var batteryTrace: [(SimTime, Double)] = []
  let traceBattery: Bool

  // MARK: Participant
  var truth: GroundTruth
  /// Whether the participant declined the last prompt they decided on (nil: none yet).
  var previousMissed: Bool?
  var droppedOut = false
  /// When the participant left the study (the study's end if they did not).
  public internal(set) var enrolledUntil: SimTime

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
