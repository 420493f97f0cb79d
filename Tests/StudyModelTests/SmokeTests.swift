import SimKernel
import StudyModel
import Testing

@Suite("Smoke")
struct SmokeTests {
  @Test("a small study runs and prints what happened")
  func smoke() {
    let plan = testPlan(days: 7, participants: 100, devices: [(.ideal, 0.25), (.nonControlled, 0.45), (.heavy, 0.15), (.lowPower, 0.15)], sensors: caseStudySensors)
    let out = outcomes(plan)
    let prompts = out.allPrompts
    var byStatus: [String: Int] = [:]
    var byReason: [String: Int] = [:]
    for p in prompts {
      byStatus[p.status.rawValue, default: 0] += 1
      byReason[p.reason.rawValue, default: 0] += 1
    }
    print("prompts", prompts.count, byStatus.sorted { $0.key < $1.key }, byReason.sorted { $0.key < $1.key })
    for (k, name) in ["accelerometer", "location", "weather", "pedometer"].enumerated() {
      for d in 0..<4 {
        var t = SensorTally()
        for o in out where o.device == d { t.add(o.tallies[k]) }
        print(name, d, t.comp, t.incomp, t.loss)
      }
    }
    #expect(prompts.count > 0)
  }
}

@Suite("Case study smoke")
struct CaseStudySmoke {
  @Test("AWARE-iOS case study conditions, printed")
  func caseStudy() {
    for (name, opens, spn) in [("BL", 0.0, false), ("ESM", 3.0, false), ("SPN", 0.0, true), ("ESM+SPN", 3.0, true)] {
      let plan = testPlan(
        days: 3, participants: 200, devices: [(.ideal, 0.25), (.nonControlled, 0.25), (.heavy, 0.25), (.lowPower, 0.25)],
        sensors: caseStudySensors
      ) { p in
        p.protocolPlan.schedules = []
        p.protocolPlan.appOpensPerDay = opens
        p.protocolPlan.silentPushEvery = spn ? 30 * Tick.minute : nil
        p.compliance.dropoutPerDay = 0
      }
      let out = outcomes(plan)
      for (k, sensor) in ["location", "weather"].enumerated() {
        var line = "\(name) \(sensor):"
        for d in 0..<4 {
          var t = SensorTally()
          for o in out where o.device == d { t.add(o.tallies[k + 1]) }
          let n = Double(t.hours)
          line += " [\(Int(100 * Double(t.comp) / n)) \(Int(100 * Double(t.incomp) / n)) \(Int(100 * Double(t.loss) / n))]"
        }
        print(line)
      }
    }
  }
}
