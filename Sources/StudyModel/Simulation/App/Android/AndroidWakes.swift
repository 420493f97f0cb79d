import SimKernel

// What runs an Android app that does not keep itself alive: its own periodic alarm
// (``AppDesign/Kind/osWoken``) or the study server's pushes (``AppDesign/Kind/pushDriven``),
// each held back by Doze unless exempt, and by App Standby's limits (what ends the app on
// either system: App/AppEnd.swift).
extension ParticipantSimulation {
  /// Arms what the participant's own phone does from the start: the Android app's first
  /// periodic wake, the app's end (``scheduleAppEnd(_:)``) and the maker's force-stops.
  mutating func startPhoneHabits(_ sim: inout Simulator) {
    if platform.ownWakes, let (every, source) = androidWakeEvery {
      sim.schedule(at: every, kind: EventKind.androidWake.rawValue, payload: source.rawValue)
    }
    scheduleAppEnd(&sim)
    if makerStopsApp { scheduleMakerStop(&sim) }
  }

  /// Whether the maker's battery manager force-stops this app around the clock, running or
  /// not: a maker whose kills cancel alarms (Huawei's, Oppo's: seed 002, [@ESMiraNotes], B),
  /// and an app that does not keep itself alive (a keep-alive app's kills come while it runs
  /// on its anchor, ``armAppTimer(_:)``).
  var makerStopsApp: Bool {
    platform.makerStops && maker.stopsAlarms && maker.killsPerDay > 0 && !proto.appDesign.keepsAlive
  }

  /// Schedules the maker's next force-stop (at ``Manufacturer/killsPerDay``).
  mutating func scheduleMakerStop(_ sim: inout Simulator) {
    let t = sim.now + Tick.minutes(streams.maker.exponential(mean: 1440 / maker.killsPerDay))
    if t < leaves { sim.schedule(at: t, kind: EventKind.makerStop.rawValue) }
  }

  /// The maker's battery manager force-stops the app unless it is in the foreground: its
  /// alarms are cancelled and pushes do not reach it until the participant opens it.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func makerStop(_ sim: inout Simulator) {
    scheduleMakerStop(&sim)
    guard power.phoneIsOn, !droppedOut, !app.removed, app.mode != .foreground else { return }
    if app.isRunning { stopRunning(.notRunning, &sim) }
    app.killedAt = sim.now
    app.forceStopped = true
  }

  /// How often the Android app is woken, and by what (nil: it keeps itself alive).
  var androidWakeEvery: (SimTime, WakeSource)? {
    switch proto.appDesign.kind {
    case .keepAlive: return nil
    case .osWoken: return (proto.appDesign.every, .androidAlarm)
    case .pushDriven: return (proto.silentPushEvery ?? proto.appDesign.every, .androidPush)
    }
  }

  /// The app's alarm fires, or the server's push arrives (at a maintenance window when Doze
  /// deferred it): the app runs briefly. Exempt from Doze: an exact alarm, with the
  /// permission (`setExactAndAllowWhileIdle`), and a high-priority push within the standby
  /// bucket's quota ([@AndroidDoze], A). A restricted app's alarms are let through once a
  /// day. A force-stopped app has no alarm and receives no push.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func androidWake(_ payload: Int32, _ sim: inout Simulator) {
    let now = sim.now
    let source = WakeSource(rawValue: payload & 0xff)!
    let deferred = payload & Self.deferredWake != 0
    if !deferred, let (every, _) = androidWakeEvery, now + every < leaves {
      sim.schedule(at: now + every, kind: EventKind.androidWake.rawValue, payload: source.rawValue)
    }
    guard power.phoneIsOn, !droppedOut, !app.removed, !app.forceStopped, !deepSleeping(at: now) else { return }
    // App Standby's buckets go with Doze (`population.phones.doze` switches off both); a
    // maker's sleeping apps (``Manufacturer/sleepsAfterDays``) are restricted either way.
    let idle = now - lastUse(before: now)
    let bucket =
      plan.phones.doze
      ? StandbyBucket(idle: idle, restrictedAfter: sleepsAfter ?? 8 * Tick.day)
      : (sleepsAfter.map { idle >= $0 } ?? false) ? .restricted : .active
    var exempt: Bool
    switch source {
    case .androidAlarm:
      guard now - app.lastAlarm >= bucket.alarmGap else { return }
      exempt = proto.appDesign.exactAlarms && phone.exactAlarms
    default:
      guard episode(at: now).network != .unreachable else { return }
      let day = Int(now / Tick.day)
      if day != app.pushDay {
        app.pushDay = day
        app.highPushes = 0
      }
      exempt = proto.appDesign.pushPriority == .high && app.highPushes < bucket.highPriorityPushesPerDay
      if exempt { app.highPushes += 1 }
    }
    if !deferred && !exempt && plan.phones.doze, let (dozing, window) = dozePhase(at: now), dozing {
      // Held to the next maintenance window.
      return sim.schedule(at: window, kind: EventKind.androidWake.rawValue, payload: source.rawValue | Self.deferredWake)
    }
    if source == .androidAlarm { app.lastAlarm = now }
    resume(exempt: exempt, &sim)
  }

  /// The androidWake payload's flag for a wake Doze deferred (not one of the periodic series).
  static let deferredWake: Int32 = 0x100

  /// Whether the maker has put the unused app into deep sleep at `t`: no background work and
  /// no notifications until the participant opens it (``Manufacturer/deepSleepsAfterDays``).
  func deepSleeping(at t: SimTime) -> Bool {
    guard let after = deepSleepsAfter else { return false }
    return t - lastUse(before: t) >= after
  }

  /// When the participant last used the app (the foreground), or the study's start.
  func lastUse(before t: SimTime) -> SimTime {
    app.foreground.isOpen ? t : app.foreground.lastEnd(before: t + 1) ?? 0
  }

  /// Doze's phase at `t` (``Doze/phase(at:quietSince:)``), or nil when the phone is not
  /// quiet: in use, charging, off, or moving.
  mutating func dozePhase(at t: SimTime) -> (dozing: Bool, until: SimTime)? {
    guard !app.foreground.isOpen, !power.charging, power.phoneIsOn else { return nil }
    let episodes = life.timeline.episodes
    var k = life.timeline.index(at: t, from: timelineCursor)
    guard Doze.isStill(episodes[k]) else { return nil }
    while k > 0 && Doze.isStill(episodes[k - 1]) { k -= 1 }
    var since = episodes[k].start
    if let f = app.foreground.lastEnd(before: t + 1) { since = max(since, f) }
    if let c = power.chargingSpans.lastEnd(before: t + 1) { since = max(since, c) }
    if let on = power.phoneOn.openSince { since = max(since, on) }  // the phone came back on
    return Doze.phase(at: t, quietSince: since)
  }
}
