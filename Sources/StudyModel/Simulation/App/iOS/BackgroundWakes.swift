import SimKernel

// What wakes a suspended or terminated iOS app in the background: the next silent push that
// gets through (``nextPushWake(after:every:)``), the next significant location change, or a
// background app refresh, whichever comes first. The rules: ``IOSRules``.
extension ParticipantSimulation {
  /// Draws the next background wake of the stopped app and arms it (Android apps are not
  /// woken this way: their alarms and boot receiver restart them). A force-quit app is woken
  /// by none of them (``IOSRules/forceQuitBlocksWakes``).
  mutating func armWake(_ sim: inout Simulator) {
    sim.cancel(slot: Slot.wake)
    guard platform.systemWakes, !(app.forceQuit && IOSRules.forceQuitBlocksWakes), power.phoneIsOn, !droppedOut,
      !app.removed
    else {
      return
    }
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
    // reach need no draw: the law of the first wake is the same.) Low Power Mode stops
    // location-change wakes and background refresh ([@AppleLowPower], A); location changes
    // relaunch the app only with the "Always" permission ([@AppleLocation], A), background
    // refresh only while its switch is on.
    if profile.significantChangeWake && !power.lowPower && phone.location == .always, let t = nextLocationWake(after: now, in: here, before: best) {
      best = t
      source = .locationChange
    }
    if profile.backgroundRefreshPerDay > 0 && !power.lowPower && phone.backgroundRefresh {
      // Fewer refreshes the longer the participant has not opened the app.
      let perDay = profile.backgroundRefreshPerDay * IOSRules.refreshUsage(idle: now - lastUse(before: now))
      let t = now + Tick.minutes(streams.phone.exponential(mean: 1440 / perDay))
      if t < best {
        best = t
        source = .backgroundRefresh
      }
    }
    if best < studyEnd {
      sim.schedule(at: best, kind: EventKind.appWake.rawValue, payload: source.rawValue, slot: Slot.wake)
    }
  }

  /// The first significant location change after `t` (which falls in episode `current`) and
  /// before `limit` that relaunches the app: the start or end of a trip, at least
  /// ``IOSRules/locationChangeGap`` after the last one, relaunching with
  /// ``IOSRules/locationRelaunchChance``.
  mutating func nextLocationWake(after t: SimTime, in current: Int, before limit: SimTime) -> SimTime? {
    var k = current
    let episodes = life.timeline.episodes
    let earliest = max(t, app.lastLocationWake + IOSRules.locationChangeGap)
    let end = min(limit, t + IOSRules.locationSearchDays * Tick.day)
    k += 1
    while k < episodes.count && episodes[k].start < end {
      let e = episodes[k]
      let previous = episodes[k - 1]
      if e.start >= earliest && e.context.involvesTravel != previous.context.involvesTravel {
        if streams.phone.uniform() < IOSRules.locationRelaunchChance { return e.start }
      }
      k += 1
    }
    return nil
  }
}
