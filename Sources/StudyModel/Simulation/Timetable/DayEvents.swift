import SimKernel

// The timetable's events: a day starting (its prompts, wake and bed, the participant's own
// openings of the app, a reboot, the dropout), each prompt falling due in its reserved
// place, waking and going to bed. State: ``Timetable``.
extension ParticipantSimulation {
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func dayStarts(_ d: Int, _ sim: inout Simulator) {
    let now = sim.now
    sim.schedule(at: timetable.wake[d], kind: EventKind.wakes.rawValue, payload: Int32(d), priority: .urgent)
    sim.schedule(at: timetable.bed[d], kind: EventKind.goesToBed.rawValue, payload: Int32(d), priority: .urgent)
    // The day's prompts: their places among simultaneous events are taken now, but each is
    // queued only when the one before it falls due (``dueFalls(_:_:)``).
    let today = timetable.positions(ofDay: d)
    if !today.isEmpty {
      timetable.duePlaces[d] = sim.reservePlaces(today.count)
      scheduleDue(today.lowerBound, day: d, &sim)
    }
    // Spontaneous openings and volunteered answers, at random waking moments.
    let wake = timetable.wake[d]
    let awakeLength = Double(timetable.bed[d] - wake)
    var opens = Int(proto.appOpensPerDay.rounded(.down))
    if streams.habit.bernoulli(proto.appOpensPerDay - Double(opens)) { opens += 1 }
    for _ in 0..<opens {
      sim.schedule(at: wake + SimTime(streams.habit.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue)
    }
    if proto.volunteered {
      for _ in 0..<streams.habit.poisson(mean: plan.compliance.volunteeredPerDay) {
        sim.schedule(
          at: wake + SimTime(streams.habit.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue, payload: 1)
      }
    }
    if profile.rebootPerDay > 0 && streams.phoneLife.bernoulli(profile.rebootPerDay) {
      sim.schedule(at: now + SimTime(streams.phoneLife.uniform() * Double(Tick.day)), kind: EventKind.reboot.rawValue)
    }
    if d == person.dropoutDay {
      sim.schedule(at: now, kind: EventKind.dropout.rawValue, priority: .urgent)
    }
    if d + 1 < plan.days {
      sim.schedule(at: SimTime(d + 1) * Tick.day, kind: EventKind.dayStarts.rawValue, payload: Int32(d + 1), priority: .urgent)
    }
  }

  /// Queues the promptDue event of the `j`th prompt in day order (``Timetable/promptsByDay``),
  /// of day `d`, in the place taken for it when the day started.
  mutating func scheduleDue(_ j: Int, day d: Int, _ sim: inout Simulator) {
    let i = Int(timetable.promptsByDay[j])
    sim.schedule(
      at: timetable.dueTime(i), kind: EventKind.promptDue.rawValue, payload: Int32(j),
      place: timetable.duePlaces[d] + UInt64(j - Int(timetable.firstPromptOfDay[d])))
  }

  /// The `j`th prompt in day order (the promptDue event's payload) falls due: the day's next
  /// one is queued in its place, and this one handled (``promptDue(_:_:)``).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func dueFalls(_ j: Int, _ sim: inout Simulator) {
    let i = Int(timetable.promptsByDay[j])
    let d = Int(timetable.days[i])
    if j + 1 < Int(timetable.firstPromptOfDay[d + 1]) { scheduleDue(j + 1, day: d, &sim) }
    promptDue(i, &sim)
  }

  /// The participant wakes (the night's charger comes out) or goes to bed (the phone is
  /// plugged in overnight with the profile's ``DeviceProfile/chargeNightly``).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func setAwake(_ isAwake: Bool, _ sim: inout Simulator) {
    awake = isAwake
    app.participant(awake: isAwake, at: sim.now)
    if isAwake {
      power.chargingSpans.end(at: sim.now)
    } else if streams.phoneLife.bernoulli(profile.chargeNightly) {
      power.chargingSpans.begin(at: sim.now)
      if !power.phoneIsOn && !droppedOut { sim.schedule(at: sim.now, kind: EventKind.phoneOn.rawValue) }
    }
    updateBattery(&sim)
    if app.mode == .anchored { armAppTimer(&sim) }
  }
}

extension ParticipantSimulation {
  /// An event `cue` of schedule `source` at `t` (a questionnaire finished, a notification
  /// posted): the follow-ups it cues (``FollowUps``) are added to the timetable and the
  /// prompts' lives, and queued at their times.
  @inline(__always)
  mutating func cueFollowUps(_ cue: FollowUps.Cue, source: Int, at t: SimTime, _ sim: inout Simulator) {
    if !followUps.isEmpty { addFollowUps(cue, source: source, at: t, &sim) }
  }

  /// ``cueFollowUps(_:source:at:_:)`` when the protocol has follow-ups.
  mutating func addFollowUps(_ cue: FollowUps.Cue, source: Int, at t: SimTime, _ sim: inout Simulator) {
    let parts = proto.schedules
    let firstWeekday = plan.startWeekday
    let cued = followUps.cued(cue, source: source, at: t, before: leaves) { k, d in
      parts[k].isActive(day: d, weekday: (firstWeekday + d) % 7)
    }
    for (due, k) in cued {
      let i = timetable.addFollowUp(at: due, schedule: k, hint: timelineCursor)
      promptLife.append(i, timetable, reminders: reminders[k])
      sim.schedule(at: timetable.dueTime(i), kind: EventKind.followUpDue.rawValue, payload: Int32(i))
    }
  }
}
