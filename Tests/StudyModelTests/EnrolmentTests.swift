import Schedules
import SimKernel
import Testing

@testable import StudyModel

@Suite("Rolling enrolment (population.enrolment_days)")
struct EnrolmentTests {
  @Test("participants join uniformly over the first days and live their own weekdays: a weekday-only week gives each five days")
  func weekdays() throws {
    let w = try Window(parsing: "09:00-21:00")
    let plan = testPlan(days: 7, participants: 1_400) {
      $0.enrolmentDays = 7
      $0.protocolPlan.schedules = [
        SchedulePart(ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 3)), window: .fixed(weekday: w, weekend: w), weekdays: [0, 1, 2, 3, 4])
      ]
    }
    var joins = [Int](repeating: 0, count: 7)
    for p in 0..<plan.participants {
      let o = ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: UInt32(p))
      joins[o.joinDay] += 1
      // Five weekdays of three prompts, none on the participant's own Saturday or Sunday.
      #expect(o.prompts.count == 15)
      let weekend = Set((0..<7).filter { (o.joinDay + $0) % 7 >= 5 })
      #expect(o.prompts.allSatisfy { !weekend.contains($0.day) }, "joined \(o.joinDay)")
    }
    // Multinomial(1,400, 1/7 each): sd 13.1; 4 sd.
    #expect(joins.allSatisfy { abs($0 - 200) < 53 }, "\(joins)")
    // One day of enrolment: everyone on the first, and no draw (the outcome is as before the key).
    var one = plan
    one.enrolmentDays = 1
    #expect((0..<20).allSatisfy { ParticipantSimulation.outcome(plan: one, seed: 5, replication: 0, participant: UInt32($0)).joinDay == 0 })
  }

  @Test("a late joiner's clock: the zone's changes move by the days they joined after the start")
  func zoneShift() {
    // A change to +1 h at the start of day 10 (instant), as daylight saving does.
    let zone = ZoneOffsets(name: "Test/Zone", offsets: [0, Tick.hour], changes: [10 * Tick.day])
    let late = zone.shifted(byDays: 4)
    for u in stride(from: SimTime(0), to: 20 * Tick.day, by: Int(Tick.hour)) {
      #expect(late.offset(atInstant: u) == zone.offset(atInstant: u + 4 * Tick.day))
    }
    #expect(late.offset(atInstant: 6 * Tick.day - 1) == 0 && late.offset(atInstant: 6 * Tick.day) == Tick.hour)
    var plan = testPlan()
    plan.timeZones = [(zone, 1)]
    plan.startWeekday = 5
    let joined = plan.joining(on: 4)
    #expect(joined.startWeekday == 2 && joined.timeZones[0].zone == late && joined.days == plan.days)
  }
}
