import SimKernel

// Getting a prompt that falls due to the phone, by the protocol's channel (``Delivery``).
extension ParticipantSimulation {
  /// A prompt falls due: a planned local notification fires (or is lost: not planned, phone
  /// off), or the server sends its push (held by APNs while the phone is offline, the newest
  /// only, for ``ChannelPlan/storeFor``; an older one is replaced: [@AppleAPNs], A).
  /// A removed app gets nothing; nor does an Android app its maker force-stopped (its alarms
  /// are cancelled and pushes do not reach a stopped app) until the participant opens it.
  mutating func send(_ i: Int, from here: Episode, _ sim: inout Simulator) {
    let now = sim.now
    if app.removed { return promptLife.settle(i, .undelivered, app.expired ? .buildExpired : .appRemoved, at: now) }
    if app.forceStopped || deepSleeping(at: now) { return promptLife.settle(i, .undelivered, .appStopped, at: now) }
    // Notifications off: the phone shows nothing ([@AppleLocalNotifications]; ESMira app notes).
    if now >= phone.notificationsOffAt { return promptLife.settle(i, .undelivered, .notificationsOff, at: now) }
    switch proto.channel.kind {
    case .local:
      // An app running in the background (on its anchor, or woken) tops up its plan as it
      // runs (`refill_in_background`): here, as each prompt falls due, the prompts after it.
      if app.isRunning && proto.channel.refillInBackground { refillPlan(at: now) }
      // A follow-up's notification is planned by the app as it is cued (the app runs then).
      guard timetable.isFollowUp(i) || delivery.planner.isPlanned(i) else {
        return promptLife.settle(i, .undelivered, delivery.planner.lossReason(i), at: now)
      }
      guard power.phoneIsOn else { return promptLife.settle(i, .undelivered, .phoneOff, at: now) }
      deliver(i, at: now, &sim)
    case .push:
      if power.phoneIsOn && here.network != .unreachable {
        let latency = Compliance.delay(
          median: proto.channel.latency, sigma: proto.channel.latencySigma, &streams.delivery)
        sim.schedule(at: now + latency, kind: EventKind.promptArrives.rawValue, payload: Int32(i))
      } else {
        if delivery.heldPush >= 0 { promptLife.settle(delivery.heldPush, .undelivered, .replaced, at: now) }
        delivery.heldPush = i
        if power.phoneIsOn, let back = heldPushArrival(sent: now, after: now) {
          sim.schedule(at: back, kind: EventKind.promptArrives.rawValue, payload: Int32(i))
        }
      }
    }
  }

  /// When a push APNs holds, sent at `sent`, reaches the phone on from `t`: as the phone is
  /// next reachable, if APNs still keeps it then (``ChannelPlan/storeFor``); nil: it does not.
  func heldPushArrival(sent: SimTime, after t: SimTime) -> SimTime? {
    guard let back = nextReachable(after: t), back - sent <= proto.channel.storeFor else { return nil }
    return back
  }

  /// A push reaches the phone.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func promptArrives(_ i: Int, _ sim: inout Simulator) {
    if delivery.heldPush == i { delivery.heldPush = -1 }
    guard promptLife.states[i].stage == .waiting, !promptLife.isDelivered(i) else { return }
    if droppedOut { return promptLife.settle(i, .droppedOut, .droppedOut, at: sim.now) }
    guard power.phoneIsOn else {
      delivery.heldPush = i
      return
    }
    if app.sessionUntil > sim.now {
      // Mappiness `apn_ignored`: inside another survey the signal is not shown, not
      // counted and not rescheduled ([@MacKerron2012], A).
      promptLife.records[i].delivered = sim.now
      return promptLife.settle(i, .ignored, .busy, at: sim.now)
    }
    deliver(i, at: sim.now, &sim)
  }

  /// Tops up the app's plan of local notifications at `t` (the app runs code); nothing on a
  /// phone that does not plan them (Android plans every prompt at the start).
  mutating func refillPlan(at t: SimTime) {
    guard delivery.plansOnPhone else { return }
    delivery.planner.refill(
      at: t, times: timetable.times, days: timetable.days, parts: timetable.scheduleOf,
      schedules: plan.protocolPlan.schedules.count, today: life.day(at: t))
  }

  /// The app's own periodic background task (ESMira's, about every 12 hours), which iOS lets
  /// run when it chooses (``ChannelPlan/backgroundTaskSuccess``) and never in Low Power Mode
  /// or after a force-quit: it tops up the plan.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func backgroundTask(_ sim: inout Simulator) {
    guard let every = proto.channel.backgroundTaskEvery else { return }
    if power.phoneIsOn && !power.lowPower && !app.forceQuit && !droppedOut
      && streams.phone.bernoulli(proto.channel.backgroundTaskSuccess)
    {
      refillPlan(at: sim.now)
    }
    sim.schedule(at: sim.now + every, kind: EventKind.backgroundTask.rawValue)
  }
}
