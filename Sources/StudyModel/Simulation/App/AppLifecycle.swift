import SimKernel

// The app room's events: the app starting and stopping, the participant bringing it to the
// foreground, the timers that stop it in the background, and a wake. State: ``AppState``;
// the operating systems' rules: ``IOSRules``, ``AndroidRules``.
extension ParticipantSimulation {
  /// The app starts running on its anchor (and nothing is set to wake it any more).
  mutating func startRunning(_ t: SimTime, _ sim: inout Simulator) {
    if proto.channel.refillInBackground { refillPlan(at: t) }
    app.runs.begin(at: t)
    app.set(.anchored, at: t)
    sim.cancel(slot: Slot.wake)
    armAppTimer(&sim)
    updateBattery(&sim)
  }

  /// The app stops running in the background; suspended or terminated, it waits for a wake.
  mutating func stopRunning(_ newMode: AppState.Mode, _ sim: inout Simulator) {
    endRuns(at: sim.now)
    app.set(newMode, at: sim.now)
    sim.cancel(slot: Slot.app)
    updateBattery(&sim)
    if app.isStopped { armWake(&sim) }
  }

  /// Closes the app's run (and its wake's) at `t`.
  mutating func endRuns(at t: SimTime) {
    app.runs.end(at: t)
    app.wakeRuns.end(at: t)
    app.exemptRuns.end(at: t)
  }

  /// Whether the app can run on its anchor now: only an app designed to keep itself alive
  /// (``AppDesign/Kind/keepAlive``); on iOS the anchor is continuous location, which needs
  /// the location permission: started in the foreground with either permission, from the
  /// background only with "Always" ([@AppleLocation], A).
  func canAnchor(fromForeground: Bool) -> Bool {
    guard proto.appDesign.keepsAlive, !app.removed else { return false }
    guard platform.anchorNeedsPermission else { return true }
    return phone.location == .always || (fromForeground && phone.location == .whileUsing)
  }

  /// A stopped app's code runs (nothing changes for one that runs): on its anchor where it
  /// can, otherwise for a bounded time.
  mutating func resume(exempt: Bool, _ sim: inout Simulator) {
    guard !app.isRunning else { return }
    if canAnchor(fromForeground: false) { return startRunning(sim.now, &sim) }
    runBriefly(exempt: exempt, &sim)
  }

  /// The app runs on for ``DeviceProfile/wakeRunSeconds`` in the background and stops
  /// (Android: exempt from Doze when an exact alarm or a high-priority push woke it).
  mutating func runBriefly(exempt: Bool, _ sim: inout Simulator) {
    let now = sim.now
    sim.cancel(slot: Slot.wake)
    app.runs.begin(at: now)
    app.wakeRuns.begin(at: now)
    if exempt { app.exemptRuns.begin(at: now) }
    app.set(.bounded, at: now)
    sim.schedule(
      at: now + Tick.seconds(DeviceProfile.wakeRunSeconds), kind: EventKind.appTimer.rawValue,
      payload: AppTimer.runEnds.rawValue, slot: Slot.app)
    updateBattery(&sim)
  }

  /// The participant opens the app: it runs in the foreground, and a planning app tops up
  /// its notifications.
  mutating func enterForeground(_ sim: inout Simulator) {
    let now = sim.now
    sim.cancel(slot: Slot.app)
    sim.cancel(slot: Slot.wake)
    if !app.isRunning { app.runs.begin(at: now) }
    app.set(.foreground, at: now)
    app.participant(awake: false, at: now)
    app.unattended = 0
    app.forceQuit = false
    app.forceStopped = false
    app.foreground.begin(at: now)
    refillPlan(at: now)
    updateBattery(&sim)
  }

  /// The participant leaves the app: it goes on in the background on its anchor.
  /// An app that cannot keep itself alive runs on for ``DeviceProfile/wakeRunSeconds`` and
  /// stops.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func leaveForeground(_ sim: inout Simulator) {
    guard app.mode == .foreground else { return }
    app.foreground.end(at: sim.now)
    app.attended(at: sim.now, awake: awake)
    guard canAnchor(fromForeground: true) else { return runBriefly(exempt: false, &sim) }
    app.set(.anchored, at: sim.now)
    armAppTimer(&sim)
    updateBattery(&sim)
  }

  /// Draws the next thing that stops the app running on its anchor in the background (the
  /// operating system's ``StopRates``: all while the participant is awake and using the phone,
  /// for what other apps do is what pushes the study app out; an Android maker's battery
  /// manager around the clock). The earliest of these
  /// competing clocks is the only one scheduled; drawn for after the next wake or bedtime, it
  /// is not queued: the app is then anchored and the timer drawn afresh (``setAwake(_:_:)``),
  /// or has left that mode, which cancels it.
  mutating func armAppTimer(_ sim: inout Simulator) {
    sim.cancel(slot: Slot.app)
    guard app.mode == .anchored else { return }
    var rates = platform.stopRates(profile, lowPower: power.lowPower, ownForceQuits: phone.forceQuitPerDay, maker: maker)
    if !awake { rates = StopRates(makerKill: rates.makerKill) }
    var best = SimTime.max
    var which = AppTimer.suspend
    func consider(_ perHour: Double, _ kind: AppTimer, _ s: inout RandomStream, after: SimTime = 0) {
      guard perHour > 0 else { return }
      let t = sim.now + after + Tick.minutes(s.exponential(mean: 60 / perHour))
      if t < best {
        best = t
        which = kind
      }
    }
    // Low Power Mode's clock runs once the app has been left unattended long enough.
    let unattended = rates.suspendAfter > 0 ? app.unattendedTime(at: sim.now) : 0
    consider(rates.suspend, .suspend, &streams.phone, after: max(0, rates.suspendAfter - unattended))
    consider(rates.kill, .kill, &streams.phone)
    consider(rates.forceQuit, .forceQuit, &streams.phone)
    consider(rates.makerKill, .makerKill, &streams.phone)
    guard best < .max else { return }
    sim.schedule(
      at: best, kind: EventKind.appTimer.rawValue, payload: which.rawValue, slot: Slot.app,
      cancelledAt: timetable.nextAwakeChange(after: sim.now))
  }

  /// The app's lifecycle timer fires.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func appTimer(_ kind: AppTimer, _ sim: inout Simulator) {
    switch kind {
    case .suspend, .runEnds:
      guard app.isInBackground else { return }
      stopRunning(platform.stoppedMode, &sim)
    case .kill:
      guard app.isInBackground else { return }
      app.killedAt = sim.now
      stopRunning(.notRunning, &sim)
      if platform.stickyRestart && profile.wakeRestoresAnchor && proto.appDesign.keepsAlive {
        sim.schedule(
          at: sim.now + AndroidRules.stickyRestartDelay, kind: EventKind.appTimer.rawValue,
          payload: AppTimer.androidRestart.rawValue, slot: Slot.app)
      }
    case .forceQuit:
      guard app.isInBackground else { return }
      app.forceQuit = true
      app.killedAt = sim.now
      stopRunning(.notRunning, &sim)
    case .androidRestart:
      guard app.mode == .notRunning, power.phoneIsOn, !droppedOut, !app.forceStopped, !app.removed else { return }
      startRunning(sim.now, &sim)
    case .makerKill:
      guard app.isInBackground else { return }
      app.killedAt = sim.now
      app.forceStopped = maker.stopsAlarms
      stopRunning(.notRunning, &sim)
    }
  }

  /// Something wakes the stopped app in the background (``armWake(_:)``): it runs on its
  /// anchor again where the device condition allows, otherwise for a bounded time.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func appWake(_ source: WakeSource, _ sim: inout Simulator) {
    guard app.isStopped, !app.forceQuit, power.phoneIsOn, !droppedOut else { return }
    let now = sim.now
    if source == .locationChange { app.lastLocationWake = now }
    app.attended(at: now, awake: awake)
    // Running on its anchor again tops up the plan (``startRunning(_:_:)``); a bounded run
    // does here.
    if profile.wakeRestoresAnchor && canAnchor(fromForeground: false) { return startRunning(now, &sim) }
    if proto.channel.refillInBackground { refillPlan(at: now) }
    runBriefly(exempt: false, &sim)
  }

  /// The app stops at once, foreground or background, and nothing is set to wake it: the
  /// phone goes off, or the participant leaves the study.
  mutating func halt(_ newMode: AppState.Mode, _ sim: inout Simulator) {
    if app.isRunning {
      if app.mode == .foreground { app.foreground.end(at: sim.now) }
      endRuns(at: sim.now)
    }
    app.set(newMode, at: sim.now)
    sim.cancel(slot: Slot.app)
    sim.cancel(slot: Slot.wake)
  }
}
