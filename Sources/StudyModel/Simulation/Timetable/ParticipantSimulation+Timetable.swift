import Schedules
import SimKernel

// The day's timetable: every prompt's scheduled time drawn up front, each day's start, its
// prompts queued one at a time in their reserved places, waking and going to bed.
extension ParticipantSimulation {
  /// Draws every day's schedule in the participant's windows.
  mutating func makePrompts(_ s: inout RandomStream) {
    let parts = proto.schedules
    guard !parts.isEmpty else { return }
    // Each part's scheduler and window, weekday and weekend.
    var built: [(weekday: (AnyScheduler, Window), weekend: (AnyScheduler, Window))] = []
    for part in parts {
      var pair: [(AnyScheduler, Window)] = []
      for weekend in [false, true] {
        guard let window = participantWindow(part.window, weekend: weekend),
          let scheduler = try? AnyScheduler(part.choice.algorithm, part.choice.parameters, window: window)
        else {
          scheduleFailed = true
          return
        }
        pair.append((scheduler, window))
      }
      built.append((pair[0], pair[1]))
    }
    // The envelope of the parts' sampling windows, in minutes after midnight.
    func envelope(_ weekend: Bool) -> Block {
      var lo = Double.infinity
      var hi = -Double.infinity
      for b in built {
        let (scheduler, window) = weekend ? b.weekend : b.weekday
        let sampling = scheduler.samplingWindow(for: window)
        lo = min(lo, window.start.minutes + sampling.start)
        hi = max(hi, window.start.minutes + sampling.end)
      }
      return Block(start: lo, end: hi)
    }
    samplingWindows = (envelope(false), envelope(true))
    var minutes: [Double] = []
    let change = proto.settingsChange
    let changed = change.map { Mappiness(perDay: $0.perDay) }
    for d in 0..<plan.days {
      let weekend = plan.isWeekend(d)
      let weekday = (plan.startWeekday + d) % 7
      for (k, part) in parts.enumerated() where part.isActive(day: d, weekday: weekday) {
        var (scheduler, window) = weekend ? built[k].weekend : built[k].weekday
        if let change, let changed, d > change.day {
          (scheduler, window) = (.mappiness(changed), change.window)
        }
        minutes.removeAll(keepingCapacity: true)
        scheduler.schedule(in: window, into: &minutes, using: &s)
        let midnight = SimTime(d) * Tick.day
        let windowStart = midnight + Tick.minutes(window.start.minutes)
        var end = studyEnd
        if let change, d == change.day { end = min(end, midnight + Tick.minutes(change.atMinute)) }
        for m in minutes {
          let t = windowStart + Tick.minutes(m)
          guard t < end else { continue }
          times.append(t)
          days.append(Int32(d))
        }
        if let change, let changed, d == change.day {
          // The old schedule ran until the change; the rest of the day in the new hours.
          let newStart = midnight + Tick.minutes(change.window.start.minutes)
          let at = midnight + Tick.minutes(change.atMinute)
          minutes.removeAll(keepingCapacity: true)
          changed.rest(of: change.window, after: Double(at - newStart) / Double(Tick.minute), into: &minutes, using: &s)
          for m in minutes {
            let t = newStart + Tick.minutes(m)
            guard t < studyEnd else { continue }
            times.append(t)
            days.append(Int32(d))
          }
        }
      }
    }
    // Several parts, or windows crossing midnight, can leave times out of order.
    if zip(times, times.dropFirst()).contains(where: { $0 > $1 }) {
      let order = times.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
      times = order.map { times[$0] }
      days = order.map { days[$0] }
    }
    prompts = times.indices.map { PromptRecord(index: $0, day: Int(days[$0]), scheduled: times[$0]) }
    expiresAt = Array(repeating: .max, count: times.count)
    remindersLeft = Array(repeating: proto.reminders.count, count: times.count)
    progress = Array(repeating: .waiting, count: times.count)
    deliveredAsleep = Array(repeating: false, count: times.count)
    firstPromptOfDay = Array(repeating: 0, count: plan.days + 1)
    duePlaces = Array(repeating: 0, count: plan.days)
    for d in days { firstPromptOfDay[Int(d) + 1] += 1 }
    for d in 0..<plan.days { firstPromptOfDay[d + 1] += firstPromptOfDay[d] }
    var next = firstPromptOfDay
    promptsByDay = Array(repeating: 0, count: times.count)
    for i in times.indices {
      promptsByDay[Int(next[Int(days[i])])] = Int32(i)
      next[Int(days[i])] += 1
    }
    // The episode of each prompt's time, in one walk along the timeline (the times are in
    // order): where the timeline's search starts when the prompt falls due, hours after the
    // last lookup (a phone that runs on its own needs none in between).
    dueHints = life.timeline.episodes.withUnsafeBufferPointer { episodes in
      var k = 0
      return times.map { t in
        while k + 1 < episodes.count && episodes[k].end <= t { k += 1 }
        return Int32(k)
      }
    }
  }

  /// The window of a part for this participant: the study's, or the participant's own hours
  /// chosen once from their usual weekday times, to the nearest quarter hour.
  func participantWindow(_ plan: WindowPlan, weekend: Bool) -> Window? {
    switch plan {
    case .fixed(let weekday, let weekendWindow):
      return weekend ? weekendWindow : weekday
    case .participant(let afterWake, let beforeBed):
      let life = self.plan.dailyLife
      let start = Mappiness.quarterHour(ClockTime(minutes: life.weekdayWake + person.sleepOffset + afterWake))
      let end = Mappiness.quarterHour(ClockTime(minutes: life.weekdayBed + person.sleepOffset - beforeBed))
      return try? Window(start: start, end: end)
    }
  }

  mutating func dayStarts(_ d: Int, _ sim: inout Simulator) {
    let now = sim.now
    sim.schedule(at: life.wake[d], kind: EventKind.wakes.rawValue, payload: Int32(d), priority: .urgent)
    sim.schedule(at: life.bed[d], kind: EventKind.goesToBed.rawValue, payload: Int32(d), priority: .urgent)
    // The day's prompts: their places among simultaneous events are taken now, but each is
    // queued only when the one before it falls due (``dueFalls(_:_:)``), which keeps the
    // queue small.
    if !firstPromptOfDay.isEmpty && firstPromptOfDay[d] < firstPromptOfDay[d + 1] {
      let first = Int(firstPromptOfDay[d])
      duePlaces[d] = sim.reservePlaces(Int(firstPromptOfDay[d + 1]) - first)
      scheduleDue(first, day: d, &sim)
    }
    // Spontaneous openings and volunteered answers, at random waking moments.
    let wake = life.wake[d]
    let awakeLength = Double(life.bed[d] - wake)
    var opens = Int(proto.appOpensPerDay.rounded(.down))
    if responseStream.bernoulli(proto.appOpensPerDay - Double(opens)) { opens += 1 }
    for _ in 0..<opens {
      sim.schedule(at: wake + SimTime(responseStream.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue)
    }
    if proto.volunteered {
      for _ in 0..<responseStream.poisson(mean: plan.compliance.volunteeredPerDay) {
        sim.schedule(
          at: wake + SimTime(responseStream.uniform() * awakeLength), kind: EventKind.spontaneousOpen.rawValue, payload: 1)
      }
    }
    if profile.rebootPerDay > 0 && phoneStream.bernoulli(profile.rebootPerDay) {
      sim.schedule(at: now + SimTime(phoneStream.uniform() * Double(Tick.day)), kind: EventKind.reboot.rawValue)
    }
    if d == person.dropoutDay {
      sim.schedule(at: now, kind: EventKind.dropout.rawValue, priority: .urgent)
    }
    if d + 1 < plan.days {
      sim.schedule(at: SimTime(d + 1) * Tick.day, kind: EventKind.dayStarts.rawValue, payload: Int32(d + 1), priority: .urgent)
    }
  }

  /// Queues the promptDue event of the `j`th prompt in day order (``promptsByDay``), of day
  /// `d`, in the place taken for it when the day started.
  mutating func scheduleDue(_ j: Int, day d: Int, _ sim: inout Simulator) {
    let i = Int(promptsByDay[j])
    sim.schedule(
      at: Self.dueTime(times[i], dayStart: SimTime(d) * Tick.day, serverTick: serverTick),
      kind: EventKind.promptDue.rawValue, payload: Int32(j), place: duePlaces[d] + UInt64(j - Int(firstPromptOfDay[d])))
  }

  /// The `j`th prompt in day order (the promptDue event's payload) falls due: the day's next
  /// one is queued in its place, and this one handled (``promptDue(_:_:)``).
  mutating func dueFalls(_ j: Int, _ sim: inout Simulator) {
    let i = Int(promptsByDay[j])
    let d = Int(days[i])
    if j + 1 < Int(firstPromptOfDay[d + 1]) { scheduleDue(j + 1, day: d, &sim) }
    promptDue(i, &sim)
  }

  /// When a prompt scheduled at `time` falls due, its day having started at `dayStart`: at
  /// its time, or for a push at the server's next tick. (A function of values: called as a
  /// method of the whole simulation inside a loop that mutates it, it made Swift copy the
  /// simulation at every call.)
  static func dueTime(_ time: SimTime, dayStart: SimTime, serverTick tick: SimTime) -> SimTime {
    max(tick > 0 ? (time + tick - 1) / tick * tick : time, dayStart)
  }

  mutating func setAwake(_ isAwake: Bool, _ sim: inout Simulator) {
    awake = isAwake
    if isAwake {
      if charging {
        charging = false
        chargingSpans.end(at: sim.now)
      }
    } else if phoneStream.bernoulli(DeviceProfile.chargeNightly) {
      charging = true
      chargingSpans.begin(at: sim.now)
      if !phoneIsOn && !droppedOut { sim.schedule(at: sim.now, kind: EventKind.phoneOn.rawValue) }
    }
    updateBattery(&sim)
    if mode == .anchored { armAppTimer(&sim) }
  }

  /// The next wake or bedtime after `t` (`.max` after the last one). Time only moves
  /// forward, so a cursor over wake₀, bed₀, wake₁, bed₁, … finds it.
  @inline(__always)
  mutating func nextAwakeChange(after t: SimTime) -> SimTime {
    // Asked several times between two changes: the last answer stands until `t` reaches it.
    t < awakeChange ? awakeChange : findAwakeChange(after: t)
  }

  /// ``nextAwakeChange(after:)`` once `t` has reached the last answer.
  mutating func findAwakeChange(after t: SimTime) -> SimTime {
    func transition(_ i: Int) -> SimTime { i % 2 == 0 ? life.wake[i / 2] : life.bed[i / 2] }
    let count = 2 * life.wake.count
    while awakeCursor < count && transition(awakeCursor) <= t { awakeCursor += 1 }
    awakeChange = awakeCursor < count ? transition(awakeCursor) : .max
    return awakeChange
  }
}
