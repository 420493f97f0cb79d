import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// Variants that differ only in their protocol share each participant's life and truth
/// (common random numbers): the comparison between them carries none of that noise.
@Suite("Common random numbers across protocols")
struct CommonRandomNumbersTests {
  /// The quickstart's design: a realistic mix of phones, five prompts a day in 08:00–22:00,
  /// two schedules.
  static func plan(_ schedule: ScheduleChoice) -> StudyPlan {
    testPlan(
      days: 14, participants: 300,
      devices: [(.ideal, 0.25), (.nonControlled, 0.35), (.heavy, 0.2), (.lowPower, 0.2)],
      systems: [(.ios, 0.6), (.android, 0.4)], schedule: schedule
    ) { p in
      p.compliance.stateDependence = 0.5
    }
  }

  static let mappiness = plan(ScheduleChoice(.mappiness, ScheduleParameters(perDay: 5)))
  static let blocks = plan(
    ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 5, minGap: 60, gapMethod: .truncation)))

  @Test("two schedules: every participant has the same device, system, days and true waking mean")
  func sameLifeAndTruth() {
    for participant in UInt32(0)..<UInt32(Self.mappiness.participants) {
      let a = ParticipantSimulation(plan: Self.mappiness, seed: 4, replication: 1, participant: participant)
      let b = ParticipantSimulation(plan: Self.blocks, seed: 4, replication: 1, participant: participant)
      #expect(a.life.timeline.episodes == b.life.timeline.episodes, "participant \(participant)")
      let x = ParticipantSimulation.outcome(plan: Self.mappiness, seed: 4, replication: 1, participant: participant)
      let y = ParticipantSimulation.outcome(plan: Self.blocks, seed: 4, replication: 1, participant: participant)
      #expect(x.device == y.device && x.os == y.os, "participant \(participant)")
      #expect(x.trueMean == y.trueMean, "participant \(participant)")
      #expect(x.enrolledUntil == y.enrolledUntil, "participant \(participant)")
      #expect(x.prompts.map(\.scheduled) != y.prompts.map(\.scheduled))  // the schedules do differ
    }
  }

  @Test("two schedules: the phone's own life (nightly charging, reboots) is the same")
  func samePhoneLife() {
    // A phone whose battery never runs low (no charging by day), that reboots often, and
    // whose app is killed and suspended often (draws the protocol's events consume).
    var phone = DeviceProfile.ideal
    phone.rebootPerDay = 0.3
    phone.killPerHour = 0.3
    phone.suspendPerHour = 0.1
    phone.drainAwake = 1
    phone.drainAsleep = 0.3
    phone.drainApp = 0.3
    func plan(_ schedule: ScheduleChoice) -> StudyPlan {
      testPlan(days: 21, participants: 60, devices: [(phone, 1)], schedule: schedule)
    }
    let a = plan(ScheduleChoice(.mappiness, ScheduleParameters(perDay: 5)))
    let b = plan(ScheduleChoice(.bernoulli, ScheduleParameters(perDay: 9)))
    var reboots = 0
    for participant in UInt32(0)..<60 {
      var x = ParticipantSimulation(plan: a, seed: 2, replication: 0, participant: participant)
      var y = ParticipantSimulation(plan: b, seed: 2, replication: 0, participant: participant)
      x.run()
      y.run()
      #expect(x.power.chargingSpans.spans.elementsEqual(y.power.chargingSpans.spans, by: ==), "participant \(participant)")
      #expect(x.power.phoneOn.spans.elementsEqual(y.power.phoneOn.spans, by: ==), "participant \(participant)")
      #expect(x.power.battery.level > DeviceProfile.lowPowerOfferLevel + 1)  // never low: no charging by day
      reboots += x.power.phoneOn.spans.count - 1
    }
    #expect(reboots > 100)  // 60 × 21 days × 0.3: the check above compares something
  }

  @Test("paired across schedules: a bias difference is the estimates' difference, whose variance is far below an unpaired one")
  func pairedBeatsUnpaired() {
    func estimates(_ plan: StudyPlan) -> [(mean: Double, bias: Double)] {
      (0..<plan.participants).map { k in
        let o = ParticipantSimulation.outcome(plan: plan, seed: 4, replication: 0, participant: UInt32(k))
        let r = o.prompts.filter { $0.status == .answered }.map(\.reported)
        let mean = r.isEmpty ? .nan : r.reduce(0, +) / Double(r.count)
        return (mean, mean - o.trueMean)
      }
    }
    let pairs = zip(estimates(Self.mappiness), estimates(Self.blocks)).filter { $0.0.mean.isFinite && $0.1.mean.isFinite }
    #expect(pairs.count > 250)
    // The truth is shared: the difference of two biases is the difference of the two
    // estimates, with no noise of the truth in it.
    for (a, b) in pairs { #expect(abs((a.bias - b.bias) - (a.mean - b.mean)) < 1e-9) }
    func variance(_ x: [Double]) -> Double {
      let m = x.reduce(0, +) / Double(x.count)
      return x.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(x.count - 1)
    }
    // Paired: the same participants under both schedules; unpaired: each against the next
    // participant. Pairing removes the person-to-person spread of the estimates (the
    // person's level, sd 8, and days): measured 0.02-0.07 of the unpaired variance over
    // 14 and 60 days, fixed and personal windows; with ~300 pairs a variance ratio has a
    // relative standard error near 0.1, so 0.15 leaves a wide margin.
    let paired = variance(pairs.map { $0.0.mean - $0.1.mean })
    let unpaired = variance(pairs.indices.map { pairs[$0].0.mean - pairs[($0 + 1) % pairs.count].1.mean })
    #expect(paired < 0.15 * unpaired, "paired \(paired), unpaired \(unpaired)")
  }
}

@Suite("The registry of random streams")
struct StreamRegistryTests {
  @Test("every named stream has its own address, and no schedule's stream is another's")
  func distinct() {
    let named = Purpose.all.map(\.purpose)
    #expect(Set(named).count == named.count, "\(Purpose.all.map { "\($0.name) \($0.purpose)" })")
    let schedules = Set((0..<1_000).map { Purpose.schedule($0) })
    #expect(schedules.count == 1_000)
    #expect(Set(named.filter { $0.kind != Purpose.schedule.kind }).isDisjoint(with: schedules))
    // Each model kind is its own (the table in StreamPurposes.swift): kinds 0-8.
    #expect(Set(named.map(\.kind)) == Set(0...8))
  }
}
