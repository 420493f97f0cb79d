import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// A profile with every hazard off, to switch on one at a time.
func quietProfile(_ name: String = "test") -> DeviceProfile {
  DeviceProfile(
    name: name, suspendPerHour: 0, killPerHour: 0, wakeRestoresAnchor: true, lowPowerMode: false, silentPushWake: 1,
    silentPushWakeLowPower: 1, significantChangeWake: false, backgroundRefreshPerDay: 0, forceQuitPerDay: 0,
    rebootPerDay: 0, drainAwake: 0, drainAsleep: 0, drainApp: 0)
}

/// A sensing-only plan on one device profile.
func sensingPlan(_ profile: DeviceProfile, days: Int = 3, participants: Int = 20, configure: (inout StudyPlan) -> Void = { _ in })
  -> StudyPlan
{
  testPlan(days: days, participants: participants, devices: [(profile, 1)], sensors: caseStudySensors) { p in
    p.protocolPlan.schedules = []
    p.compliance.dropoutPerDay = 0
    configure(&p)
  }
}

func simulate(_ plan: StudyPlan, participant: UInt32) -> ParticipantSimulation {
  var sim = ParticipantSimulation(plan: plan, seed: 3, replication: 0, participant: participant)
  sim.run()
  return sim
}

@Suite("Phones: app lifecycle, wake-ups, notification cap, sensing")
struct PhoneTests {
  @Test("events handed over without the queue and app timers that cannot fire left out give the same study as when every one goes through the queue")
  func handedOverAtOnce() {
    // Pushed and local prompts, silent pushes and location wakes (bounded runs), answers.
    let profiles: [(DeviceProfile, Double)] = [(.nonControlled, 1), (.lowPower, 1), (.ideal, 1)]
    for channel in [ChannelPlan.push, .iosLocal] {
      let plan = testPlan(days: 14, participants: 12, devices: profiles, channel: channel, sensors: caseStudySensors) {
        $0.protocolPlan.silentPushEvery = 30 * Tick.minute
        $0.compliance.dropoutPerDay = 0.02
      }
      var carriedOut = 0
      var events = 0
      for k in 0..<plan.participants {
        var direct = ParticipantSimulation(plan: plan, seed: 5, replication: 0, participant: UInt32(k))
        var queued = direct
        queued.queuesEverything = true
        direct.run()
        queued.run()
        carriedOut += direct.handedOver
        events += direct.eventsHandled
        #expect(queued.handedOver == 0)
        #expect(direct.eventsHandled == queued.eventsHandled)
        // Compared as text: an unanswered prompt's report is nan, which equals nothing.
        #expect("\(direct.prompts)" == "\(queued.prompts)" && "\(direct.volunteered)" == "\(queued.volunteered)")
        #expect(direct.runs == queued.runs && direct.foreground == queued.foreground && direct.phoneOn == queued.phoneOn)
        #expect(direct.lowPowerSpans == queued.lowPowerSpans && direct.chargingSpans == queued.chargingSpans)
        #expect(direct.power.battery.level == queued.power.battery.level && direct.trueWakingMean == queued.trueWakingMean)
        #expect(direct.enrolledUntil == queued.enrolledUntil)
      }
      // Most prompts' steps and bounded runs are follow-ups that nothing precedes.
      #expect(carriedOut > events / 5, "\(carriedOut) of \(events) events carried out at once")
    }
  }

  @Test("a suspended app collects nothing until something wakes it")
  func suspendedCollectsNothing() {
    var p = quietProfile()
    p.suspendPerHour = 60  // suspended within minutes of the participant waking
    let plan = sensingPlan(p)
    for k in 0..<10 {
      let sim = simulate(plan, participant: UInt32(k))
      let runs = sim.runs.closed(at: 3 * Tick.day)
      // Running at the start (asleep, no hazard), then stopped once awake, never again.
      #expect(runs.spans.count == 1)
      let stop = runs.spans[0].end
      #expect(stop >= sim.life.wake[0] && stop < sim.life.wake[0] + 2 * Tick.hour)
      var cursor = 0
      let after = Yield.periodic(runs: runs, period: 3 * Tick.minute, from: stop, to: 3 * Tick.day, cursor: &cursor)
      #expect(after == 0)
    }
  }

  @Test("a silent push gives a bounded run of 30 s when it cannot bring collection back")
  func silentPushBoundedRun() {
    var p = quietProfile()
    p.killPerHour = 60
    p.wakeRestoresAnchor = false
    let plan = sensingPlan(p) { $0.protocolPlan.silentPushEvery = 30 * Tick.minute }
    for k in 0..<10 {
      let sim = simulate(plan, participant: UInt32(k))
      let runs = sim.runs.closed(at: 3 * Tick.day)
      #expect(runs.spans.count > 20)
      for r in runs.spans.dropFirst() {
        #expect(r.end - r.start <= Tick.seconds(DeviceProfile.wakeRunSeconds))
        // Woken by a push: 2 s after a half-hour mark, or 2 s after the phone came back online
        // (the held push is delivered then).
        let onGrid = r.start % (30 * Tick.minute) == 2 * Tick.second
        let back = r.start - 2 * Tick.second
        let afterOutage = sim.life.timeline.episodes.contains { $0.start == back && $0.network != .unreachable }
          && sim.life.timeline.episode(at: back - 1).network == .unreachable
        #expect(onGrid || afterOutage, "run at \(r.start)")
      }
    }
  }

  @Test("a force-quit app is not woken by silent pushes or location changes")
  func forceQuitNotWoken() {
    var p = quietProfile()
    p.forceQuitPerDay = 500
    p.significantChangeWake = true
    p.backgroundRefreshPerDay = 10
    let plan = sensingPlan(p) { $0.protocolPlan.silentPushEvery = 30 * Tick.minute }
    for k in 0..<10 {
      let sim = simulate(plan, participant: UInt32(k))
      let runs = sim.runs.closed(at: 3 * Tick.day)
      #expect(runs.spans.count == 1, "participant \(k): \(runs.spans.count) runs")
      #expect(sim.app.forceQuit)
    }
  }

  @Test("Low Power Mode blocks network-dependent sensors while the app runs in the background")
  func lowPowerBlocksWeather() {
    var p = quietProfile()
    p.lowPowerMode = true
    let plan = sensingPlan(p)
    let out = outcomes(plan)
    var location = SensorTally()
    var weather = SensorTally()
    var pedometer = SensorTally()
    for o in out {
      location.add(o.tallies[1])
      weather.add(o.tallies[2])
      pedometer.add(o.tallies[3])
    }
    #expect(location.comp == location.hours)  // the app never stops
    #expect(weather.collected == 0)
    #expect(pedometer.comp == pedometer.hours)
    // With the app in the foreground the network works: three openings a day.
    let opened = outcomes(sensingPlan(p) { $0.protocolPlan.appOpensPerDay = 3 })
    #expect(opened.reduce(0) { $0 + $1.tallies[2].collected } > 0)
  }

  @Test("iOS keeps the soonest 64 pending notifications; later prompts are lost to the cap")
  func notificationCap() {
    // 6 a day for 14 days (84) planned once at the start, never topped up.
    var planner = LocalPlanner(channel: ChannelPlan(kind: .local, cap: 64), reminders: 0)
    let times = (0..<84).map { SimTime($0 / 6) * Tick.day + 9 * Tick.hour + SimTime($0 % 6) * Tick.hour }
    let days = (0..<84).map { Int32($0 / 6) }
    planner.refill(at: 0, times: times, days: days, parts: [UInt16](repeating: 0, count: times.count), schedules: 1, today: 0)
    #expect(planner.end == 64)
    #expect(planner.cutByCap)
    #expect((0..<64).allSatisfy(planner.isPlanned))
    #expect(!planner.isPlanned(64))
    // With two reminders each prompt takes three: 21 prompts fit.
    var withReminders = LocalPlanner(channel: ChannelPlan(kind: .local, cap: 64), reminders: 2)
    withReminders.refill(at: 0, times: times, days: days, parts: [UInt16](repeating: 0, count: times.count), schedules: 1, today: 0)
    #expect(withReminders.end == 21)
    // With a 7-day horizon (iOS's local plan), 10 a day: the cap cuts the 80 wanted at 64;
    // those are lost to the cap, the prompts past the horizon to a plan never topped up.
    var horizon = LocalPlanner(channel: .iosLocal, reminders: 0)
    let ten = (0..<140).map { SimTime($0 / 10) * Tick.day + 8 * Tick.hour + SimTime($0 % 10) * Tick.hour }
    horizon.refill(at: 0, times: ten, days: (0..<140).map { Int32($0 / 10) }, parts: [UInt16](repeating: 0, count: 140), schedules: 1, today: 0)
    #expect(horizon.end == 64 && horizon.cutByCap)
    #expect(horizon.lossReason(70) == .cap && horizon.lossReason(79) == .cap)
    #expect(horizon.lossReason(80) == .notRefilled && horizon.lossReason(139) == .notRefilled)
    // End to end: a participant who never opens the app loses the prompts past the cap.
    var p = quietProfile()
    p.forceQuitPerDay = 500  // the app never runs code again after the first morning
    let plan = testPlan(days: 14, participants: 5, devices: [(p, 1)], channel: ChannelPlan(kind: .local, cap: 64)) {
      $0.compliance.setOneClass(level: 0)
      $0.compliance.dropoutPerDay = 0
    }
    for o in outcomes(plan) {
      #expect(o.prompts.count == 84)
      #expect(o.prompts[64...].allSatisfy { $0.status == .undelivered && $0.reason == .cap })
      #expect(o.prompts[..<64].allSatisfy { $0.reason != .cap })
    }
  }

  @Test("an app running in the background on its anchor tops up its plan as it runs (refill_in_background): never opened, it loses nothing; without background top-ups it runs out after its 7 days")
  func keepAliveRefills() {
    for refill in [true, false] {
      var channel = ChannelPlan.iosLocal
      channel.refillInBackground = refill
      // 6 a day for 14 days on a phone that never stops the app; no one ever opens it.
      let plan = testPlan(days: 14, participants: 5, devices: [(quietProfile(), 1)], channel: channel) {
        $0.compliance.setOneClass(level: 0)
        $0.compliance.dropoutPerDay = 0
      }
      for o in outcomes(plan) {
        #expect(o.prompts.count == 84)
        let lost = o.prompts.filter { $0.reason == .cap || $0.reason == .notRefilled }
        if refill {
          #expect(lost.isEmpty, "\(lost.count) lost")
        } else {
          // Planned at the start for 7 days ahead (day 0 to day 7), then never again.
          #expect(lost.count == 36 && lost.allSatisfy { $0.reason == .notRefilled }, "\(lost.count) lost")
        }
      }
    }
  }

  @Test("AWARE's plugin plans 56 per schedule and iOS the soonest 64 of all: a schedule past its 56 leaves its later prompts out while the other's are planned")
  func awarePerScheduleCap() {
    // Schedule 0: 8 a day (09:00-16:00); schedule 1: one a day at 20:00; 14 days.
    var times: [SimTime] = []
    var days: [Int32] = []
    var parts: [UInt16] = []
    for d in 0..<14 {
      for h in 0..<8 {
        times.append(SimTime(d) * Tick.day + SimTime(9 + h) * Tick.hour)
        days.append(Int32(d))
        parts.append(0)
      }
      times.append(SimTime(d) * Tick.day + 20 * Tick.hour)
      days.append(Int32(d))
      parts.append(1)
    }
    var planner = LocalPlanner(channel: .awareIOS, reminders: 0)
    planner.refill(at: 0, times: times, days: days, parts: parts, schedules: 2, today: 0)
    let planned = times.indices.filter(planner.isPlanned)
    // Schedule 0's 56 (days 0-6) and schedule 1's days 0-7: 64 in all.
    #expect(planned.count == 64)
    #expect(planned.filter { parts[$0] == 0 }.count == 56)
    #expect(planned.filter { parts[$0] == 1 }.map { days[$0] } == Array(0...7))
    #expect(!planner.isPlanned(times.indices.first { days[$0] == 7 && parts[$0] == 0 }!))
    #expect(planner.cutByCap)
    // One schedule alone: its 56.
    let alone = times.indices.filter { parts[$0] == 0 }
    var single = LocalPlanner(channel: .awareIOS, reminders: 0)
    single.refill(at: 0, times: alone.map { times[$0] }, days: alone.map { days[$0] }, parts: alone.map { _ in 0 }, schedules: 1, today: 0)
    #expect(single.end == 56 && !single.isPlanned(56))
    // A top-up on day 3 plans anew from the next prompt.
    planner.refill(at: 3 * Tick.day, times: times, days: days, parts: parts, schedules: 2, today: 3)
    let later = times.indices.filter { planner.isPlanned($0) && times[$0] > 3 * Tick.day }
    #expect(later.count == 64 && later.first == times.firstIndex { $0 > 3 * Tick.day })
  }

  @Test("ESMira's planner counts occurrences: every other day plans days 0, 2, 4, 6; Monday-only four Mondays; each schedule its own")
  func esmiraOccurrences() {
    // Two prompts a day every other day for 30 days.
    let everyOther = (0..<30).map { Int32(2 * ($0 / 2)) }
    var planner = LocalPlanner(channel: .esmira, reminders: 0)
    let t1 = everyOther.enumerated().map { SimTime($1) * Tick.day + 9 * Tick.hour + SimTime($0 % 2) * Tick.hour }
    planner.refill(at: 0, times: t1, days: everyOther, parts: [UInt16](repeating: 0, count: 30), schedules: 1, today: 0)
    #expect(Set((0..<30).filter(planner.isPlanned).map { everyOther[$0] }) == [0, 2, 4, 6])
    // One prompt on Mondays (days 0, 7, 14, …).
    let mondays = (0..<10).map { Int32(7 * $0) }
    var weekly = LocalPlanner(channel: .esmira, reminders: 0)
    weekly.refill(at: 0, times: mondays.map { SimTime($0) * Tick.day + 9 * Tick.hour }, days: mondays, parts: [UInt16](repeating: 0, count: 10), schedules: 1, today: 0)
    #expect(weekly.end == 4)
    // Two schedules, daily at 09:00 (0) and every other day at 20:00 (1): each counts its own.
    var days: [Int32] = []
    var parts: [UInt16] = []
    for d in 0..<20 {
      days.append(Int32(d))
      parts.append(0)
      if d % 2 == 0 {
        days.append(Int32(d))
        parts.append(1)
      }
    }
    let n = LocalPlanner.occurrences(4, from: 0, days: days, parts: parts)
    // In time order the daily schedule's fifth day (day 4) comes first: the plan stops there.
    #expect(Array(days[..<n]) == [0, 0, 1, 2, 2, 3])
  }

  @Test("ESMira's planner never holds more than 55 and plans the next 4 repetitions")
  func esmiraPlanner() {
    // ESMira's worked example: 4 times of day, 2 reminders each: 12 a day, 4 repetitions = 48.
    let days = (0..<120).map { Int32($0 / 4) }
    let times = (0..<120).map { SimTime($0 / 4) * Tick.day + 9 * Tick.hour + SimTime($0 % 4) * 3 * Tick.hour }
    var planner = LocalPlanner(channel: .esmira, reminders: 2)
    planner.refill(at: 0, times: times, days: days, parts: [UInt16](repeating: 0, count: times.count), schedules: 1, today: 0)
    #expect(planner.end == 16)
    // The notifications the phone holds, counted from what is planned: 16 prompts × 3 = 48.
    #expect((0..<times.count).filter { planner.isPlanned($0) && times[$0] > 0 }.count * 3 == 48)
    // Five times of day with two reminders (15 a day): only 3 repetitions fit under 55.
    let days5 = (0..<150).map { Int32($0 / 5) }
    let times5 = (0..<150).map { SimTime($0 / 5) * Tick.day + 8 * Tick.hour + SimTime($0 % 5) * 2 * Tick.hour }
    var five = LocalPlanner(channel: .esmira, reminders: 2)
    five.refill(at: 0, times: times5, days: days5, parts: [UInt16](repeating: 0, count: times5.count), schedules: 1, today: 0)
    #expect(five.end == 15)
    // Topping up at random moments never passes 55 pending.
    var s = RandomStream(StreamAddress(seed: 8, purpose: .general))
    var t: SimTime = 0
    for _ in 0..<200 {
      t += SimTime(s.integer(below: UInt64(2 * Tick.day)))
      let today = Int(t / Tick.day)
      five.refill(at: t, times: times5, days: days5, parts: [UInt16](repeating: 0, count: times5.count), schedules: 1, today: today)
      let pending = (0..<times5.count).filter { five.isPlanned($0) && times5[$0] > t }.count
      #expect(pending * 3 <= 55)
    }
    // Without openings or a background task that runs, the plan runs out after 4 days.
    var p = quietProfile()
    p.forceQuitPerDay = 0
    let plan = testPlan(days: 10, participants: 5, devices: [(p, 1)], channel: .esmira) {
      $0.compliance.setOneClass(level: 0)
      $0.compliance.dropoutPerDay = 0
      $0.protocolPlan.channel.backgroundTaskSuccess = 0
    }
    for o in outcomes(plan) {
      let lost = o.prompts.filter { $0.reason == .notRefilled }
      #expect(!lost.isEmpty)
      #expect(lost.allSatisfy { $0.day >= 4 })
      #expect(o.prompts.filter { $0.day < 4 }.allSatisfy { $0.reason != .notRefilled })
    }
    // Every other day (dailyRepeatRate 2), never opened: delivered on days 0, 2, 4 and 6; a
    // Monday-only schedule (the study starts on a Monday) on four Mondays.
    let w = try! Window(parsing: "08:00-22:00")
    for (part, expected) in [
      (SchedulePart(ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 2)), window: .fixed(weekday: w, weekend: w), everyDays: 2), Set([0, 2, 4, 6])),
      (SchedulePart(ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 2)), window: .fixed(weekday: w, weekend: w), weekdays: [0]), Set([0, 7, 14, 21])),
    ] {
      let repeating = testPlan(days: 42, participants: 5, devices: [(p, 1)], channel: .esmira) {
        $0.protocolPlan.schedules = [part]
        $0.compliance.setOneClass(level: 0)
        $0.compliance.dropoutPerDay = 0
        $0.protocolPlan.channel.backgroundTaskSuccess = 0
      }
      for o in outcomes(repeating) {
        #expect(Set(o.prompts.filter { $0.delivered >= 0 }.map(\.day)) == expected)
      }
    }
  }

  @Test("the battery's moment at a level is the division's, and nil exactly when that comes after the limit")
  func batteryReachesLevel() {
    var s = RandomStream(StreamAddress(seed: 43, purpose: .general))
    var found = 0
    var beyond = 0
    for _ in 0..<20_000 {
      var b = Battery(level: s.uniform(0, 100))
      let start = SimTime(s.integer(below: UInt64(Tick.day)))
      let perHour = s.bernoulli(0.5) ? -s.uniform(0.5, 8) : s.uniform(1, 40)
      b.setRate(perTick: Battery.perTick(perHour), at: start)
      let threshold = [0.0, 20, 80, 100][Int(s.integer(below: 4))]
      let limit = start + SimTime(s.integer(below: UInt64(2 * Tick.day)))
      let gap = threshold - b.level
      // The moment by division (ticks, rounded up), where the level moves towards the threshold.
      let exact = gap != 0 && gap.sign == b.ratePerTick.sign ? start + SimTime((gap / b.ratePerTick).rounded(.up)) : nil
      let t = b.time(reaching: threshold, by: limit)
      if let exact, exact <= limit {
        #expect(t == exact, "level \(b.level), \(perHour) %/h, threshold \(threshold)")
        found += 1
      } else if let exact {
        // Later than the limit: nil, unless within a tick of it (rounding).
        #expect(t == nil || exact - limit <= 1)
        beyond += 1
      } else {
        #expect(t == nil)
      }
    }
    #expect(found > 1_000 && beyond > 1_000)  // both sides of the limit were tried
  }
}

@Suite("Own phones: Doze, standby buckets, permissions, makers, removal")
struct OwnPhoneTests {
  @Test("Doze: an hour after the quiet starts, dozing 1 h, 2 h, 4 h, 6 h, 6 h … between windows of 5, 10, 10 … minutes; the phase agrees with the stretches")
  func dozeCycle() {
    let q: SimTime = 1000
    let dozing = Doze.dozing(in: Intervals([(q, q + 20 * Tick.hour)]))
    let m = Tick.minute
    let h = Tick.hour
    let starts = [q + h, q + 2 * h + 5 * m, q + 4 * h + 15 * m, q + 8 * h + 25 * m, q + 14 * h + 35 * m]
    #expect(dozing.spans.map(\.start) == starts)
    #expect(dozing.spans.map { $0.end - $0.start } == [h, 2 * h, 4 * h, 6 * h, 20 * h - (14 * h + 35 * m)])
    for t in stride(from: q, to: q + 20 * h, by: Int(7 * m)) {
      #expect(Doze.phase(at: t, quietSince: q).dozing == dozing.contains(t))
    }
  }

  @Test("App Standby: active under 12 h, working set, frequent after 24 h, rare after 48 h, restricted after 8 days")
  func buckets() {
    #expect(StandbyBucket(idle: 11 * Tick.hour) == .active)
    #expect(StandbyBucket(idle: 13 * Tick.hour) == .workingSet)
    #expect(StandbyBucket(idle: 25 * Tick.hour) == .frequent)
    #expect(StandbyBucket(idle: 3 * Tick.day) == .rare)
    #expect(StandbyBucket(idle: 9 * Tick.day) == .restricted)
    #expect(StandbyBucket.restricted.alarmGap == Tick.day && StandbyBucket.rare.alarmGap == 0)
  }

  func plan(_ os: OperatingSystem, _ edit: (inout StudyPlan) -> Void) -> StudyPlan {
    testPlan(
      days: 14, participants: 40, devices: [(.nonControlled, 1)], systems: [(os, 1)],
      sensors: [SensorPlan.defaults(named: "location")], configure: edit)
  }

  func outcomes(_ plan: StudyPlan) -> [ParticipantOutcome] { StudyModelTests.outcomes(plan, seed: 5) }

  /// `population.phones.doze: false` switches off App Standby with Doze, as documented: an
  /// os-woken app (its hourly alarm) never opened (nobody answers) records location on days
  /// 10-14 as on days 1-4, where with both on the restricted bucket (after 8 days unused)
  /// holds its alarms to one a day.
  @Test("doze: false switches off App Standby too: an unused app is not restricted after 8 days")
  func dozeOffSwitchesOffStandby() {
    func collectedShare(doze: Bool, days: ClosedRange<Int>) -> Double {
      let p = plan(.android) {
        $0.phones.doze = doze
        $0.protocolPlan.appDesign.kind = .osWoken
        $0.compliance.setOneClass(level: 0)
        $0.compliance.dropoutPerDay = 0
      }
      let rows = StudyModelTests.outcomes(p, seed: 5, keepRows: true).flatMap(\.coverageRows).filter { days.contains($0.hour / 24) }
      return Double(rows.filter { $0.collected > 0 }.count) / Double(max(rows.count, 1))
    }
    let offEarly = collectedShare(doze: false, days: 0...3)
    let offLate = collectedShare(doze: false, days: 9...13)
    let onEarly = collectedShare(doze: true, days: 0...3)
    let onLate = collectedShare(doze: true, days: 9...13)
    #expect(offLate >= 0.9 * offEarly, "doze off: \(offEarly) -> \(offLate)")
    #expect(onLate < 0.5 * onEarly, "doze on: \(onEarly) -> \(onLate)")
  }

  /// Notifications turned off after two days for half the participants: from then on none of
  /// their prompts is shown (`notifications_off`), none before; the others lose none to it.
  /// Half of 400 is 200 ± 4 sd (sd 10).
  @Test("notifications off after day 2 for a share: their prompts from then on are not shown, and only theirs")
  func notificationsOff() {
    let p = testPlan(days: 5, participants: 400, devices: [(.ideal, 1)], systems: [(.ios, 0.5), (.android, 0.5)]) {
      $0.phones.notificationsOffShare = 0.5
      $0.phones.notificationsOffAfterDays = 2
    }
    let all = StudyModelTests.outcomes(p, seed: 3)
    var off = 0
    for o in all {
      let lost = o.prompts.filter { $0.reason == .notificationsOff }
      guard !lost.isEmpty else { continue }
      off += 1
      #expect(lost.allSatisfy { $0.day >= 2 && $0.status == .undelivered && $0.delivered < 0 })
      #expect(o.prompts.filter { $0.day >= 2 && $0.status != .droppedOut }.allSatisfy { $0.reason == .notificationsOff })
    }
    #expect(abs(off - 200) <= 40, "\(off) of 400")
    // None by default, and the same people answer as before where nobody turns them off.
    let none = StudyModelTests.outcomes(testPlan(days: 5, participants: 40), seed: 3)
    #expect(none.allSatisfy { $0.prompts.allSatisfy { $0.reason != .notificationsOff } })
  }

  @Test("a daily Focus delivers quietly: prompts in its hours are rarely seen within a minute, those outside as without it")
  func focusHours() {
    // Share of delivered prompts opened within a minute, inside and outside 12:00-18:00.
    func quick(focus: Double) -> (inside: (Int, Int), outside: (Int, Int)) {
      let p = testPlan(days: 10, participants: 300, devices: [(.ideal, 1)]) {
        $0.phones.focusShare = focus
        $0.phones.focusHours = try! Window(parsing: "12:00-18:00")
        $0.phones.ringer = [0, 0, 1]
      }
      var inside = (0, 0)
      var outside = (0, 0)
      for o in StudyModelTests.outcomes(p, seed: 9) {
        for r in o.prompts where r.delivered >= 0 {
          let clock = r.delivered % Tick.day
          let fast = r.opened >= 0 && r.opened - r.delivered <= Tick.minute ? 1 : 0
          if clock >= 12 * Tick.hour && clock < 18 * Tick.hour {
            inside.0 += fast
            inside.1 += 1
          } else {
            outside.0 += fast
            outside.1 += 1
          }
        }
      }
      return (inside, outside)
    }
    func share(_ x: (Int, Int)) -> Double { Double(x.0) / Double(x.1) }
    let on = quick(focus: 1)
    let off = quick(focus: 0)
    #expect(on.inside.1 > 3000 && off.inside.1 > 3000)
    #expect(share(on.inside) < 0.5 * share(off.inside), "\(share(on.inside)) against \(share(off.inside))")
    // Outside its hours: the same within four standard errors of the difference.
    let se = (share(off.outside) * (1 - share(off.outside)) * (1 / Double(on.outside.1) + 1 / Double(off.outside.1))).squareRoot()
    #expect(abs(share(on.outside) - share(off.outside)) < 4 * se, "\(share(on.outside)) against \(share(off.outside))")
  }

  @Test("a TestFlight build 85 days old expires on day 5: the iPhones' prompts from then are lost as build_expired and their app records nothing; Android's go on")
  func testflightExpiry() {
    let p = testPlan(days: 10, participants: 60, devices: [(.ideal, 1)], systems: [(.ios, 0.5), (.android, 0.5)], sensors: caseStudySensors) {
      $0.protocolPlan.distribution = .testflight
      $0.protocolPlan.buildAgeDays = 85
      $0.compliance.dropoutPerDay = 0
    }
    let expiry = 5 * Tick.day
    var ios = 0
    for o in StudyModelTests.outcomes(p, seed: 4, keepRows: true) {
      let expired = o.prompts.filter { $0.reason == .buildExpired }
      if o.os == .ios {
        ios += 1
        #expect(!expired.isEmpty && expired.allSatisfy { $0.scheduled >= expiry && $0.status == .undelivered })
        #expect(o.prompts.filter { $0.scheduled >= expiry }.allSatisfy { $0.reason == .buildExpired })
        // Location rows stop at the expiry.
        #expect(o.coverageRows.filter { $0.sensor == 1 && $0.hour >= 5 * 24 }.allSatisfy { $0.collected == 0 })
        #expect(o.coverageRows.contains { $0.sensor == 1 && $0.hour < 5 * 24 && $0.collected > 0 })
      } else {
        #expect(expired.isEmpty)
      }
    }
    #expect(ios > 15)
    // App Store builds do not expire.
    var store = p
    store.protocolPlan.distribution = .appStore
    #expect(StudyModelTests.outcomes(store, seed: 4).allSatisfy { $0.prompts.allSatisfy { $0.reason != .buildExpired } })
  }

  @Test("a denied location permission records no location; the default population is every phone as its condition")
  func permission() {
    let denied = outcomes(plan(.ios) { $0.phones.iosLocation = [0, 0, 1] })
    #expect(denied.allSatisfy { $0.tallies[0].collected == 0 })
    let given = outcomes(plan(.ios) { _ in })
    #expect(given.allSatisfy { $0.tallies[0].collected > 0 })
  }

  @Test("Huawei's kills stop the app's alarms: prompts are lost as app_stopped; a removed app's as app_removed")
  func makersAndRemoval() {
    let huawei = Manufacturer.builtIn.first { $0.name == "huawei" }!
    let stopped = outcomes(plan(.android) { $0.phones.manufacturers = [(huawei, 1)] })
    let lost = stopped.flatMap(\.prompts).filter { $0.reason == .appStopped }.count
    #expect(lost > 0)
    let stock = outcomes(plan(.android) { _ in })
    #expect(stock.flatMap(\.prompts).allSatisfy { $0.reason != .appStopped })
    let removing = outcomes(plan(.ios) { $0.phones.appRemovalPerDay = 0.2 })
    #expect(removing.flatMap(\.prompts).contains { $0.reason == .appRemoved })
  }

  @Test("Huawei force-stops an app the OS or pushes wake too: prompts lost as app_stopped, and location hours far fewer than on stock Android", arguments: [AppDesign.Kind.osWoken, .pushDriven])
  func makerStopsWokenApps(_ kind: AppDesign.Kind) {
    let huawei = Manufacturer.builtIn.first { $0.name == "huawei" }!
    func run(_ makers: [(maker: Manufacturer, share: Double)]) -> (lost: Int, located: Double) {
      let o = outcomes(plan(.android) {
        $0.phones.manufacturers = makers
        $0.protocolPlan.appDesign = AppDesign(kind: kind)
      })
      let lost = o.flatMap(\.prompts).filter { $0.reason == .appStopped }.count
      return (lost, Double(o.map { $0.tallies[0].collected }.reduce(0, +)))
    }
    let stopped = run([(huawei, 1)])
    let stock = run([(.stock, 1)])
    #expect(stopped.lost > 0)
    #expect(stock.lost == 0)
    // 0.5 force-stops a day: most of two weeks is spent stopped until a prompt's or the
    // participant's own opening of the app (which a stopped app's lost prompts do not bring).
    #expect(stopped.located < 0.7 * stock.located, "Huawei \(stopped.located), stock \(stock.located)")
  }
}

@Suite("Low Power Mode: an app left unattended")
struct LowPowerUnattendedTests {
  @Test("left alone, the app is suspended only after 12 waking hours (then at 1 an hour) and stays stopped")
  func leftAlone() {
    let plan = sensingPlan(.lowPower, days: 3, participants: 200)
    var excess: [Double] = []
    for k in 0..<plan.participants {
      let sim = simulate(plan, participant: UInt32(k))
      let first = try! #require(sim.runs.spans.first)
      // The app runs from midnight; its clock runs only while the participant is awake.
      let wake = sim.timetable.wake[0]
      let bed = sim.timetable.bed[0]
      #expect(first.end - wake >= 12 * Tick.hour, "participant \(k): suspended \(Tick.inMinutes(first.end - wake)) min after waking")
      #expect(sim.runs.spans.count == 1, "nothing wakes it in Low Power Mode without pushes or openings")
      if first.end < bed { excess.append(Tick.inMinutes(first.end - wake - 12 * Tick.hour)) }
    }
    // Those suspended before their first bedtime: 12 h plus an exponential wait of mean 60
    // minutes cut at the bedtime; its mean is below 60 and, with 100 or more, within
    // 4 standard errors (sd 60) of it from below.
    #expect(excess.count > 100)
    let mean = excess.reduce(0, +) / Double(excess.count)
    #expect(mean < 60 && mean > 60 - 4 * 60 / Double(excess.count).squareRoot(), "\(mean)")
  }

  @Test("three openings a day start the clock again: the app is hardly ever suspended")
  func opened() {
    let alone = sensingPlan(.lowPower, days: 3, participants: 100)
    let opened = sensingPlan(.lowPower, days: 3, participants: 100) { $0.protocolPlan.appOpensPerDay = 3 }
    func running(_ plan: StudyPlan) -> Double {
      (0..<plan.participants).reduce(0.0) { total, k in
        let sim = simulate(plan, participant: UInt32(k))
        return total + sim.runs.closed(at: 3 * Tick.day).spans.reduce(0.0) { $0 + Tick.inMinutes($1.end - $1.start) }
      } / Double(plan.participants) / (3 * 24 * 60)
    }
    let (a, o) = (running(alone), running(opened))
    #expect(a < 0.5, "left alone the app runs less than half the study: \(a)")
    #expect(o > 0.9, "opened three times a day it runs nearly throughout: \(o)")
  }
}
