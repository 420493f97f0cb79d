import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// Several schedules in one study: the days a schedule runs on, and event-contingent prompts.
@Suite("Questionnaires: weekdays, every N days, events")
struct QuestionnaireTests {
  static let window = try! Window(parsing: "09:00-21:00")

  @Test("a weekday-only schedule signals 5 a day Monday to Friday and never at weekends; every 3 days on days 0, 3, 6 …")
  func weekdaysAndEveryDays() {
    // The default start date is a Monday (startWeekday 0).
    let blocks = ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 5))
    let plan = testPlan(days: 21, participants: 20) { plan in
      plan.protocolPlan.schedules = [
        SchedulePart(blocks, window: .fixed(weekday: Self.window, weekend: Self.window), weekdays: [0, 1, 2, 3, 4]),
        SchedulePart(
          ScheduleChoice(.fixedTimes, ScheduleParameters(times: [ClockTime("12:00")!])),
          window: .fixed(weekday: Self.window, weekend: Self.window), everyDays: 3),
      ]
    }
    for o in outcomes(plan) {
      var weekdayCounts = [Int](repeating: 0, count: plan.days)
      var everyCounts = [Int](repeating: 0, count: plan.days)
      for p in o.prompts {
        if p.schedule == 0 { weekdayCounts[p.day] += 1 } else { everyCounts[p.day] += 1 }
      }
      for d in 0..<plan.days {
        #expect(weekdayCounts[d] == (plan.isWeekend(d) ? 0 : 5), "day \(d)")
        #expect(everyCounts[d] == (d % 3 == 0 ? 1 : 0), "day \(d)")
      }
    }
  }

  /// Every moment the participant leaves home in `timeline`.
  static func leavings(_ timeline: Timeline) -> [SimTime] {
    let e = timeline.episodes
    return e.indices.dropFirst().filter { e[$0 - 1].context == .home && e[$0].context != .home }.map { e[$0].start }
  }

  @Test("leaving home: one prompt 5 minutes after every time the participant leaves home in the window, and only then")
  func leavingHome() {
    let trigger = EventTrigger(event: .leaving(.home), delay: 5 * Tick.minute, maxPerDay: 200)
    let plan = testPlan(days: 14, participants: 30) { plan in
      plan.protocolPlan.schedules = [SchedulePart(.events(trigger), window: .fixed(weekday: Self.window, weekend: Self.window))]
    }
    var perDay: [Int] = []
    for k in 0..<plan.participants {
      let sim = ParticipantSimulation(plan: plan, seed: 4, replication: 0, participant: UInt32(k))
      let o = ParticipantSimulation.outcome(plan: plan, seed: 4, replication: 0, participant: UInt32(k))
      let expected = Self.leavings(sim.life.timeline).filter { t in
        let minute = Double(t % Tick.day) / Double(Tick.minute)
        return minute >= 9 * 60 && minute < 21 * 60 && t + 5 * Tick.minute < o.enrolledUntil
      }
      // Prompts of the dropout day's leavings are recorded as dropped out, not due.
      let due = o.prompts.filter { $0.status != .droppedOut }
      #expect(due.map(\.scheduled) == expected.map { $0 + 5 * Tick.minute }, "participant \(k)")
      var counts = [Int](repeating: 0, count: plan.days)
      for p in o.prompts { counts[p.day] += 1 }
      perDay += counts
    }
    // Prompts a day vary with the participant's days (a fixed schedule's would not).
    #expect(Set(perDay).count >= 3, "\(Set(perDay))")
  }

  @Test("an event trigger's gap, daily limit and chance: gaps ≥ 60 min, ≤ 2 a day, about half the events with chance ½")
  func gapLimitAndChance() {
    let base = EventTrigger(event: .phoneUnlock, minGap: 60 * Tick.minute, maxPerDay: 2)
    func prompts(_ trigger: EventTrigger) -> [[PromptRecord]] {
      let plan = testPlan(days: 10, participants: 40) { plan in
        plan.protocolPlan.schedules = [SchedulePart(.events(trigger), window: .fixed(weekday: Self.window, weekend: Self.window))]
      }
      return outcomes(plan, seed: 9).map(\.prompts)
    }
    for list in prompts(base) {
      var byDay: [Int: Int] = [:]
      for p in list { byDay[p.day, default: 0] += 1 }
      #expect(byDay.values.allSatisfy { $0 <= 2 })
      for (a, b) in zip(list, list.dropFirst()) { #expect(b.scheduled - a.scheduled >= 60 * Tick.minute) }
    }
    // Without gap or limit, a chance of ½ keeps about half of all unlocks in the window: the
    // count is binomial given the unlocks, so within 4 sd of half.
    var all = EventTrigger(event: .phoneUnlock, maxPerDay: 200)
    let every = prompts(all).reduce(0) { $0 + $1.count }
    all.probability = 0.5
    let half = prompts(all).reduce(0) { $0 + $1.count }
    #expect(every > 1000)
    let sd = (Double(every) * 0.25).squareRoot()
    #expect(abs(Double(half) - Double(every) / 2) < 4 * sd, "\(half) of \(every)")
  }

  @Test("prompts after a phone call: about calls_per_day a day, none without calls, fewer with fewer calls")
  func afterCalls() {
    let trigger = EventTrigger(event: .callEnd, delay: 2 * Tick.minute, maxPerDay: 100)
    let full = try! Window(parsing: "00:00-23:59")
    func run(perDay: Double) -> [ParticipantOutcome] {
      let plan = testPlan(days: 10, participants: 100) { plan in
        plan.protocolPlan.schedules = [SchedulePart(.events(trigger), window: .fixed(weekday: full, weekend: full))]
        plan.dailyLife.callsPerDay = perDay
        plan.compliance.dropoutPerDay = 0
      }
      return outcomes(plan, seed: 12)
    }
    let three = run(perDay: 3)
    let n = three.reduce(0) { $0 + $1.prompts.count }
    // A Poisson count of about 3 a day over ~16 waking hours (a little fewer: the day's
    // waking hours vary and the window ends at 23:59): 100 x 10 days, within 10 %.
    #expect(Double(n) > 0.8 * 3000 && Double(n) < 1.1 * 3000, "\(n) prompts")
    #expect(run(perDay: 0).allSatisfy { $0.prompts.isEmpty })
    // A third of the calls: under half the prompts.
    #expect(run(perDay: 1).reduce(0) { $0 + $1.prompts.count } < n / 2)
  }

  /// Joining (ESMira's event trigger on `joined`): one prompt a participant, its delay (a day
  /// to two, drawn uniformly) after their first waking moment of day 0, whatever the window,
  /// counted on the day it falls on, and only on a day the schedule is active.
  @Test("a prompt a set time after joining: one per participant, a day to two after waking on day 0, on an active day only")
  func afterJoining() {
    let trigger = EventTrigger(event: .joined, delay: Tick.day, delaySpread: Tick.day, maxPerDay: 1)
    let narrow = try! Window(parsing: "12:00-12:30")  // does not apply to joining
    func plan(days: ClosedRange<Int>?) -> StudyPlan {
      testPlan(days: 6, participants: 200) { plan in
        plan.protocolPlan.schedules = [SchedulePart(.events(trigger), window: .fixed(weekday: narrow, weekend: narrow), days: days)]
      }
    }
    var delays: [Double] = []
    var onDay2 = 0
    for k in 0..<200 {
      let sim = ParticipantSimulation(plan: plan(days: nil), seed: 4, replication: 0, participant: UInt32(k))
      let times = sim.timetable.times
      #expect(times.count == 1, "participant \(k): \(times)")
      guard let t = times.first else { continue }
      let delay = Double(t - sim.life.wake[0]) / Double(Tick.day)
      #expect(delay >= 1 && delay < 2, "participant \(k): \(delay) days")
      #expect(Int(sim.timetable.days[0]) == Int(t / Tick.day))
      delays.append(delay)
      if t / Tick.day == 2 { onDay2 += 1 }
      // Active on days 2-5 only: the prompt is sent only when it falls on one of them.
      let later = ParticipantSimulation(plan: plan(days: 2...5), seed: 4, replication: 0, participant: UInt32(k))
      #expect(later.timetable.times == (t / Tick.day >= 2 ? [t] : []))
    }
    // Uniform delays: their mean 1.5 days within 4 standard errors (sd 1/√12 day).
    let mean = delays.reduce(0, +) / Double(delays.count)
    #expect(abs(mean - 1.5) < 4 * (1 / 12.0).squareRoot() / Double(delays.count).squareRoot(), "mean \(mean)")
    #expect(onDay2 > 20 && onDay2 < 180, "\(onDay2) of 200 fall on day 2")
  }

  @Test("adding a questionnaire leaves the first one's prompt times alone (each schedule has its own stream)")
  func ownStreams() {
    let blocks = ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 5))
    let one = testPlan(days: 7, participants: 10, schedule: blocks)
    let two = testPlan(days: 7, participants: 10, schedule: blocks) { plan in
      plan.protocolPlan.schedules.append(
        SchedulePart(ScheduleChoice(.bernoulli, ScheduleParameters(perDay: 3)), window: .fixed(weekday: Self.window, weekend: Self.window)))
    }
    for (a, b) in zip(outcomes(one), outcomes(two)) {
      #expect(a.prompts.map(\.scheduled) == b.prompts.filter { $0.schedule == 0 }.map(\.scheduled))
    }
  }
}
