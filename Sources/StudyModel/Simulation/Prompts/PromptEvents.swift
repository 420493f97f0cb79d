import SimKernel

// The prompt room's events, in the order of a prompt's life (``PromptLife``): due,
// delivered, noticed, decided, opened, submitted; expired, dismissed; reminded.
extension ParticipantSimulation {
  /// A prompt falls due: the channel takes it to the phone (``send(_:from:_:)``). On Android
  /// its alarm also restarts a terminated app (``AndroidRules/alarmRestartsService``).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptDue(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    timelineCursor = life.timeline.index(at: now, from: max(timelineCursor, Int(timetable.dueHints[i])))
    let here = life.timeline.episodes[timelineCursor]
    promptLife.records[i].context = here.context
    if dueLooks.deviation { promptLife.records[i].dueDeviation = stateDeviation(now) }
    if droppedOut { return promptLife.settle(i, .droppedOut, .droppedOut, at: now) }
    if dueLooks.company {
      (promptLife.records[i].dueState, promptLife.records[i].dueWithOthers) = lookAtState(now)
    }
    if platform.alarmRestartsService && app.mode == .notRunning && !app.forceQuit
      && !app.forceStopped
    {
      resume(exempt: true, &sim)
    }
    send(i, from: here, &sim)
  }

  /// The prompt is on the phone: its expiry and reminders start, and the participant notices
  /// it at once in the app, or by an alert or their next look (``noticeTime(after:alertOdds:)``).
  mutating func deliver(_ i: Int, at t: SimTime, _ sim: inout Simulator) {
    promptLife.records[i].delivered = t
    promptLife.records[i].context = context(at: t)
    (promptLife.records[i].trueState, promptLife.records[i].withOthers) = lookAtState(t)
    promptLife.states[i].deliveredAsleep = !awake
    let schedule = promptLife.records[i].schedule
    switch expiries[schedule] {
    case .after(let w):
      promptLife.states[i].expiresAt = t + w
      sim.schedule(at: t + w, kind: EventKind.promptExpires.rawValue, payload: Int32(i), priority: .late)
    case .untilNextSignal:
      let previous = promptLife.openUntilNext
      if previous >= 0 && previous != i { promptLife.expire(previous, at: t, droppedOut: droppedOut) }
      promptLife.openUntilNext = i
    case .never:
      break
    }
    if promptLife.states[i].remindersLeft > 0 {
      sim.schedule(at: t + reminders[schedule].interval, kind: EventKind.reminder.rawValue, payload: Int32(i))
    }
    cueFollowUps(.notified, source: schedule, at: t, &sim)
    if app.mode == .foreground {
      sim.schedule(at: t, kind: EventKind.promptNoticed.rawValue, payload: Noticed.payload(i, reminded: false))
    } else if let n = noticeTime(after: t, alertOdds: alertOdds(i)), promptLife.isOpen(i, at: n) {
      sim.schedule(at: n, kind: EventKind.promptNoticed.rawValue, payload: Noticed.payload(i, reminded: false))
    }
  }

  /// The participant notices the prompt (or a reminder of one declined) and decides
  /// (``Compliance/probability(_:logit:previousMissed:hour:contextOdds:stateZ:burden:)``): to
  /// answer, opening it at once, after being busy or later within the window
  /// (``Compliance/openingDelay(_:atOnce:busy:remaining:hour:_:)``) once they can, or not, perhaps
  /// dismissing it.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptNoticed(_ i: Int, reminded: Bool, _ sim: inout Simulator) {
    let now = sim.now
    guard promptLife.isOpen(i, at: now), !droppedOut else { return }
    switch promptLife.states[i].stage {
    case .waiting: break
    case .declined where reminded: break
    default: return
    }
    if promptLife.records[i].noticed < 0 { promptLife.records[i].noticed = now }
    let e = episode(at: now)
    let conditions = plan.dailyLife.conditions[e.context.rawValue]
    var z = 0.0
    if plan.compliance.stateDependence != 0 {
      // The state's momentary deviation from the person's level in their context (the
      // noise: standard normal in sds at any moment the protocol picks), and company's
      // effect when the participant is with others: answering depends on the state itself.
      z = stateDeviation(now)
    }
    let hour = Int((now % Tick.day) / Tick.hour)
    let schedule = promptLife.records[i].schedule
    let dayOdds = burden.dayOdds(Int(timetable.days[i]))
    let p = Compliance.probability(
      plan.compliance, dayOdds: dayOdds, previousMissed: previousMissed, hour: hour,
      contextOdds: conditions.willingness, stateZ: z, burden: burden.notice(schedule: schedule, at: now, reminded: reminded))
    if streams.response.uniform() < p {
      // When they open it: at once, after being busy, or later within the window.
      let e = person.engagement
      let remaining = deferralWindow(i, at: now)
      let atOnce = Compliance.atOnce(e.atOnce, plan.compliance, day: Int(timetable.days[i]))
      let delay = Compliance.openingDelay(
        plan.compliance.opening, atOnce: atOnce, busy: e.busy, remaining: remaining, hour: hour, &streams.response)
      let from = answerableFrom(now)
      let openAt = from == .max ? SimTime.max : max(from + delay, app.sessionUntil)
      promptLife.states[i].stage = .intending
      previousMissed = false
      if promptLife.isOpen(i, at: openAt) {
        sim.schedule(at: openAt, kind: EventKind.promptOpened.rawValue, payload: Int32(i))
      }
    } else {
      promptLife.states[i].stage = .declined
      previousMissed = true
      if streams.response.bernoulli(plan.compliance.dismissShare) {
        sim.schedule(
          at: now + Tick.seconds(streams.response.exponential(mean: Compliance.dismissSeconds)),
          kind: EventKind.promptDismissed.rawValue, payload: Int32(i))
      }
    }
  }

  /// The participant opens the prompt: after another survey, or once they can answer (not
  /// asleep, driving or exercising), if still in time; the answers take
  /// ``completionTime()``.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptOpened(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    guard promptLife.states[i].stage == .intending, promptLife.isOpen(i, at: now), !droppedOut, power.phoneIsOn else { return }
    if app.sessionUntil > now {
      sim.schedule(at: app.sessionUntil, kind: EventKind.promptOpened.rawValue, payload: Int32(i))
      return
    }
    if !canAnswer(at: now) {
      let from = answerableFrom(now)
      if promptLife.isOpen(i, at: from) {
        sim.schedule(at: from, kind: EventKind.promptOpened.rawValue, payload: Int32(i))
      }
      return
    }
    // The state first, then the record written at once (a write on each side of the call
    // checked twice that the records were not shared); the prompt's own state (opened, when
    // submitted) likewise once its answering time is drawn.
    let answer = answerState(now)
    promptLife.records[i].opened = now
    (promptLife.records[i].trueState, promptLife.records[i].withOthers, promptLife.records[i].reported) = answer
    // The answering takes its time; past the first item it may break off part-way (at the
    // person's break-off rate per minute of answering: a one-item survey is not left half-done).
    let schedule = promptLife.records[i].schedule
    let answering = completionTime(schedule: schedule, prompt: i)
    var end = now + answering
    var breaksOff = false
    let rate = person.engagement.breakOffPerMinute
    if rate > 0 && burden.items[min(schedule, burden.items.count - 1)] > 1 {
      let first = Tick.seconds(Tick.inSeconds(plan.compliance.completion) * Double(answering) / Double(burden.completionMedian(schedule)))
      // In minutes first: a rate near 0 draws a stop beyond any time the clock holds.
      let minutes = streams.response.exponential(mean: 1 / rate)
      if minutes < Tick.inMinutes(answering), case let stop = first + Tick.minutes(minutes), stop < answering {
        end = now + max(stop, Tick.second)
        breaksOff = true
      }
    }
    app.sessionUntil = end
    promptLife.states[i].stage = .opened
    promptLife.states[i].breaksOff = breaksOff
    promptLife.states[i].answeringTime = answering
    promptLife.states[i].submitAt = end
    enterForeground(&sim)
    sim.schedule(at: app.sessionUntil, kind: EventKind.promptSubmitted.rawValue, payload: Int32(i))
    if promptLife.openUntilNext == i { promptLife.openUntilNext = -1 }
  }

  /// The answers are submitted, unless the prompt expired while they were being given.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptSubmitted(_ i: Int, _ sim: inout Simulator) {
    if promptLife.states[i].stage == .opened {
      if promptLife.states[i].breaksOff {
        // Broken off: the items answered so far, the survey left.
        let opened = promptLife.records[i].opened
        promptLife.records[i].reached = Double(sim.now - opened) / Double(max(promptLife.states[i].answeringTime, 1))
        promptLife.settle(i, .partial, .brokeOff, at: sim.now)
      } else {
        promptLife.records[i].submitted = sim.now
        promptLife.records[i].reached = 1
        promptLife.settle(i, .answered, .none, at: sim.now)
        cueFollowUps(.finished, source: promptLife.records[i].schedule, at: sim.now, &sim)
      }
    }
    if sim.now >= app.sessionUntil { leaveForeground(&sim) }
  }

  /// The participant closes the alert of a prompt they declined. Under "until the next
  /// signal" (Mappiness) closing the alert leaves the survey pending, answerable from the app
  /// until the next signal: "presented immediately if a beep is pending", the app's badge
  /// showing it ([@MacKerron2012]); elsewhere the prompt is dismissed.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptDismissed(_ i: Int, at t: SimTime) {
    guard promptLife.states[i].stage == .declined, expiries[promptLife.records[i].schedule] != .untilNextSignal else {
      return
    }
    promptLife.settle(i, .dismissed, .unwilling, at: t)
  }

  /// A reminder re-alerts a prompt still undecided or declined, while it is open.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func reminder(_ i: Int, _ sim: inout Simulator) {
    let now = sim.now
    guard promptLife.isPending(i, at: now), power.phoneIsOn, !droppedOut else { return }
    promptLife.states[i].remindersLeft -= 1
    if let n = noticeTime(after: now, alertOdds: alertOdds(i)), promptLife.isOpen(i, at: n) {
      sim.schedule(at: n, kind: EventKind.promptNoticed.rawValue, payload: Noticed.payload(i, reminded: true))
    }
    if promptLife.states[i].remindersLeft > 0 {
      sim.schedule(
        at: now + reminders[promptLife.records[i].schedule].interval, kind: EventKind.reminder.rawValue,
        payload: Int32(i))
    }
  }

  /// How long prompt `i` stays answerable after `now` as the participant reckons it when they
  /// put it off "until convenient" (``Compliance/openingDelay(_:atOnce:busy:remaining:hour:_:)``):
  /// to its expiry; answerable until the next signal, to the next scheduled prompt, which the
  /// participant expects; ``CompliancePlan/deferralHorizon`` where it has no end it can see
  /// (no expiry, the study's last prompt) and at most that until the next signal (the night's
  /// gap). The one place the horizon applies.
  mutating func deferralWindow(_ i: Int, at now: SimTime) -> SimTime {
    if promptLife.states[i].expiresAt != .max { return promptLife.states[i].expiresAt - now }
    let horizon = Tick.minutes(plan.compliance.deferralHorizon)
    guard case .untilNextSignal = expiries[promptLife.records[i].schedule], let next = timetable.nextSignal(after: i) else {
      return horizon
    }
    return min(max(next - now, 0), horizon)
  }

  /// How closely the participant attends to prompt `i`'s alert (``Noticing/alertOdds(window:)``):
  /// its window is its expiry, or the time to the next scheduled prompt when it is
  /// answerable until the next signal (none: no expiry, or the last prompt). `mutating` only
  /// so that the call does not copy the participant (a non-mutating method on this large
  /// struct, called from a mutating one, copied it: +5 % instructions on the city study).
  mutating func alertOdds(_ i: Int) -> Double {
    let window: SimTime?
    switch expiries[promptLife.records[i].schedule] {
    case .after(let w): window = w
    case .untilNextSignal: window = timetable.nextSignal(after: i).map { $0 - timetable.times[i] }
    case .never: window = nil
    }
    return noticing.alertOdds(window: window)
  }
}

/// The promptNoticed event's payload: the prompt's index and whether a reminder (or an
/// opening of the app) brought it up, which lets a declined prompt be decided again.
enum Noticed {
  static func payload(_ i: Int, reminded: Bool) -> Int32 { Int32(i << 1 | (reminded ? 1 : 0)) }
  static func prompt(_ payload: Int32) -> Int { Int(payload >> 1) }
  static func reminded(_ payload: Int32) -> Bool { payload & 1 == 1 }
}
