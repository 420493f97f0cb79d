import Foundation
import SimKernel
import Testing

@testable import StudyModel

@Suite("Battery: what the app's sensing costs (AWARE-iOS §5.2)")
struct BatteryTests {
  /// The paper's bench phone, never charged.
  static var bench: DeviceProfile {
    var p = SensorDrain.bench
    p.chargeNightly = 0
    p.chargeWhenLow = 0
    return p
  }

  /// Hours the simulated bench phone runs from full with these sensors: the whole simulation
  /// (app, sleep, Low Power Mode), read from when its phone first goes off and the level it
  /// started at.
  static func life(_ sensors: [SensorPlan]) -> Double {
    let plan = sensingPlan(bench, days: 3, participants: 1) {
      $0.protocolPlan.sensors = sensors
    }
    var sim = ParticipantSimulation(plan: plan, seed: 3, replication: 0, participant: 0, traceBattery: true)
    sim.run()
    let start = sim.power.trace.first!.1
    let off = sim.phoneOn.spans.first!.end
    return Double(off) / Double(Tick.hour) * 100 / start
  }

  static func location(_ a: LocationAccuracy) -> SensorPlan {
    SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute), accuracy: a, storage: .json)
  }

  @Test("the three location accuracies' battery lives within 15 % of the paper's 16.05, 34.05 and 22.52 h, from the settings alone")
  func locationLives() {
    let paper: [(LocationAccuracy, Double)] = [(.bestForNavigation, 16.05), (.tenMeters, 34.05), (.hundredMeters, 22.52)]
    for (accuracy, hours) in paper {
      let simulated = Self.life([Self.location(accuracy)])
      #expect(abs(simulated - hours) / hours < 0.15, "\(accuracy.rawValue): \(simulated) h against \(hours) h")
    }
    // The order the paper reports: the most accurate runs flat first.
    #expect(Self.life([Self.location(.bestForNavigation)]) < Self.life([Self.location(.hundredMeters)]))
  }

  @Test("the accelerometer at 5 Hz lasts nearly 5 hours longer writing JSON than SQLite, and twice the rate costs twice the rows")
  func storage() {
    func accelerometer(_ s: SensorStorage, hz: Double = 5) -> SensorPlan {
      SensorPlan(name: "accelerometer", kind: .periodic(period: SimTime(1000 / hz)), storage: s)
    }
    let json = Self.life([accelerometer(.json)])
    let sqlite = Self.life([accelerometer(.sqlite)])
    #expect(abs((json - sqlite) - 5) < 0.75, "JSON \(json) h, SQLite \(sqlite) h")
    #expect(abs(accelerometer(.sqlite, hz: 10).drainPerHour - 2 * accelerometer(.sqlite).drainPerHour) < 1e-9)
    #expect(Self.life([accelerometer(.sqlite, hz: 10)]) < sqlite)
  }

  @Test("the paper's ideal phones never run flat: no hour without location and the phone never off, 100 phones × 3 days with the case study's sensors")
  func idealNeverFlat() {
    var sensors = caseStudySensors
    sensors[1].accuracy = .hundredMeters
    // Phone-off stretches beyond the first, Low Power Mode stretches, app runs beyond the first.
    func losses(_ profile: DeviceProfile) -> (offs: Int, lowPower: Int, restarts: Int) {
      let plan = sensingPlan(profile, days: 3, participants: 100) { $0.protocolPlan.sensors = sensors }
      var out = (offs: 0, lowPower: 0, restarts: 0)
      for k in 0..<plan.participants {
        let sim = simulate(plan, participant: UInt32(k))
        out.offs += sim.phoneOn.closed(at: 3 * Tick.day).spans.count - 1
        out.lowPower += sim.lowPowerSpans.closed(at: 3 * Tick.day).spans.count
        out.restarts += sim.runs.closed(at: 3 * Tick.day).spans.count - 1
      }
      return out
    }
    let ideal = losses(.ideal)
    #expect(ideal.offs == 0 && ideal.lowPower == 0 && ideal.restarts == 0)
    // The same phones charged like everyone else's (95 % a night, 85 % when low, Low Power
    // Mode accepted half the time) do run flat or low.
    var ordinary = DeviceProfile.ideal
    ordinary.chargeNightly = 0.95
    ordinary.chargeWhenLow = 0.85
    ordinary.lowPowerAccept = 0.5
    let other = losses(ordinary)
    #expect(other.offs > 0 && other.lowPower > 0)
  }

  @Test("people's charging habit (compliance.charge_nightly) replaces the profiles': never plugged in at night, phones are off far longer; always, no longer than with the profile's 95 %")
  func peopleCharge() {
    var sensors = caseStudySensors
    sensors[1].accuracy = .hundredMeters
    var ordinary = DeviceProfile.ideal
    ordinary.chargeNightly = 0.95
    ordinary.chargeWhenLow = 0.85
    // Hours the phones were off in the 3 days.
    func off(_ people: Double?) -> Double {
      let plan = sensingPlan(ordinary, days: 3, participants: 100) {
        $0.protocolPlan.sensors = sensors
        $0.compliance.chargeNightly = people
      }
      let on = (0..<plan.participants).reduce(SimTime(0)) { total, k in
        total + simulate(plan, participant: UInt32(k)).phoneOn.closed(at: 3 * Tick.day).spans.reduce(0) { $0 + $1.end - $1.start }
      }
      return Double(SimTime(plan.participants) * 3 * Tick.day - on) / Double(Tick.hour)
    }
    let (profiles, never, always) = (off(nil), off(0), off(1))
    #expect(never > 2 * max(profiles, 24), "never plugged in: \(never) h off, the profile's: \(profiles) h")
    #expect(always <= profiles, "always plugged in: \(always) h off, the profile's: \(profiles) h")
  }

  @Test("the first day's phones run flat as often as the later days': a phone not plugged in on the study's first night starts with what the day before left (2,000 participants × 4 days, plugged in 3 nights in 4)")
  func firstDayLikeTheOthers() {
    let plan = testPlan(days: 4, participants: 2_000, devices: [(.nonControlled, 1)]) { $0.compliance.chargeNightly = 0.75 }
    // Participant-days with a prompt lost to a dead phone, the first day and the three after.
    var dead = [0, 0]
    var days = [0, 0]
    for o in outcomes(plan, seed: 5) {
      for d in 0..<4 {
        let k = d == 0 ? 0 : 1
        days[k] += 1
        if o.prompts.contains(where: { $0.day == d && $0.reason == .phoneOff }) { dead[k] += 1 }
      }
    }
    let first = Double(dead[0]) / Double(days[0])
    let later = Double(dead[1]) / Double(days[1])
    // Enough dead phones to see a difference (a start regardless of the charge gave none on the first day).
    #expect(later > 0.05, "later days: \(later)")
    // The two shares agree within 4 standard errors of their difference (the nights are drawn apart).
    let p = Double(dead[0] + dead[1]) / Double(days[0] + days[1])
    let se = (p * (1 - p) * (1 / Double(days[0]) + 1 / Double(days[1]))).squareRoot()
    #expect(abs(first - later) < 4 * se, "first day \(first), later days \(later), se \(se)")
  }
}

@Suite("Local storage: the app's unsynced data filling a small phone (AWARE-iOS §3.2)")
struct LocalStorageTests {
  @Test("the store fills after the run time its free space holds, stays full until a sync, and fills again")
  func fillsAndEmpties() {
    let h = Tick.hour
    let runs = Intervals([(0, 10 * h)])
    let syncs = Intervals([(5 * h, 5 * h + h / 2)])
    // 2 hours of data fit.
    let full = LocalStorage.full(runs: runs, syncs: syncs, freeBytes: 2_000, bytesPerHour: 1_000, until: 10 * h)
    #expect(full.spans.map { [$0.start, $0.end] } == [[2 * h, 5 * h], [7 * h + h / 2, 10 * h]])
    // Run time, not clock time, fills it: a gap in the runs delays the filling.
    let gappy = Intervals([(0, h), (3 * h, 10 * h)])
    let later = LocalStorage.full(runs: gappy, syncs: Intervals(), freeBytes: 2_000, bytesPerHour: 1_000, until: 10 * h)
    #expect(later.spans.map { [$0.start, $0.end] } == [[4 * h, 10 * h]])
    #expect(LocalStorage.full(runs: runs, syncs: syncs, freeBytes: .infinity, bytesPerHour: 1_000, until: 10 * h).spans.isEmpty)
    // The paper's figure: 80 % of small phones under 1.5 GB free.
    #expect(abs((1 - exp(-1.5 / LocalStorage.meanFreeGB)) - 0.8) < 1e-12)
  }

  @Test("small phones lose accelerometer rows at 50 Hz between syncs, not a location an hour; large phones lose none")
  func smallPhones() {
    func collected(small: Double, sensors: [SensorPlan]) -> Int {
      let plan = sensingPlan(.ideal, days: 14, participants: 60) {
        $0.protocolPlan.sensors = sensors
        $0.phones.smallStorageShare = small
      }
      return StudyModelTests.outcomes(plan, seed: 8).reduce(0) { $0 + $1.tallies[0].collected }
    }
    let fast = [SensorPlan(name: "accelerometer", kind: .periodic(period: 20))]
    #expect(collected(small: 1, sensors: fast) < collected(small: 0, sensors: fast))
    let slow = [SensorPlan(name: "location", kind: .periodic(period: Tick.hour))]
    #expect(collected(small: 1, sensors: slow) == collected(small: 0, sensors: slow))
  }
}
