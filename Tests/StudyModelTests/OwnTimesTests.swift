import Schedules
import SimKernel
import Testing

@testable import StudyModel

@Suite("Participants' own times (protocol.own_times)")
struct OwnTimesTests {
  /// Each participant's prompt minutes after midnight, by day.
  func minutes(_ sim: ParticipantSimulation) -> [(day: Int, minute: Double)] {
    zip(sim.timetable.times, sim.timetable.days).map { t, d in
      (Int(d), Double(t - SimTime(d) * Tick.day) / Double(Tick.minute))
    }
  }

  @Test("a share of the participants move every prompt by one amount of their own, uniform in [-earlier, later)")
  func moves() throws {
    let plan = testPlan(
      days: 5, participants: 2_000, schedule: ScheduleChoice(.fixedTimes, ScheduleParameters(times: [ClockTime("09:00")!, ClockTime("15:00")!]))
    ) { $0.protocolPlan.ownTimes = OwnTimes(share: 0.6, earlier: 30 * Tick.minute, later: 3 * Tick.hour) }
    var unmoved = plan
    unmoved.protocolPlan.ownTimes = nil
    let sampled = try #require(ParticipantSimulation(plan: unmoved, seed: 4, replication: 0, participant: 0).samplingWindows)
    var shifts: [Double] = []
    var kept = 0
    for p in 0..<plan.participants {
      let sim = ParticipantSimulation(plan: plan, seed: 4, replication: 0, participant: UInt32(p))
      let m = minutes(sim)
      #expect(m.count == 10)
      let shift = m[0].minute - 9 * 60
      // Every prompt moved by the same whole number of minutes, each on its own day.
      #expect(m.enumerated().allSatisfy { i, x in x.day == i / 2 && x.minute == (i % 2 == 0 ? 9 : 15) * 60 + shift })
      #expect(shift == shift.rounded() && shift >= -30 && shift < 180, "\(shift)")
      if shift == 0 { kept += 1 } else { shifts.append(shift) }
      // The sampled hours move with them (what uniformity and predictability are measured in).
      #expect(sim.samplingWindows?.weekday.start == sampled.weekday.start + shift)
    }
    // Binomial(2,000, 0.4) keep theirs (plus the 1 in 210 movers drawn at 0): sd 21.9; 4 sd.
    #expect(abs(Double(kept) - 800) < 88, "\(kept) kept")
    // Uniform on [-30, 180): mean 75, sd 60.6; the mean of ~1,200 within 4 se (7).
    let mean = shifts.reduce(0, +) / Double(shifts.count)
    #expect(abs(mean - 74.5) < 7, "mean shift \(mean)")
    // Both ends reached: the lowest and highest tenth of the range are each about 10 %.
    let low = Double(shifts.filter { $0 < -9 }.count) / Double(shifts.count)
    let high = Double(shifts.filter { $0 >= 159 }.count) / Double(shifts.count)
    #expect(abs(low - 0.1) < 0.035 && abs(high - 0.1) < 0.035, "\(low) \(high)")
  }

  @Test("moved earlier on the first day, a prompt before the study's start is not sent; nobody moved is as without the rule")
  func edges() throws {
    let times = ScheduleChoice(.fixedTimes, ScheduleParameters(times: [ClockTime("00:30")!, ClockTime("12:00")!]))
    let day = try Window(parsing: "00:15-23:00")
    let plan = testPlan(days: 3, participants: 300, schedule: times, window: .fixed(weekday: day, weekend: day)) {
      $0.protocolPlan.ownTimes = OwnTimes(share: 1, earlier: 2 * Tick.hour)
    }
    var before = 0
    for p in 0..<plan.participants {
      let sim = ParticipantSimulation(plan: plan, seed: 4, replication: 0, participant: UInt32(p))
      let m = minutes(sim)
      #expect(sim.timetable.times.allSatisfy { $0 >= 0 })
      if m.count == 5 { before += 1 }  // day 1's 00:30 moved before midnight of the study's start
      #expect(m.count == 5 || m.count == 6)
    }
    // Moved by more than 30 minutes: 90 of 120 minutes.
    #expect(abs(Double(before) / 300 - 0.75) < 0.1, "\(before)")
    // share 0: the same prompts as without own times.
    let none = testPlan(days: 3, participants: 50, schedule: ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 5)))
    var zero = none
    zero.protocolPlan.ownTimes = OwnTimes(share: 0, later: Tick.hour)
    for p in 0..<50 {
      let a = ParticipantSimulation(plan: none, seed: 2, replication: 0, participant: UInt32(p)).timetable.times
      let b = ParticipantSimulation(plan: zero, seed: 2, replication: 0, participant: UInt32(p)).timetable.times
      #expect(a == b)
    }
  }
}
