import Schedules
import SimKernel

// The study app's lifecycle: running, suspended, killed, woken in the background.
extension ParticipantSimulation {
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
}
