import Foundation
import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// People as they are: how participants differ (classes, levels, declines, pace), what a
/// prompt costs them (length, density, a fixed time), break-offs, and how the phone follows
/// their use of the app. Statistical checks use fixed seeds and tolerances of a few standard
/// errors, each stated.
@Suite("People: classes, burden, break-offs, pace and engagement")
struct PeopleTests {
  static func engagements(_ c: CompliancePlan, n: Int, stateZ: (Int) -> Double = { _ in 0 }) -> [Engagement] {
    (0..<n).map { i in
      var s = RandomStream(StreamAddress(seed: 7, participant: UInt32(i), purpose: Purpose.traits.indexed(4)))
      return Engagement(c, stateZ: stateZ(i), stream: &s)
    }
  }

  @Test("classes: shares as given (4 se), ordered with the latent engagement, levels around each class's mean")
  func classes() {
    var c = CompliancePlan()
    c.classes = [
      ComplianceClass(name: "high", share: 0.3, level: 0.9, levelSD: 0.05, declinePerWeek: 0, declineSD: 0),
      ComplianceClass(name: "low", share: 0.7, level: 0.3, levelSD: 0.05, declinePerWeek: 0.5, declineSD: 0.25),
    ]
    let n = 4_000
    let e = Self.engagements(c, n: n)
    let high = Double(e.filter { $0.classIndex == 0 }.count) / Double(n)
    #expect(abs(high - 0.3) < 4 * (0.3 * 0.7 / Double(n)).squareRoot())
    // Every member of the higher class answers more than every member of the lower one (one
    // latent orders both), and the levels centre on their classes' means.
    let highs = e.filter { $0.classIndex == 0 }.map(\.level)
    let lows = e.filter { $0.classIndex == 1 }.map(\.level)
    #expect(highs.min()! > lows.max()!)
    #expect(abs(highs.reduce(0, +) / Double(highs.count) - 0.9) < 0.01)
    #expect(abs(lows.reduce(0, +) / Double(lows.count) - 0.3) < 0.01)
    // The decline is the class's: none in the stable class, mean 0.5 a week in the other (4 se
    // of the Gamma's sd 0.25).
    #expect(e.filter { $0.classIndex == 0 }.allSatisfy { $0.declinePerDay == 0 })
    let declines: [Double] = e.filter { $0.classIndex == 1 }.map { $0.declinePerDay * 7 }
    let meanDecline = declines.reduce(0, +) / Double(declines.count)
    let tolerance = 4 * 0.25 / Double(declines.count).squareRoot()
    #expect(abs(meanDecline - 0.5) < tolerance)
  }

  @Test("engagement follows the mood level by state_correlation (0.5: correlation near 0.5; 0: none within 3 se)")
  func stateCorrelation() {
    func correlation(_ rho: Double) -> Double {
      var c = CompliancePlan()
      c.classes = [ComplianceClass(name: "all", share: 1, level: 0.7, levelSD: 0.15, declinePerWeek: 0, declineSD: 0)]
      c.stateCorrelation = rho
      let n = 3_000
      var z = RandomStream(StreamAddress(seed: 3, purpose: .general))
      let zs = (0..<n).map { _ in z.normal(sd: 1) }
      let levels = Self.engagements(c, n: n, stateZ: { zs[$0] }).map(\.level)
      let mz = zs.reduce(0, +) / Double(n)
      let ml = levels.reduce(0, +) / Double(n)
      let cov = zip(zs, levels).reduce(0) { $0 + ($1.0 - mz) * ($1.1 - ml) }
      let vz = zs.reduce(0) { $0 + ($1 - mz) * ($1 - mz) }
      let vl = levels.reduce(0) { $0 + ($1 - ml) * ($1 - ml) }
      return cov / (vz * vl).squareRoot()
    }
    #expect(correlation(0.5) > 0.4)
    #expect(abs(correlation(0)) < 3 / 3_000.0.squareRoot())
  }

  @Test("the burden moves the odds: length and density lower them, a fixed time raises them and skips the hour's dip")
  func burden() {
    var c = CompliancePlan()
    c.hourMultipliers = Array(repeating: 1, count: 24)
    c.hourMultipliers[8] = 0.5
    func p(_ b: Compliance.Burden, hour: Int = 12) -> Double {
      Compliance.probability(c, level: 0.6, dayFactor: 1, previousMissed: nil, hour: hour, context: 1, stateZ: 0, burden: b)
    }
    let odds = { (x: Double) in x / (1 - x) }
    let base = p(.init())
    #expect(abs(odds(p(.init(c, minutes: 5))) / odds(base) - exp(-c.lengthEffect * 4)) < 1e-9)
    #expect(abs(odds(p(.init(c, load: 2))) / odds(base) - exp(-c.densityEffect * 2)) < 1e-9)
    #expect(abs(odds(p(.init(c, scheduled: true))) / odds(base) - c.scheduledBoost) < 1e-9)
    // At 08:00 a random prompt takes the hour's multiplier, a fixed-time one does not.
    #expect(abs(p(.init(), hour: 8) - 0.3) < 1e-12)
    #expect(abs(p(.init(c, scheduled: true), hour: 8) - p(.init(c, scheduled: true))) < 1e-12)
  }

  @Test("the density load: one per prompt noticed, decaying over the window")
  func densityLoad() {
    let plan = testPlan()
    var b = PromptBurden(plan, declinePerDay: 0)
    #expect(b.burden(schedule: 0, at: 0).odds == 1)
    b.noticed(at: 0)
    // A reminder does not add to the load; a first notice does, after its own burden.
    #expect(b.notice(schedule: 0, at: 5 * Tick.minute, reminded: true).odds == b.burden(schedule: 0, at: 5 * Tick.minute).odds)
    let before = b.burden(schedule: 0, at: 10 * Tick.minute).odds
    #expect(b.notice(schedule: 0, at: 10 * Tick.minute, reminded: false).odds == before)
    let w = Double(plan.compliance.densityWindow)
    let load = (exp(-Double(10 * Tick.minute) / w) + 1) * exp(-Double(20 * Tick.minute) / w)
    #expect(abs(b.burden(schedule: 0, at: 30 * Tick.minute).odds - exp(-plan.compliance.densityEffect * load)) < 1e-12)
    // Gone after eight windows (numerically).
    #expect(b.burden(schedule: 0, at: 10 * Tick.minute + 9 * plan.compliance.densityWindow).odds == 1)
  }

  @Test("break-offs: a long survey ends part-way as partial (broke_off) with the share reached; a one-item survey never")
  func breakOffs() {
    func run(length: Int) -> [PromptRecord] {
      let plan = testPlan(days: 7, participants: 60, devices: [(quietProfile(), 1)], expiry: .after(Tick.hour)) { p in
        p.protocolPlan.survey.length = length
        p.compliance.breakOffPerMinute = 0.2
      }
      return outcomes(plan).allPrompts
    }
    let long = run(length: 40)
    let partial = long.filter { $0.status == .partial }
    let opened = long.filter { $0.opened >= 0 }
    // 40 items: 45 s + 39 × 7 s ≈ 5.3 minutes, 4.6 past the first item: P(break) ≈ 1 − e^(−0.92) = 0.60.
    let share = Double(partial.count) / Double(opened.count)
    #expect(abs(share - 0.60) < 0.1, "\(share)")
    #expect(partial.allSatisfy { $0.reason == .brokeOff && $0.submitted < 0 && $0.reached > 0 && $0.reached < 1 })
    #expect(run(length: 1).allSatisfy { $0.status != .partial })
  }

  @Test("pace: each person's delays scale with their own factor; the evening's are shortest")
  func pace() {
    var c = CompliancePlan()
    c.speedSD = 0.7
    let speeds = Self.engagements(c, n: 4_000).map { log($0.speed) }
    let m = speeds.reduce(0, +) / Double(speeds.count)
    let sd = (speeds.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(speeds.count - 1)).squareRoot()
    #expect(abs(m) < 4 * 0.7 / 4_000.0.squareRoot() && abs(sd - 0.7) < 0.05)
    #expect(Compliance.openDelayFactor(hour: 21) < Compliance.openDelayFactor(hour: 14) && Compliance.openDelayFactor(hour: 7) > Compliance.openDelayFactor(hour: 14))
  }

  @Test("Samsung puts an app unused for 16 days into deep sleep: its prompts are lost (app_stopped) until opened")
  func samsungDeepSleep() {
    func lost(sleep: Bool) -> [Int] {
      let plan = testPlan(days: 24, participants: 8, systems: [(.android, 1)], channel: .iosLocal) { p in
        p.phones.manufacturers = [(Manufacturer.builtIn.first { $0.name == "samsung" }!, 1)]
        p.phones.unusedAppsSleep = sleep
        p.compliance.answerProbability = 0  // never opens the app
        p.compliance.dropoutPerDay = 0
        p.protocolPlan.appOpensPerDay = 0
      }
      return outcomes(plan).allPrompts.filter { $0.reason == .appStopped }.map(\.day)
    }
    let days = lost(sleep: true)
    #expect(!days.isEmpty && days.allSatisfy { $0 >= 16 })
    #expect(lost(sleep: false).isEmpty)
  }

  @Test("iOS's background refresh follows use: the full rate within a day of the last opening, then 1/days")
  func refreshUsage() {
    #expect(IOSRules.refreshUsage(idle: 12 * Tick.hour) == 1)
    #expect(abs(IOSRules.refreshUsage(idle: 4 * Tick.day) - 0.25) < 1e-12)
  }
}
