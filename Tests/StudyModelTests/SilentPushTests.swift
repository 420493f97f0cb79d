import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// iOS's budget for silent pushes ([@AppleBackgroundUpdates]: "two or three per hour").
@Suite("Silent pushes within iOS's budget")
struct SilentPushTests {
  /// The deliveries of pushes sent every `every` for `hours`, the phone online except in `offline`.
  static func deliveries(every: SimTime, hours: Int, offline: Range<SimTime>? = nil) -> [PushBudget.Delivered] {
    var b = PushBudget(every: every)
    var out: [PushBudget.Delivered] = []
    let reachable = { (t: SimTime) in !(offline?.contains(t) ?? false) }
    let back = { (t: SimTime) -> SimTime? in offline.map { $0.upperBound } ?? t }
    while let d = b.next(every: every, limit: SimTime(hours) * Tick.hour, reachable: reachable, nextReachable: back) {
      out.append(d)
    }
    return out
  }

  @Test("within the budget every push is delivered when it arrives")
  func withinBudget() {
    let d = Self.deliveries(every: 30 * Tick.minute, hours: 10)
    #expect(d.count == 19)  // 00:30 … 09:30
    #expect(d.allSatisfy { $0.time == $0.arrived && $0.time % (30 * Tick.minute) == 0 })
  }

  @Test("over the budget: the bucket's 3, then 3 an hour, each a held push delivered when one accrues")
  func overBudget() {
    let d = Self.deliveries(every: Tick.minute, hours: 10)
    // 3 at once from the full bucket, then one every 20 minutes: 3 + 3 × 10 less the last
    // one that would fall at 10:00.
    #expect(d.count >= 31 && d.count <= 33, "\(d.count) deliveries")
    #expect(Array(d.prefix(3).map(\.time)) == [Tick.minute, 2 * Tick.minute, 3 * Tick.minute])
    for (a, b) in zip(d.dropFirst(3), d.dropFirst(4)) {
      #expect(abs(Double(b.time - a.time) - PushBudget.refill) <= Double(Tick.minute), "\(a.time) → \(b.time)")
      #expect(b.arrived <= b.time)
    }
  }

  @Test("offline: APNs holds the newest push and delivers it when the phone is back")
  func offline() {
    let d = Self.deliveries(every: 30 * Tick.minute, hours: 6, offline: (2 * Tick.hour)..<(3 * Tick.hour + 10 * Tick.minute))
    #expect(d.map(\.time).contains(3 * Tick.hour + 10 * Tick.minute))
    #expect(!d.map(\.time).contains { (2 * Tick.hour)..<(3 * Tick.hour + 10 * Tick.minute) ~= $0 })
  }

  @Test("heavy phones, location every 3 minutes: a push every minute buys no more Comp than one every 20 minutes")
  func budgetCapsComp() {
    func comp(_ every: SimTime) -> Double {
      let plan = testPlan(
        days: 3, participants: 100, devices: [(.heavy, 1)],
        sensors: [SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute))]
      ) { $0.protocolPlan.silentPushEvery = every }
      var t = SensorTally()
      for o in outcomes(plan, seed: 3) { t.add(o.tallies[0]) }
      return Double(t.comp) / Double(t.hours)
    }
    let atBudget = comp(20 * Tick.minute)
    let everyMinute = comp(Tick.minute)
    // 100 phones × 72 hours: a share's standard error is under 0.01 (hours of a phone are
    // correlated; 0.03 is over three of them). Without the budget a push every minute gave
    // 0.99.
    #expect(everyMinute < atBudget + 0.03, "every minute \(everyMinute), every 20 minutes \(atBudget)")
    #expect(everyMinute < 0.5)
  }
}
