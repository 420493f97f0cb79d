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

  @Test("classes: shares as given (4 se), ordered with the latent engagement, log-odds levels around each class's median with its spread")
  func classes() {
    var c = CompliancePlan()
    c.classes = [
      ComplianceClass(name: "high", share: 0.3, level: 0.9, spread: 0.3, weeklyChange: 0, weeklyChangeSD: 0),
      ComplianceClass(name: "low", share: 0.7, level: 0.3, spread: 0.8, weeklyChange: -0.5, weeklyChangeSD: 0.25),
    ]
    let n = 4_000
    let e = Self.engagements(c, n: n)
    let high = Double(e.filter { $0.classIndex == 0 }.count) / Double(n)
    #expect(abs(high - 0.3) < 4 * (0.3 * 0.7 / Double(n)).squareRoot())
    // Every member of the higher class is above the lower one's median... and their log-odds
    // centre on their classes' medians with the classes' spreads (4 se of mean and sd).
    func stats(_ k: Int) -> (mean: Double, sd: Double, n: Int) {
      let xs = e.filter { $0.classIndex == k }.map(\.logitLevel)
      let m = xs.reduce(0, +) / Double(xs.count)
      return (m, (xs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(xs.count - 1)).squareRoot(), xs.count)
    }
    for (k, cls) in c.classes.enumerated() {
      let (m, sd, count) = stats(k)
      // The latent's place within the class is uniform on its quantiles: a normal.
      #expect(abs(m - cls.logitLevel) < 4 * cls.spread / Double(count).squareRoot(), "\(cls.name): mean \(m)")
      #expect(abs(sd / cls.spread - 1) < 4 / Double(2 * count).squareRoot(), "\(cls.name): sd \(sd)")
    }
    // The weekly change is the class's with its spread: none in the stable class, −0.5 in the other.
    #expect(e.filter { $0.classIndex == 0 }.allSatisfy { $0.weeklyChange == 0 })
    let changes = e.filter { $0.classIndex == 1 }.map(\.weeklyChange)
    let mean = changes.reduce(0, +) / Double(changes.count)
    #expect(abs(mean + 0.5) < 4 * 0.25 / Double(changes.count).squareRoot())
  }

  @Test("answer_probability moves every class to the mean it gives, the classes' spread and shares kept")
  func levelMovesThePopulation() {
    var c = CompliancePlan()
    let before = c.classes
    c.answerProbability = 0.6
    #expect(c.classes == before)
    #expect(abs(CompliancePlan.meanWillingness(c.classes, shift: c.levelShift) - 0.6) < 1e-9)
    // Simulated people: their mean first-day willingness is 0.6 (4 se), both classes present.
    let e = Self.engagements(c, n: 6_000)
    let levels = e.map(\.level)
    let m = levels.reduce(0, +) / Double(levels.count)
    let sd = (levels.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(levels.count - 1)).squareRoot()
    #expect(abs(m - 0.6) < 4 * sd / Double(levels.count).squareRoot(), "mean \(m)")
    #expect(Set(e.map(\.classIndex)) == [0, 1])
  }

  @Test("a motivated sample (willing, looking often, attending to alerts, opening at once, rarely busy) on default phones answers 95 % of a 4-a-day, 60-minute study; the default people far less")
  func motivatedSample() {
    func answered(_ configure: (inout CompliancePlan) -> Void) -> (share: Double, se: Double) {
      let w = try! Window(parsing: "09:00-22:00")
      let times = [600.0, 780, 960, 1140].map { ClockTime(minutes: $0) }
      let plan = testPlan(
        days: 14, participants: 300, devices: [(.nonControlled, 1)],
        schedule: ScheduleChoice(.fixedTimes, ScheduleParameters(times: times)), window: .fixed(weekday: w, weekend: w),
        expiry: .after(Tick.hour)
      ) { p in
        p.compliance.dropoutPerDay = 0
        configure(&p.compliance)
      }
      // The share with its cluster-robust standard error (participants as clusters).
      return answeredShare(outcomes(plan))
    }
    let motivated = answered {
      $0.answerProbability = 0.999
      $0.looksPerHour = 60
      $0.alertOdds = 20
      $0.atOnce = 0.98
      $0.busy = 0.001
    }
    // At least 95 % within two standard errors (the rest: phones off, drives and exercise longer than the hour).
    #expect(motivated.share + 2 * motivated.se >= 0.95, "\(motivated)")
    let typical = answered { _ in }
    #expect(typical.share < motivated.share - 0.05, "default \(typical), motivated \(motivated)")
  }

  @Test("engagement follows the mood level by state_correlation (0.5: correlation near 0.5; 0: none within 3 se)")
  func stateCorrelation() {
    func correlation(_ rho: Double) -> Double {
      var c = CompliancePlan()
      c.setOneClass(level: 0.7, spread: 0.8)
      c.stateCorrelation = rho
      let n = 3_000
      var z = RandomStream(StreamAddress(seed: 3, purpose: .general))
      let zs = (0..<n).map { _ in z.normal(sd: 1) }
      let levels = Self.engagements(c, n: n, stateZ: { zs[$0] }).map(\.logitLevel)
      let mz = zs.reduce(0, +) / Double(n)
      let ml = levels.reduce(0, +) / Double(n)
      let cov = zip(zs, levels).reduce(0) { $0 + ($1.0 - mz) * ($1.1 - ml) }
      let vz = zs.reduce(0) { $0 + ($1 - mz) * ($1 - mz) }
      let vl = levels.reduce(0) { $0 + ($1 - ml) * ($1 - ml) }
      return cov / (vz * vl).squareRoot()
    }
    #expect(correlation(0.5) > 0.45)
    #expect(abs(correlation(0)) < 3 / 3_000.0.squareRoot())
  }

  @Test("the odds: burden, hour and context multiply them; a fixed time skips the hour; no factor caps a willing person")
  func burden() {
    var c = CompliancePlan()
    c.hourOdds = Array(repeating: 1, count: 24)
    c.hourOdds[8] = 0.5
    let logit = log(0.6 / 0.4)
    func p(_ b: Compliance.Burden, hour: Int = 12, context: Double = 1, logit: Double = logit) -> Double {
      Compliance.probability(c, logit: logit, previousMissed: nil, hour: hour, contextOdds: context, stateZ: 0, burden: b)
    }
    let odds = { (x: Double) in x / (1 - x) }
    let base = p(.init())
    #expect(abs(base - 0.6) < 1e-12)
    #expect(abs(odds(p(.init(c, minutes: 5))) / odds(base) - exp(-c.lengthEffect * 4)) < 1e-9)
    #expect(abs(odds(p(.init(c, load: 2))) / odds(base) - exp(-c.densityEffect * 2)) < 1e-9)
    #expect(abs(odds(p(.init(c, scheduled: true))) / odds(base) - c.scheduledBoost) < 1e-9)
    #expect(abs(odds(p(.init(), context: 0.55)) / odds(base) - 0.55) < 1e-9)
    // At 08:00 a random prompt takes the hour's odds, a fixed-time one does not.
    #expect(abs(odds(p(.init(), hour: 8)) / odds(base) - 0.5) < 1e-9)
    #expect(abs(p(.init(c, scheduled: true), hour: 8) - p(.init(c, scheduled: true))) < 1e-12)
    // A willing person (0.999) stays above 0.99 at the morning's and a social context's odds.
    #expect(p(.init(), hour: 8, context: 0.55, logit: log(999)) > 0.99)
    #expect(p(.init(), context: 0) == 0)
    // An hour closed by odds of 0 stays closed after an answered prompt (the clustering chain
    // gave it κ), and one whose odds make it certain stays certain after a refusal.
    c.hourOdds[14] = 0
    c.hourOdds[15] = .infinity
    func after(answered: Bool, hour: Int) -> Double {
      Compliance.probability(c, logit: logit, previousMissed: !answered, hour: hour, contextOdds: 1, stateZ: 0, burden: .init())
    }
    #expect(after(answered: true, hour: 14) == 0)
    #expect(after(answered: false, hour: 15) == 1)
    // Elsewhere the chain still moves p by κ.
    #expect(abs(after(answered: true, hour: 12) - after(answered: false, hour: 12) - c.missPersistence) < 1e-12)
  }

  @Test("the density load: one per prompt noticed, decaying over the window")
  func densityLoad() {
    let plan = testPlan()
    var s = RandomStream(StreamAddress(seed: 1, purpose: .general))
    var b = PromptBurden(plan, engagement: Engagement(plan.compliance, stateZ: 0, stream: &s))
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

  @Test("the day's odds are e^logit of the day, in any order, a day outside the study clamped to it")
  func dayOdds() {
    let plan = testPlan(days: 21)
    var s = RandomStream(StreamAddress(seed: 1, purpose: .general))
    let b = PromptBurden(plan, engagement: Engagement(plan.compliance, stateZ: 0, stream: &s))
    // A day before the first (clamped to it) asked first too.
    for d in [-1, 0, 0, 1, 1, 1, 5, 3, 3, 20, 40, -1, 20] { #expect(b.dayOdds(d) == exp(b.dayLogit(d))) }
    #expect(b.dayOdds(0) != b.dayOdds(20))  // the default people change over the days
  }

  @Test("break-offs: a long survey ends part-way as partial (broke_off) with the share reached; a one-item survey never")
  func breakOffs() {
    func run(length: Int) -> [PromptRecord] {
      let plan = testPlan(days: 7, participants: 60, devices: [(quietProfile(), 1)], expiry: .after(Tick.hour)) { p in
        p.protocolPlan.survey.length = length
        p.compliance.breakOffPerMinute = 0.2
        p.compliance.breakOffSD = 0
      }
      return outcomes(plan).allPrompts
    }
    let long = run(length: 40)
    let partial = long.filter { $0.status == .partial }
    let opened = long.filter { $0.opened >= 0 }
    // 40 items: 39 × seconds_per_item past the first item (about 2 minutes at the default 3 s):
    // P(break) = 1 − e^(−0.2 × minutes) ≈ 0.32; within 0.08 (the answering time's spread).
    let minutes = 39 * CompliancePlan().secondsPerItem / 60
    let expected = 1 - exp(-0.2 * minutes)
    let share = Double(partial.count) / Double(opened.count)
    #expect(abs(share - expected) < 0.08, "\(share) against \(expected)")
    #expect(partial.allSatisfy { $0.reason == .brokeOff && $0.submitted < 0 && $0.reached > 0 && $0.reached < 1 })
    #expect(run(length: 1).allSatisfy { $0.status != .partial })
  }

  @Test("break-off rate: each person's lognormal around the population's (its mean the population's rate), drawn after the other traits; sd 0 gives everyone the rate")
  func breakOffSpread() {
    var c = CompliancePlan()
    c.breakOffPerMinute = 0.05
    c.breakOffSD = 1.5
    let n = 4_000
    let e = Self.engagements(c, n: n)
    let logs = e.map { log($0.breakOffPerMinute) }
    let m = logs.reduce(0, +) / Double(n)
    let sd = (logs.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(n - 1)).squareRoot()
    // The log's mean log(0.05) − 1.5²/2 within 4 se (1.5/√n), its sd within 6 se (1.5/√(2n)).
    #expect(abs(m - (log(0.05) - 1.125)) < 4 * 1.5 / Double(n).squareRoot(), "\(m)")
    #expect(abs(sd - 1.5) < 6 * 1.5 / Double(2 * n).squareRoot(), "\(sd)")
    // The rates' mean is the population's: the lognormal's sd is 0.05·√(e^2.25 − 1) ≈ 0.146, se 0.0023.
    let mean = e.map(\.breakOffPerMinute).reduce(0, +) / Double(n)
    #expect(abs(mean - 0.05) < 4 * 0.146 / Double(n).squareRoot(), "\(mean)")
    c.breakOffSD = 0
    let same = Self.engagements(c, n: n)
    #expect(same.allSatisfy { $0.breakOffPerMinute == 0.05 })
    // The other traits keep their numbers whatever the spread.
    #expect(zip(e, same).allSatisfy { $0.looksPerHour == $1.looksPerHour && $0.busy == $1.busy && $0.logitLevel == $1.logitLevel })
  }

  @Test("opening at once over the study: the person's log-odds move by at_once_weekly_change a week from day 0; 0 keeps them")
  func atOnceOverWeeks() {
    var c = CompliancePlan()
    c.atOnceWeeklyChange = -0.5
    func logit(_ p: Double) -> Double { log(p / (1 - p)) }
    #expect(Compliance.atOnce(0.4, c, day: 0) == 0.4)
    #expect(abs(logit(Compliance.atOnce(0.4, c, day: 7)) - (logit(0.4) - 0.5)) < 1e-12)
    #expect(abs(logit(Compliance.atOnce(0.4, c, day: 21)) - (logit(0.4) - 1.5)) < 1e-12)
    #expect(Compliance.atOnce(1, c, day: 14) == 1)
    c.atOnceWeeklyChange = 0
    #expect(Compliance.atOnce(0.4, c, day: 30) == 0.4)
  }

  @Test("pace: looks a lognormal between people; at once and busy shares logit-normal around their means; openings at once, after a busy stretch or deferred within the window")
  func pace() {
    var c = CompliancePlan()
    c.looksPerHour = 6
    c.looksSD = 0.6
    c.atOnce = 0.4
    c.atOnceSD = 1
    let e = Self.engagements(c, n: 4_000)
    let looks = e.map { log($0.looksPerHour) }
    let m = looks.reduce(0, +) / Double(looks.count)
    let sd = (looks.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(looks.count - 1)).squareRoot()
    #expect(abs(m - log(6)) < 4 * 0.6 / 4_000.0.squareRoot() && abs(sd - 0.6) < 0.05)
    let atOnce = e.map { log($0.atOnce / (1 - $0.atOnce)) }
    let ma = atOnce.reduce(0, +) / Double(atOnce.count)
    #expect(abs(ma - log(0.4 / 0.6)) < 4 / 4_000.0.squareRoot())
    // The openings: at once (seconds), busy (minutes), deferred (a share of the window left).
    var s = RandomStream(StreamAddress(seed: 9, purpose: .general))
    let window = 60 * Tick.minute
    let delays = (0..<20_000).map { _ in Compliance.openingDelay(c.opening, atOnce: 0.5, busy: 0.2, remaining: window, &s) }
    let quick = Double(delays.filter { $0 < 2 * Tick.minute }.count) / Double(delays.count)
    // At once 0.5; the others' busy and deferred delays rarely under 2 minutes (a few percent).
    #expect(quick > 0.5 && quick < 0.58, "\(quick)")
    let deferred = delays.filter { $0 >= 2 * Tick.minute && $0 <= window }
    #expect(!deferred.isEmpty && delays.filter { $0 > window }.count < delays.count / 10)
    // Deferral uses the window: a window twice as long doubles the deferred waits' median.
    let long = (0..<20_000).map { _ in Compliance.openingDelay(c.opening, atOnce: 0, busy: 0, remaining: 2 * window, &s) }
    let short = (0..<20_000).map { _ in Compliance.openingDelay(c.opening, atOnce: 0, busy: 0, remaining: window, &s) }
    let ratio = Double(long.sorted()[10_000]) / Double(short.sorted()[10_000])
    #expect(abs(ratio - 2) < 0.1, "\(ratio)")
  }

  @Test("Samsung puts an app unused for 16 days into deep sleep: its prompts are lost (app_stopped) until opened")
  func samsungDeepSleep() {
    func lost(sleep: Bool) -> [Int] {
      let plan = testPlan(days: 24, participants: 8, systems: [(.android, 1)], channel: .iosLocal) { p in
        p.phones.manufacturers = [(Manufacturer.builtIn.first { $0.name == "samsung" }!, 1)]
        p.phones.unusedAppsSleep = sleep
        p.compliance.setOneClass(level: 0)  // never opens the app
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
