import Schedules
import SimKernel

// Power: the battery, charging, Low Power Mode, the phone off and on.
extension ParticipantSimulation {
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
}
