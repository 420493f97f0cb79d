import SimKernel

// The power room's events: the battery reaching a level that matters, a charger plugged in
// or out, the phone switching off and on. State: ``Power``.
extension ParticipantSimulation {
  /// Recomputes the battery's rate and arms the event for the next level that matters.
  @inline(__always)
  mutating func updateBattery(_ sim: inout Simulator) {
    setBatteryRate(&sim)
    if power.traces { power.recordTrace(at: sim.now) }
  }

  /// The update's work without the trace: a leaf but for the rare move of the battery's
  /// event, which it tail-calls, so it saves only two registers (the trace's call, inside
  /// it, made it save six on every change of rate: 4.6 M instructions on the city study).
  @inline(never)
  mutating func setBatteryRate(_ sim: inout Simulator) {
    let now = sim.now
    power.battery.update(to: now)
    let rate = power.rate(awake: awake, appRunning: app.isRunning)
    power.battery.setRate(perTick: rate, at: now)
    // A level reached after the next wake or bedtime needs no event: waking and going to bed
    // bring the battery up to date and arm afresh.
    let change = timetable.nextAwakeChange(after: now)
    if let next = power.nextLevel(by: change), next < studyEnd, next <= change {
      armBattery(at: max(next, now), &sim)
    } else {
      power.due = .max
    }
  }

  /// Sets when the battery next reaches a level that matters. The rate changes many times an
  /// hour (the app starting and stopping), moving that moment back and forth; an event
  /// already in the queue no later than it stands (firing early, it only waits on: see
  /// ``batteryEvent(_:)``), which spares a cancellation and an insertion at most changes of
  /// rate.
  @inline(__always)
  mutating func armBattery(at t: SimTime, _ sim: inout Simulator) {
    power.due = t
    if t < power.eventAt { moveBatteryEvent(to: t, &sim) }
  }

  /// Moves the battery's event in the queue to `t`. Out of line: most changes of rate move no
  /// event, and the battery's update then calls nothing and saves no registers.
  @inline(never)
  mutating func moveBatteryEvent(to t: SimTime, _ sim: inout Simulator) {
    sim.cancel(slot: Slot.battery)
    sim.schedule(at: t, kind: EventKind.battery.rawValue, slot: Slot.battery)
    power.eventAt = t
  }

  /// The battery reaches a level that matters: empty (the phone goes off), the low-battery
  /// warning (Low Power Mode offered, a charge soon), or 80 % while charging (Low Power Mode
  /// off).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func batteryEvent(_ sim: inout Simulator) {
    let now = sim.now
    power.eventAt = .max
    guard now >= power.due else {
      // Set for a moment the battery no longer reaches then: wait for the one it does.
      if power.due < .max { armBattery(at: power.due, &sim) }
      return
    }
    power.battery.update(to: now)
    let level = power.battery.level
    let offer = DeviceProfile.lowPowerOfferLevel
    if level <= Power.empty + Power.reached && !power.charging {
      phoneGoesOff(&sim, until: nil)
      return
    }
    if !power.charging && level <= offer + Power.reached && level > Power.empty + Power.reached {
      if !power.lowPower && streams.phone.bernoulli(profile.lowPowerAccept) {
        power.lowPowerSpans.begin(at: now)
        if app.mode == .anchored { armAppTimer(&sim) }
      }
      if awake && !power.daytimeCharging && streams.phone.bernoulli(profile.chargeWhenLow) {
        let from = now + Tick.minutes(streams.phone.uniform(0, DeviceProfile.chargeWithinMinutes))
        sim.schedule(at: from, kind: EventKind.charger.rawValue, payload: 1)
        sim.schedule(at: from + Tick.minutes(DeviceProfile.daytimeChargeMinutes), kind: EventKind.charger.rawValue, payload: 0)
        power.daytimeCharging = true
      }
    }
    if power.charging && power.leavesLowPowerCharging && level >= Power.lowPowerOffLevel - Power.reached {
      power.lowPowerSpans.end(at: now)
    }
    updateBattery(&sim)
    // A battery at the offer level without taking it would fire again at once: move on.
    if !power.charging && !power.lowPower && abs(level - offer) < Power.reached {
      sim.cancel(slot: Slot.battery)
      power.eventAt = .max
      power.due = .max
      if let empty = power.battery.time(reaching: Power.empty), empty < studyEnd { armBattery(at: empty, &sim) }
    }
  }

  /// A daytime charge starts or ends.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func charger(plugged: Bool, _ sim: inout Simulator) {
    if plugged {
      guard !power.charging else { return }
      power.chargingSpans.begin(at: sim.now)
      if !power.phoneIsOn && !droppedOut { sim.schedule(at: sim.now, kind: EventKind.phoneOn.rawValue) }
    } else {
      power.daytimeCharging = false
      guard power.charging, awake else { return }
      power.chargingSpans.end(at: sim.now)
    }
    updateBattery(&sim)
  }

  /// The phone switches off: a reboot (back at `until`) or an empty battery (back when it
  /// is next plugged in).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func phoneGoesOff(_ sim: inout Simulator, until: SimTime?) {
    guard power.phoneIsOn else { return }
    halt(.off, &sim)
    power.phoneOn.end(at: sim.now)
    updateBattery(&sim)
    if let until { sim.schedule(at: until, kind: EventKind.phoneOn.rawValue) }
  }

  /// The phone is on again: the app is not running until something starts it (on Android
  /// its boot receiver, ``AndroidRules/bootRestartsService``), and a push held for it comes in.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func phoneComesOn(_ sim: inout Simulator) {
    guard !power.phoneIsOn else { return }
    power.phoneOn.begin(at: sim.now)
    app.set(.notRunning, at: sim.now)
    app.forceQuit = app.removed
    if platform.bootRestartsService && !droppedOut && !app.forceStopped && !app.removed {
      resume(exempt: true, &sim)
    } else {
      updateBattery(&sim)
      armWake(&sim)
    }
    // A push APNs held while the phone was off arrives if the phone is reachable before APNs
    // gives it up (`protocol.channel.store`, from when it was sent); otherwise it is lost to
    // the phone having been off.
    if delivery.heldPush >= 0 {
      let held = delivery.heldPush
      if let back = heldPushArrival(sent: timetable.times[held], after: sim.now) {
        sim.schedule(at: back, kind: EventKind.promptArrives.rawValue, payload: Int32(held))
      } else if promptLife.states[held].stage == .waiting, !promptLife.isDelivered(held) {
        delivery.heldPush = -1
        promptLife.settle(held, .undelivered, .phoneOff, at: sim.now)
      }
    }
  }
}
