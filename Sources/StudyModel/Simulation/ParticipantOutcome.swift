import Schedules
import SimKernel

/// Everything one participant's study produced: typed records for the measures and writers.
public struct ParticipantOutcome: Sendable {
  /// The participant's index in the population.
  public var participant: Int
  /// Index of their device profile in the plan.
  public var device: Int
  /// Their phone's operating system.
  public var os: OperatingSystem
  /// Index of their time zone in the plan.
  public var zone = 0
  /// Days after the study's first date on which they joined (``Person/joinDay``): their study
  /// days, prompts' days and times count from then.
  public var joinDay = 0
  /// Minutes by which they moved the schedule (`protocol.own_times`; 0: not moved).
  public var ownTimesShift = 0.0
  /// The person's answering: class, willingness and its trends, looks, pace (``Engagement``).
  public var engagement: Engagement? = nil
  /// Every prompt, in time order.
  public var prompts: [PromptRecord]
  /// Answers volunteered with no prompt pending (excluded from analysis).
  public var volunteered: [PromptRecord]
  /// Each sensor's tally over the participant's hours.
  public var tallies: [SensorTally]
  /// Per participant-hour coverage rows (empty unless asked for).
  public var coverageRows: [CoverageRecord]
  /// RAPIDS data yield.
  public var yield: DataYield
  /// The first sensor's collected share per study hour, first days only (heat map).
  public var heat: [Float]
  /// The true mean of the latent state over the participant's waking time.
  public var trueMean: Double
  /// When the participant left (the study's end if they stayed).
  public var enrolledUntil: SimTime
  /// When data last reached the server (nil: never).
  public var lastSync: SimTime?
  /// Whether no schedule could be drawn in the participant's window.
  public var scheduleFailed: Bool
  /// The sampling window of a weekday and of a weekend day, in minutes after midnight
  /// (start) and length, for normalising prompt times; nil when no schedule was drawn.
  public var samplingWindows: (weekday: Block, weekend: Block)?
  /// Battery level at every change of rate (only when a battery sensor is recorded).
  public var batteryTrace: [(SimTime, Double)]
  /// Events the participant's simulation handled (for the benchmarks).
  public var events: Int
  /// What the app observed of the network and charging (Beiwe's Reachability and
  /// PowerState), when asked for.
  public var phoneEvents: PhoneEvents?
  /// The stretches the sensors recorded in, when their samples are to be written.
  public var sensing: SensingStretches? = nil
  /// The answers behind the prompts (in `prompts`' order), when asked for and the plan has
  /// variables.
  public var answers: ParticipantAnswers? = nil
}

extension ParticipantSimulation {
  /// Simulates one participant and counts what the study got from them.
  ///
  /// - Parameters:
  ///   - detail: what the outcome carries beyond the measures' needs (``OutcomeDetail``).
  ///   - heatHours: study hours of the heat map (0: none).
  public static func outcome(
    plan: StudyPlan, seed: UInt64, replication: UInt32, participant: UInt32, detail: OutcomeDetail = [],
    heatHours: Int = 0
  ) -> ParticipantOutcome {
    let phoneEvents = detail.contains(.phoneEvents)
    let traceBattery = phoneEvents || plan.protocolPlan.sensors.contains { $0.kind == .battery }
    var sim = ParticipantSimulation(
      plan: plan, seed: seed, replication: replication, participant: participant, traceBattery: traceBattery)
    sim.run()
    let end = sim.enrolledUntil
    sim.closeRecords(at: end)
    let (lowPower, charging) = (sim.lowPowerSpans, sim.chargingSpans)
    let (foreground, phoneOn) = (sim.foreground, sim.phoneOn)
    // What the app's runs recorded: on Android, nothing while the phone dozed but the runs
    // an exemption let through; the location only as the permission allows.
    var runs = sim.sensingRuns(until: end)
    let sensors = plan.protocolPlan.sensors
    // When the network works for the app in the background: for uploads (and so the syncs
    // that empty a small phone's store) and for the sensors that need the network, computed once.
    let networkUsable =
      sim.proto.upload != .wifiWhileCharging || sensors.contains(where: \.needsNetwork)
      ? Upload.backgroundNetwork(timeline: sim.life.timeline, lowPower: lowPower, foreground: foreground, until: end)
      : Intervals()
    // A small phone's store fills between syncs: the sensors store nothing while it is full.
    if sim.phone.freeStorage.isFinite {
      let syncs = Upload.syncStretches(
        policy: sim.proto.upload, runs: runs, charging: charging, networkUsable: networkUsable, timeline: sim.life.timeline,
        until: end)
      let full = LocalStorage.full(
        runs: runs, syncs: syncs, freeBytes: sim.phone.freeStorage, bytesPerHour: LocalStorage.bytesPerHour(sensors), until: end)
      if !full.spans.isEmpty { runs = runs.intersection(full.complement(from: 0, to: end)) }
    }
    let locationRuns = sensors.contains(where: \.usesLocation) ? sim.locationRuns(runs, until: end) : nil
    let lastSync = Upload.lastSync(
      policy: sim.proto.upload, runs: runs, charging: charging, networkUsable: networkUsable, timeline: sim.life.timeline,
      until: end)
    var (prompts, volunteered) = sim.takeRecords()
    // Through one buffer: a write to the array for each answer checked each time that it was
    // not shared.
    prompts.withUnsafeMutableBufferPointer { prompts in
      for i in prompts.indices where prompts[i].status == .answered {
        prompts[i].received = lastSync.map { prompts[i].submitted < $0 } ?? false
      }
    }
    for i in volunteered.indices {
      volunteered[i].received = lastSync.map { volunteered[i].submitted < $0 } ?? false
    }
    // The phone checks (screen events, Beiwe's Unlocked/Locked), from streams of their own.
    var checks = PhoneChecks()
    if phoneEvents || sensors.contains(where: { $0.kind == .screen }) {
      checks = ParticipantSimulation.phoneChecks(
        seed: seed, replication: replication, participant: participant, life: sim.life, person: sim.person, until: end)
    }
    let coverage = CoverageCalculator(
      sensors: sensors, runs: runs, locationRuns: locationRuns, phoneOn: phoneOn, networkUsable: networkUsable, timeline: sim.life.timeline,
      enrolledUntil: end, lastSync: lastSync ?? 0, checks: checks, batteryTrace: sim.batteryTrace, keepRows: detail.contains(.coverageRows),
      heatHours: heatHours)
    var outcome = ParticipantOutcome(
      participant: Int(participant), device: sim.person.device, os: sim.person.os, zone: sim.person.zone,
      joinDay: sim.person.joinDay, ownTimesShift: sim.timetable.shift, engagement: sim.person.engagement, prompts: prompts,
      volunteered: volunteered, tallies: coverage.tallies, coverageRows: coverage.rows, yield: coverage.yield,
      heat: coverage.heat, trueMean: sim.trueWakingMean, enrolledUntil: end, lastSync: lastSync,
      scheduleFailed: sim.scheduleFailed, samplingWindows: sim.samplingWindows, batteryTrace: sim.batteryTrace,
      events: sim.eventsHandled,
      phoneEvents: phoneEvents
        ? PhoneEvents(
          runs: runs, timeline: sim.life.timeline, charging: charging, batteryTrace: sim.batteryTrace, checks: checks) : nil)
    if detail.contains(.sensorSamples) {
      outcome.sensing = SensingStretches(
        runs: runs, locationRuns: locationRuns, phoneOn: phoneOn, networkUsable: networkUsable, enrolledUntil: end,
        movement: Movement(participant: Int(participant), timeline: sim.life.timeline))
    }
    if detail.contains(.answers) && plan.answers.isOn {
      outcome.answers = ParticipantAnswers.draw(outcome, plan: plan.answers, seed: seed, replication: replication)
    }
    return outcome
  }
}

extension ParticipantSimulation {
  /// The stretches in which the app ran and could record, after the run: on Android with
  /// Doze, the runs less the dozing stretches (``Doze``), plus the runs an exact alarm or a
  /// high-priority push let through.
  func sensingRuns(until end: SimTime) -> Intervals {
    guard platform.dozes else { return app.runs }
    let quiet = Doze.quietSpans(
      timeline: life.timeline, charging: power.chargingSpans, foreground: app.foreground, phoneOn: power.phoneOn,
      until: end)
    let dozing = Doze.dozing(in: quiet)
    guard !dozing.spans.isEmpty else { return app.runs }
    return app.runs.intersection(dozing.complement(from: 0, to: end)).union(app.exemptRuns)
  }

  /// The stretches in which the app could record the location (``LocationPermission``):
  /// with "Always" whenever it ran; "While using" in the foreground and while location
  /// updates started there went on, not in a background wake; denied never.
  func locationRuns(_ runs: Intervals, until end: SimTime) -> Intervals? {
    switch phone.location {
    case .always: return nil
    case .whileUsing: return runs.intersection(app.wakeRuns.complement(from: 0, to: end))
    case .denied: return Intervals()
    }
  }
}

/// When data reach the server under each upload policy.
public enum Upload {
  /// The end of the last moment before `until` at which the app could upload: data collected
  /// before it reached the server; anything later stayed on the phone ("not received").
  ///
  /// AWARE syncs on wifi while charging (AWARE-iOS §5.3); ESMira uploads at once and retries
  /// every 3 hours (ESMira app notes), and a continuous uploader whenever it can; both need
  /// the app running with a network that works in the background (not in Low Power Mode,
  /// unless the app is in the foreground).
  ///
  /// - Parameter networkUsable: ``backgroundNetwork(timeline:lowPower:foreground:until:)``
  ///   (only read by the policies that upload whenever they can).
  /// The stretches in which the app syncs: on Wi-Fi while charging with the app running
  /// (AWARE), or whenever it runs with a usable network.
  public static func syncStretches(
    policy: UploadPolicy, runs: Intervals, charging: Intervals, networkUsable: Intervals, timeline: Timeline,
    until: SimTime
  ) -> Intervals {
    switch policy {
    case .wifiWhileCharging:
      let wifi = Intervals(timeline.episodes.filter { $0.network == .wifi && $0.start < until }.map { ($0.start, min($0.end, until)) })
      return wifi.intersection(charging).intersection(runs)
    case .immediateRetry, .continuous: return networkUsable.intersection(runs)
    }
  }

  public static func lastSync(
    policy: UploadPolicy, runs: Intervals, charging: Intervals, networkUsable: Intervals, timeline: Timeline,
    until: SimTime
  ) -> SimTime? {
    switch policy {
    case .wifiWhileCharging: return lastWifiChargingRun(timeline: timeline, charging: charging, runs: runs, before: until)
    case .immediateRetry, .continuous: return networkUsable.lastEndOfIntersection(with: runs, before: until)
    }
  }

  /// The end of the last moment before `limit` on Wi-Fi (an episode of `timeline`), charging
  /// and with the app running (both closed): the three walked back from their ends, as
  /// ``Intervals/lastEndOfIntersection(with:before:)`` walks two, without building the
  /// Wi-Fi stretches of the whole study (the last sync is usually on the last night). The
  /// Wi-Fi episodes are taken one by one: where adjacent ones would join, the last overlap
  /// starting before `limit` still ends at the same moment or past `limit`.
  static func lastWifiChargingRun(timeline: Timeline, charging: Intervals, runs: Intervals, before limit: SimTime)
    -> SimTime?
  {
    let episodes = timeline.episodes
    var k = episodes.count - 1
    while k >= 0 && episodes[k].network != .wifi { k -= 1 }
    var i = charging.spans.count - 1
    var j = runs.spans.count - 1
    while k >= 0 && i >= 0 && j >= 0 {
      let (w, c, r) = (episodes[k], charging.spans[i], runs.spans[j])
      let a = max(w.start, c.start, r.start)
      let b = min(w.end, c.end, r.end)
      if a < b && a < limit { return min(b, limit) }
      // The stretch that starts last overlaps nothing earlier in the other two.
      if w.start >= c.start && w.start >= r.start {
        k -= 1
        while k >= 0 && episodes[k].network != .wifi { k -= 1 }
      } else if c.start >= r.start {
        i -= 1
      } else {
        j -= 1
      }
    }
    return nil
  }

  /// When an app can use the network in the background, up to `until`: the network reaches
  /// the phone, and Low Power Mode (which stops background networking) is off or the app is
  /// in the foreground.
  public static func backgroundNetwork(
    timeline: Timeline, lowPower: Intervals, foreground: Intervals, until: SimTime
  ) -> Intervals {
    timeline.spans { $0.network != .unreachable }.intersection(lowPower.complement(from: 0, to: until).union(foreground))
  }
}
