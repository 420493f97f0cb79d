import SimKernel

/// The participant's own openings of the app (``ProtocolPlan/appOpensPerDay``) and
/// volunteered answers (``ProtocolPlan/volunteered``).
enum Openings {
  /// An opening brings up the open prompts scheduled in the last two days (older ones are
  /// left alone; assumption, D).
  static let lookBack = 2 * Tick.day
  /// Mean seconds of an ordinary use of the app (about a minute; assumption, D).
  static let useSeconds = 60.0
}

extension ParticipantSimulation {
  /// A spontaneous opening of the app: pending prompts are shown at once (Mappiness presents
  /// the survey immediately when a signal is pending, [@MacKerron2012]); a volunteered answer
  /// is recorded when none is pending.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func spontaneousOpen(volunteer: Bool, _ sim: inout Simulator) {
    let now = sim.now
    guard awake, power.phoneIsOn, !droppedOut, !app.removed, app.sessionUntil <= now, canAnswer(at: now) else { return }
    var pending = false
    let times = timetable.times
    func bringUp(_ i: Int) {
      guard promptLife.isPending(i, at: now) else { return }
      pending = true
      sim.schedule(at: now, kind: EventKind.promptNoticed.rawValue, payload: Noticed.payload(i, reminded: true))
    }
    // The drawn prompts (in time order), then the follow-ups (in the order created).
    for i in stride(from: timetable.drawnCount - 1, through: 0, by: -1) where times[i] <= now {
      bringUp(i)
      if times[i] < now - Openings.lookBack { break }
    }
    for i in timetable.drawnCount..<times.count where times[i] <= now && times[i] >= now - Openings.lookBack { bringUp(i) }
    if volunteer {
      guard !pending else { return }
      var r = PromptRecord(index: promptLife.volunteered.count, day: life.day(at: now), scheduled: now)
      r.volunteered = true
      r.delivered = now
      r.noticed = now
      r.opened = now
      r.context = context(at: now)
      (r.trueState, r.withOthers, r.reported) = answerState(now)
      app.sessionUntil = now + completionTime(schedule: 0)
      r.submitted = app.sessionUntil
      r.status = .answered
      promptLife.volunteered.append(r)
      cueFollowUps(.finished, source: r.schedule, at: r.submitted, &sim)
    } else {
      app.sessionUntil = now + Tick.seconds(streams.response.exponential(mean: Openings.useSeconds))
    }
    enterForeground(&sim)
    sim.schedule(at: app.sessionUntil, kind: EventKind.sessionEnds.rawValue)
  }

  /// How long answering schedule `schedule`'s survey takes: its median grows with its
  /// length (``CompliancePlan/secondsPerItem``); prompt `prompt` answered carelessly too fast
  /// (``Careless``) takes `careless.seconds_per_item` an item.
  mutating func completionTime(schedule: Int, prompt: Int? = nil) -> SimTime {
    Compliance.delay(
      median: burden.completionMedian(schedule, prompt: prompt), sigma: plan.compliance.completionSigma, &streams.response)
  }
}
