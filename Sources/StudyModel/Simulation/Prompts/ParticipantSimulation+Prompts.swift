import Schedules
import SimKernel

// A prompt's life: due, delivered, noticed, decided, opened, submitted, dismissed or expired.
extension ParticipantSimulation {
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
}
