import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// Conditions that make non-response independent of where the participant is: every waking
/// context the same but for the state's mean.
func neutralConditions() -> [ContextConditions] {
  DailyLifePlan.defaultConditions.enumerated().map { k, c in
    guard Context(rawValue: k) != .asleep else { return c }
    var n = c
    n.phoneWithParticipant = 1
    n.hearing = 1
    n.canAnswer = true
    n.willingness = 1
    return n
  }
}

@Suite("Participants: compliance, prompt life, ground truth")
struct ParticipantTests {
  /// The decisions of noticed prompts: (day, hour of noticing, answered?).
  func decisions(_ out: [ParticipantOutcome]) -> [(day: Int, hour: Int, yes: Bool)] {
    out.flatMap(\.prompts).filter { $0.noticed >= 0 && $0.status != .ignored }.map {
      (Int($0.day), Int(($0.noticed % Tick.day) / Tick.hour), $0.status == .answered || $0.reason == .tooLate)
    }
  }

  @Test("an event kind read from its raw value is the kind")
  func eventKinds() {
    #expect(EventKind.allCases.map { EventKind.of($0.rawValue) } == EventKind.allCases)
    #expect(EventKind.allCases.map(\.rawValue) == Array(0...EventKind.last.rawValue))
    #expect(EventKind.allCases.last == EventKind.last)
  }

  @Test("a status's and a reason's position is their place in allCases (the count arrays' order)")
  func statusPositions() {
    #expect(PromptStatus.allCases.map(\.position) == Array(PromptStatus.allCases.indices))
    #expect(MissReason.allCases.map(\.position) == Array(MissReason.allCases.indices))
  }

  @Test("the decision to answer follows its configured level, first days' change after its onset and time-of-day odds (on the log-odds scale)")
  func complianceCalibration() {
    var hours = Array(repeating: 1.0, count: 24)
    for h in 8..<12 { hours[h] = 0.5 }
    let plan = testPlan(days: 10, participants: 400, devices: [(quietProfile(), 1)], expiry: .after(Tick.hour)) { p in
      p.compliance.setOneClass(level: 0.8)
      p.compliance.firstDaysChange = -0.4
      p.compliance.firstDaysScale = 2
      p.compliance.firstDaysOnset = 3
      p.compliance.missPersistence = 0
      p.compliance.hourOdds = hours
      p.compliance.dropoutPerDay = 0
      p.dailyLife.conditions = neutralConditions()
    }
    let d = decisions(outcomes(plan))
    #expect(d.count > 15_000)
    func rate(_ f: ((day: Int, hour: Int, yes: Bool)) -> Bool) -> (Double, Double) {
      let sel = d.filter(f)
      let p = Double(sel.filter(\.yes).count) / Double(sel.count)
      return (p, (p * (1 - p) / Double(sel.count)).squareRoot())
    }
    func expit(_ x: Double) -> Double { 1 / (1 + exp(-x)) }
    let logit = log(0.8 / 0.2)
    // Day 1 outside the low hours: 0.8 (4 standard errors).
    let (day0, se0) = rate { $0.day == 0 && !(8..<12).contains($0.hour) }
    #expect(abs(day0 - 0.8) < 4 * se0)
    // Day 4: level until the onset (3 days) has passed: still 0.8.
    let (day3, se3) = rate { $0.day == 3 && !(8..<12).contains($0.hour) }
    #expect(abs(day3 - 0.8) < 4 * se3, "day 4: \(day3)")
    // Day 10: the log-odds 0.4·(1 − e^(−(9 − 3)/2)) lower: 0.731.
    let (day9, se9) = rate { $0.day == 9 && !(8..<12).contains($0.hour) }
    let expected = expit(logit - 0.4 * (1 - exp(-6.0 / 2)))
    #expect(abs(day9 - expected) < 4 * se9, "day 10: \(day9) against \(expected)")
    // Time of day: odds ratio 0.5 at 08–12 (0.667 against 0.8 on the first days).
    let (low, seLow) = rate { $0.day == 0 && (8..<12).contains($0.hour) }
    #expect(abs(low - expit(logit + log(0.5))) < 4 * seLow, "08-12: \(low)")
  }

  @Test("the typical study answers about 79 % of its prompts (6 a day, 7 days, 60-minute window)")
  func literatureCompliance() {
    let plan = testPlan(days: 7, participants: 400, devices: [(.nonControlled, 1)], expiry: .after(Tick.hour))
    let prompts = outcomes(plan).allPrompts.filter { $0.status != .droppedOut }
    let share = Double(prompts.filter { $0.status == .answered }.count) / Double(prompts.count)
    // Wrzus & Neubauer 2023: 79 %. The tolerance is the model's calibration band, not sampling
    // error (that is about 0.003 here).
    #expect(abs(share - 0.79) < 0.03, "answered share \(share)")
  }

  @Test("long studies: a 28-day study answers within 8 points of a 7-day one; a 6-day, 10-a-day study's first five days within Rintala 2019's 74-82 %, level over them")
  func longStudies() {
    func share(_ prompts: [PromptRecord]) -> Double {
      let due = prompts.filter { $0.status != .droppedOut && $0.status != .ignored }
      return Double(due.filter { $0.status == .answered }.count) / Double(due.count)
    }
    let week = share(outcomes(testPlan(days: 7, participants: 300, devices: [(.nonControlled, 1)], expiry: .after(Tick.hour))).allPrompts)
    let month = share(outcomes(testPlan(days: 28, participants: 300, devices: [(.nonControlled, 1)], expiry: .after(Tick.hour))).allPrompts)
    // A straight decline of 1.6 % a day would put the month about 12 points below the week.
    #expect(week - month < 0.08 && week - month > 0, "7 days \(week), 28 days \(month)")
    let rintala = testPlan(
      days: 6, participants: 300, devices: [(.nonControlled, 1)], schedule: ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 10)),
      expiry: .after(Tick.hour))
    let early = outcomes(rintala).allPrompts
    let firstFive = share(early.filter { $0.day < 5 })
    // 300 × 50 prompts: sampling sd under 0.5 points; the interval is Rintala et al. 2019's
    // for their whole 4–6-day studies (78 %, 74–82).
    #expect(firstFive >= 0.74 && firstFive <= 0.82, "days 1-5: \(firstFive)")
    // Days 3–5 against days 1–2 within the training studies' range (0.961–1.040: level over
    // the first five days; Rintala's day 5, 73 %, wants a fall they do not show, a known miss
    // of `make validate`). 300 × 20 and 300 × 30 prompts: the ratio's sampling sd about 0.01.
    let ratio = share(early.filter { $0.day >= 2 && $0.day < 5 }) / share(early.filter { $0.day < 2 })
    #expect(ratio >= 0.961 && ratio <= 1.04, "days 3-5 over days 1-2: \(ratio)")
  }

  @Test("silent mode: alerts are noticed as they arrive about as often as on vibrate (Mehrotra 2016: missed 14.6 % and 15.4 %)")
  func silentMode() {
    func noticedWithin(_ mode: RingerMode, minutes: Int) -> Double {
      let plan = testPlan(days: 7, participants: 150, devices: [(.nonControlled, 1)], expiry: .after(Tick.hour)) { p in
        p.phones.ringer = RingerMode.allCases.map { $0 == mode ? 1 : 0 }
      }
      let delivered = outcomes(plan).allPrompts.filter { $0.delivered >= 0 && !$0.volunteered }
      let soon = delivered.filter { $0.noticed >= 0 && $0.noticed - $0.delivered <= Tick.minutes(Double(minutes)) }
      return Double(soon.count) / Double(delivered.count)
    }
    let silent = noticedWithin(.silent, minutes: 1)
    let vibrate = noticedWithin(.vibrate, minutes: 1)
    // Mehrotra et al.: noticed at arrival 85.4 % (silent, about 121 ratings) and 84.6 %
    // (vibrate, about 102): a ratio of 1.01, 95 % interval about 0.90–1.12. The simulated
    // ratio's own error at 6,000 prompts a mode is about 0.02.
    #expect(silent / vibrate > 0.9 && silent / vibrate < 1.12, "silent \(silent), vibrate \(vibrate)")
    // Not only the look at the phone (6 an hour with it at hand: under 10 % within a minute).
    #expect(silent > 0.3, "silent \(silent)")
  }

  @Test("misses cluster: declining one prompt makes declining the next more likely")
  func missesCluster() {
    let plan = testPlan(days: 10, participants: 300, devices: [(quietProfile(), 1)], expiry: .after(Tick.hour)) { p in
      p.compliance.setOneClass(level: 0.7)
      p.compliance.missPersistence = 0.3
      p.compliance.hourOdds = Array(repeating: 1, count: 24)
      p.dailyLife.conditions = neutralConditions()
    }
    var afterYes = (0, 0)
    var afterNo = (0, 0)
    for o in outcomes(plan) {
      var previous: Bool?
      for p in o.prompts where p.noticed >= 0 {
        let yes = p.status == .answered || p.reason == .tooLate
        if let prev = previous {
          if prev { afterYes.0 += yes ? 1 : 0; afterYes.1 += 1 } else { afterNo.0 += yes ? 1 : 0; afterNo.1 += 1 }
        }
        previous = yes
      }
    }
    let a = Double(afterYes.0) / Double(afterYes.1)
    let b = Double(afterNo.0) / Double(afterNo.1)
    // Configured: 0.7·0.7 + 0.3 = 0.79 after an answer, 0.7·0.7 = 0.49 after a refusal.
    #expect(abs(a - 0.79) < 0.03)
    #expect(abs(b - 0.49) < 0.04)
  }

  @Test("no prompt is answered while asleep, undelivered, or after it expired")
  func promptLifeInvariants() {
    let plan = testPlan(
      days: 7, participants: 60, devices: [(.ideal, 0.25), (.nonControlled, 0.25), (.heavy, 0.25), (.lowPower, 0.25)],
      systems: [(.ios, 0.5), (.android, 0.5)], expiry: .after(15 * Tick.minute))
    var answered = 0
    for k in 0..<60 {
      let sim = simulate(plan, participant: UInt32(k))
      for p in sim.prompts where p.status == .answered {
        answered += 1
        #expect(p.delivered >= p.scheduled)
        #expect(p.noticed >= p.delivered && p.opened >= p.noticed && p.submitted > p.opened)
        #expect(p.opened - p.delivered < 15 * Tick.minute)
        let asleep = sim.life.timeline.episode(at: p.opened).context == .asleep
        let awake = sim.life.isAwake(p.opened)
        #expect(!asleep && awake, "prompt \(p.index) of participant \(k) opened at \(p.opened)")
      }
      for p in sim.prompts where p.delivered < 0 {
        #expect(p.status == .undelivered || p.status == .droppedOut)
        #expect(p.opened < 0 && p.reported.isNaN)
      }
    }
    #expect(answered > 1_000)
  }

  @Test("Mappiness' policy: a prompt can be answered until the next signal arrives")
  func untilNextSignal() {
    let plan = testPlan(
      days: 7, participants: 60, devices: [(.nonControlled, 1)], schedule: ScheduleChoice(.mappiness, ScheduleParameters(perDay: 3)),
      channel: .push, expiry: .untilNextSignal)
    var late = 0
    for o in outcomes(plan) {
      let delivered = o.prompts.filter { $0.delivered >= 0 }
      for (k, p) in delivered.enumerated() where p.status == .answered {
        if k + 1 < delivered.count { #expect(p.opened < delivered[k + 1].delivered) }
        if p.opened - p.delivered > 60 * Tick.minute { late += 1 }
      }
      for (k, p) in delivered.enumerated() where p.status == .expired && k + 1 < delivered.count {
        #expect(p.closed == delivered[k + 1].delivered)
      }
    }
    #expect(late > 0)  // answers well after an hour: only possible without a fixed expiry
  }

  /// Hourly signals, answerable until the next one, everyone willing and putting every prompt
  /// off "until convenient" (no opening at once, never busy): the deferral spans the time to
  /// the next scheduled prompt, so a put-off prompt is opened before the next one expires it.
  /// Spread over the 4-hour horizon instead (a window without an end), about half would come
  /// too late ((1 − 60/240)^2.44 = 50 % of draws beyond the hour; 56 % measured). What comes
  /// too late now (about 5 %) was noticed where the participant could not answer (driving,
  /// exercising), so the opening waits for that to end before its deferral.
  @Test("until the next signal, a prompt put off until convenient is opened before the next scheduled prompt")
  func deferralWithinTheNextSignal() {
    let times = (9...20).map { ClockTime(minutes: Double($0) * 60) }
    let plan = testPlan(
      days: 7, participants: 60, schedule: ScheduleChoice(.fixedTimes, ScheduleParameters(times: times)), channel: .push,
      expiry: .untilNextSignal
    ) { p in
      p.compliance.setOneClass(level: 1)
      p.compliance.atOnce = 0
      p.compliance.busy = 0
      p.compliance.dropoutPerDay = 0
    }
    var (answered, tooLate) = (0, 0)
    for o in outcomes(plan) {
      // Prompts followed by another the same day (the day's last one may wait past the night).
      for (p, next) in zip(o.prompts, o.prompts.dropFirst()) where next.day == p.day {
        if p.status == .answered { answered += 1 }
        if p.reason == .tooLate { tooLate += 1 }
      }
    }
    #expect(answered > 3_000)
    #expect(Double(tooLate) < 0.1 * Double(answered + tooLate), "\(tooLate) too late of \(answered + tooLate)")
  }

  @Test("a survey whose expiry passes while it is being answered expires part way, with how far it got")
  func expiresWhileAnswering() {
    let plan = testPlan(days: 7, participants: 100, expiry: .after(2 * Tick.minute)) { p in
      p.compliance.completion = 90 * Tick.second
      p.compliance.atOnce = 1
      p.compliance.atOnceSeconds = 30
    }
    let prompts = outcomes(plan).allPrompts
    let partWay = prompts.filter { $0.status == .expired && $0.opened >= 0 }
    #expect(partWay.count > 20)
    #expect(partWay.allSatisfy { $0.reached > 0 && $0.reached < 1 && $0.submitted < 0 && $0.closed <= $0.delivered + 2 * Tick.minute })
    let answered = prompts.filter { $0.status == .answered }
    #expect(answered.allSatisfy { $0.reached == 1 && $0.submitted <= $0.delivered + 2 * Tick.minute })
  }

  @Test("Mappiness: closing a declined prompt's alert leaves it pending; under a fixed expiry it is dismissed")
  func closingTheAlert() {
    func statuses(_ expiry: ExpiryPolicy) -> [PromptStatus] {
      let plan = testPlan(
        days: 7, participants: 60, devices: [(.nonControlled, 1)],
        schedule: ScheduleChoice(.mappiness, ScheduleParameters(perDay: 3)), channel: .push, expiry: expiry
      ) { p in
        p.compliance.dismissShare = 1  // every declined prompt's alert is closed
        p.protocolPlan.appOpensPerDay = 4  // the participant opens the app now and then
      }
      return outcomes(plan).allPrompts.map(\.status)
    }
    let mappiness = statuses(.untilNextSignal)
    let fixed = statuses(.after(Tick.hour))
    #expect(!mappiness.contains(.dismissed))
    #expect(fixed.filter { $0 == .dismissed }.count > 100)
    #expect(mappiness.count == fixed.count)
  }

  @Test("sampling bias is zero within its standard error when non-response ignores the state")
  func noBiasWhenMissingAtRandom() {
    let plan = biasPlan(stateDependence: 0)
    let biases = outcomes(plan).compactMap { o -> Double? in
      let r = o.prompts.filter { $0.status == .answered }.map(\.reported)
      return r.isEmpty ? nil : r.reduce(0, +) / Double(r.count) - o.trueMean
    }
    let mean = biases.reduce(0, +) / Double(biases.count)
    let sd = (biases.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(biases.count - 1)).squareRoot()
    let se = sd / Double(biases.count).squareRoot()
    #expect(abs(mean) < 3 * se, "bias \(mean), se \(se)")
  }

  @Test("sampling bias is clearly positive when happier moments are answered more")
  func biasWhenStateDependent() {
    let plan = biasPlan(stateDependence: 1.0)
    let biases = outcomes(plan).compactMap { o -> Double? in
      let r = o.prompts.filter { $0.status == .answered }.map(\.reported)
      return r.isEmpty ? nil : r.reduce(0, +) / Double(r.count) - o.trueMean
    }
    let mean = biases.reduce(0, +) / Double(biases.count)
    let sd = (biases.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(biases.count - 1)).squareRoot()
    #expect(mean > 5 * sd / Double(biases.count).squareRoot())
    #expect(mean > 1)
  }

  @Test("state dependence keeps the mean probability: E over a standard normal state is p0", arguments: [0.5, 1.0, 2.0, -1.0])
  func stateDependenceKeepsMean(slope: Double) {
    let shift = StateDependence(slope: slope)
    // A midpoint rule on a finer grid than the table's trapezoid, over ±10 sd.
    let step = 0.001
    for p0 in [0.01, 0.05, 0.3, 0.5, 0.73, 0.9, 0.97, 0.995] {
      var mean = 0.0
      var z = -10 + step / 2
      while z < 10 {
        mean += shift.probability(p0, z: z) * exp(-z * z / 2) / (2 * Double.pi).squareRoot() * step
        z += step
      }
      #expect(abs(mean - p0) < 2e-4, "slope \(slope), p0 \(p0): mean \(mean)")
      // And it does depend on the state: higher z, higher p for a positive slope.
      #expect((shift.probability(p0, z: 1) - shift.probability(p0, z: -1)) * slope > 0)
    }
    #expect(shift.probability(0, z: 3) == 0 && shift.probability(1, z: -3) == 1)
  }

  @Test("state dependence changes which moments are answered, not how many: compliance within 1 point")
  func stateDependenceKeepsCompliance() {
    func answered(_ b: Double) -> Double {
      let prompts = outcomes(biasPlan(stateDependence: b)).allPrompts
      return Double(prompts.filter { $0.status == .answered }.count) / Double(prompts.count)
    }
    let none = answered(0)
    // 300 participants × 14 days × 8 prompts: a share's standard error is about 0.003, and
    // the same participants answer in both runs (common random numbers), so 0.01 is over
    // three standard errors of the difference.
    for b in [0.5, 1.0] {
      let with = answered(b)
      #expect(abs(with - none) < 0.01, "state_dependence \(b): \(with) against \(none)")
    }
  }

  /// Signals uniform over each waking day, nothing about the phone or the context deciding
  /// who answers: the ESM mean is then an unbiased estimate of the waking mean.
  func biasPlan(stateDependence: Double) -> StudyPlan {
    testPlan(
      days: 14, participants: 300, devices: [(quietProfile(), 1)], schedule: ScheduleChoice(.bernoulli, ScheduleParameters(perDay: 8)),
      window: .participant(afterWake: 0, beforeBed: 0), expiry: .after(Tick.hour)
    ) { p in
      p.dailyLife.conditions = neutralConditions()
      p.dailyLife.daySD = 0
      p.dailyLife.weekendShift = 0
      p.compliance.setOneClass(level: 0.7)
      p.compliance.stateDependence = stateDependence
      p.compliance.dropoutPerDay = 0
      p.compliance.atOnce = 1
      p.compliance.atOnceSeconds = 1
      p.compliance.hourOdds = Array(repeating: 1, count: 24)
    }
  }

  @Test("the decay table equals exp within 64 units in the last place (plus exp's own error), on every byte's range and beyond")
  func decayTable() {
    for reversion in [1.0, 90, 600] {
      let rate = 1 / (reversion * Double(Tick.minute))
      let table = DecayTable(ratePerTick: rate)
      var s = RandomStream(StreamAddress(seed: 5, purpose: .state))
      let edges: [SimTime] = [0, 1, 255, 256, 65_535, 65_536, (1 << 24) - 1, 1 << 24, (1 << 30) - 1, 1 << 30, 1 << 34]
      let random = (0..<20_000).map { _ in SimTime(s.integer(below: 1 << 30)) }
      for t in edges + random {
        let x = rate * Double(t)
        let exact = exp(-x)
        let got = table.value(ticks: t)
        // In units in the last place of the exact value (the smallest normal's where it
        // underflows); `exp` of a rounded argument x is itself off by up to x of them.
        let ulp = max(exact.ulp, Double.leastNormalMagnitude)
        #expect(abs(got - exact) <= (64 + x) * ulp, "t = \(t), reversion \(reversion) min: \(got) against \(exact)")
      }
    }
  }

  @Test("the state's exact steps match a fine Euler simulation (mean and spread of end point and integral)")
  func groundTruthExact() {
    let plan = StatePlan()
    let conditions = DailyLifePlan.defaultConditions
    let m = conditions[Context.home.rawValue].stateMean
    // Two waking hours at home from 0:00, then a night.
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: 2 * Tick.hour, context: .home, phoneAtHand: true, network: .wifi))
    timeline.append(Episode(start: 2 * Tick.hour, end: Tick.day, context: .asleep, phoneAtHand: false, network: .wifi))
    var s = RandomStream(StreamAddress(seed: 21, purpose: .state))
    let n = 20_000
    var endSum = 0.0
    var endSq = 0.0
    var intSum = 0.0
    var intSq = 0.0
    let tauMinutes = Tick.inMinutes(plan.reversion)
    for k in 0..<n {
      var g = GroundTruth(
        plan: plan, conditions: conditions, personLevel: 0, first: .home, end: 2 * Tick.hour,
        pathStream: RandomStream(StreamAddress(seed: 21, participant: UInt32(k), purpose: Purpose.state.indexed(1))))
      let start = g.value
      g.advance(to: 2 * Tick.hour, timeline: timeline, stream: &s)
      g.finish(timeline: timeline)
      endSum += g.value - (m + (start - m) * exp(-120 / tauMinutes))
      endSq += pow(g.value - (m + (start - m) * exp(-120 / tauMinutes)), 2)
      let expectedIntegral = m * 120 + (start - m) * (1 - exp(-120 / tauMinutes)) * tauMinutes
      intSum += g.wakingIntegral - expectedIntegral
      intSq += pow(g.wakingIntegral - expectedIntegral, 2)
    }
    // Theory: Var(end | start) = sd²(1 − e^{−2Δ/τ}); Var(integral | start) from Gillespie's formula.
    let tau = Tick.inMinutes(plan.reversion)
    let theta = 1 / tau
    let s2 = plan.sd * plan.sd * 2 * theta
    let a = exp(-theta * 120)
    let vEnd = s2 * (1 - a * a) / (2 * theta)
    let vInt = s2 / (theta * theta) * (120 - 2 * (1 - a) / theta + (1 - a * a) / (2 * theta))
    #expect(abs(endSum / Double(n)) < 4 * (vEnd / Double(n)).squareRoot())
    #expect(abs(intSum / Double(n)) < 4 * (vInt / Double(n)).squareRoot())
    #expect(abs(endSq / Double(n) / vEnd - 1) < 0.05)
    #expect(abs(intSq / Double(n) / vInt - 1) < 0.05)
    // The same by brute force: Euler steps of 6 seconds.
    var e = RandomStream(StreamAddress(seed: 22, purpose: .state))
    var eulerInt = Moments()
    for _ in 0..<2_000 {
      var x = m
      var integral = 0.0
      let dt = 0.1
      for _ in 0..<1200 {
        integral += x * dt
        x += theta * (m - x) * dt + s2.squareRoot() * dt.squareRoot() * e.normal(sd: 1)
      }
      eulerInt.add(integral - m * 120)
    }
    #expect(abs(eulerInt.variance / vInt - 1) < 0.12)
  }
}

extension ParticipantTests {
  @Test("level and noise, drawn at each look, have the law of an exact step per episode (Gillespie)")
  func groundTruthComposed() {
    let plan = StatePlan()
    let conditions = DailyLifePlan.defaultConditions
    // Home, a night, a commute, a long stretch at work (looked at in the middle), social.
    let pieces: [(minutes: Double, context: Context)] = [
      (30, .home), (45, .asleep), (20, .transit), (120, .work), (80, .work), (5, .social),
    ]
    var timeline = Timeline()
    var t: SimTime = 0
    for p in pieces {
      let end = t + Tick.minutes(p.minutes)
      timeline.append(Episode(start: t, end: end, context: p.context, phoneAtHand: true, network: .wifi))
      t = end
    }
    timeline.append(Episode(start: t, end: t + Tick.day, context: .asleep, phoneAtHand: false, network: .wifi))
    let looks: [SimTime] = [Tick.minutes(10), Tick.minutes(95), Tick.minutes(215), Tick.minutes(300)]
    let tau = Tick.inMinutes(plan.reversion)
    let sd2 = plan.sd * plan.sd
    let n = 60_000
    // (state at the middle look and at the end, each centred on the start's linear
    // prediction, and the waking integral), summed moments.
    func sample(reference: Bool, seed: UInt64) -> (
      middle: Moments, end: Moments, integral: Moments, cross: Double, middleCross: Double
    ) {
      var s = RandomStream(StreamAddress(seed: seed, purpose: .state))
      var middle = Moments()
      var end = Moments()
      var integral = Moments()
      var cross = 0.0
      var middleCross = 0.0
      for k in 0..<n {
        var g = GroundTruth(
          plan: plan, conditions: conditions, personLevel: 0, first: .home, end: Tick.minutes(300),
          pathStream: RandomStream(StreamAddress(seed: seed, participant: UInt32(k), purpose: Purpose.state.indexed(1))))
        let start = g.value
        var atMiddle = 0.0
        var atEnd = 0.0
        var wakingIntegral = 0.0
        if reference {
          // Gillespie's exact step of state and integral (two correlated normals), episode
          // by episode, written out here independently of GroundTruth.
          var x = start
          var elapsed = 0.0
          for p in pieces {
            let m = conditions[p.context.rawValue].stateMean
            let a = exp(-p.minutes / tau)
            let v1 = sd2 * (1 - a * a)
            let v2 = 2 * sd2 * tau * (p.minutes - 2 * (1 - a) * tau + 0.5 * (1 - a * a) * tau)
            let c = sd2 / tau * pow((1 - a) * tau, 2)
            let e1 = s.normal(sd: 1)
            let e2 = s.normal(sd: 1)
            if p.context != .asleep {
              wakingIntegral += m * p.minutes + (x - m) * (1 - a) * tau + c / v1.squareRoot() * e1
                + max(v2 - c * c / v1, 0).squareRoot() * e2
            }
            x = m + (x - m) * a + v1.squareRoot() * e1
            elapsed += p.minutes
            if elapsed == 215 { atMiddle = x }
          }
          atEnd = x
        } else {
          for look in looks {
            g.advance(to: look, timeline: timeline, stream: &s)
            if look == Tick.minutes(215) { atMiddle = g.value }
          }
          g.finish(timeline: timeline)
          atEnd = g.value
          wakingIntegral = g.wakingIntegral
        }
        middle.add(atMiddle - exp(-215 / tau) * start)
        end.add(atEnd - exp(-300 / tau) * start)
        integral.add(wakingIntegral)
        cross += (atEnd - exp(-300 / tau) * start) * wakingIntegral
        middleCross += (atMiddle - exp(-215 / tau) * start) * wakingIntegral
      }
      return (middle, end, integral, cross / Double(n), middleCross / Double(n))
    }
    let ref = sample(reference: true, seed: 31)
    let new = sample(reference: false, seed: 32)
    for (a, b) in [(ref.middle, new.middle), (ref.end, new.end), (ref.integral, new.integral)] {
      #expect(abs(a.mean - b.mean) < 4 * (2 * a.variance / Double(n)).squareRoot())
      // Variances within 3.5 % (a ratio of two variance estimates at n = 60,000 has sd 0.8 %).
      #expect(abs(b.variance / a.variance - 1) < 0.035)
    }
    let covRef = ref.cross - ref.end.mean * ref.integral.mean
    let covNew = new.cross - new.end.mean * new.integral.mean
    let scale = (ref.end.variance * ref.integral.variance).squareRoot()
    #expect(abs(covNew - covRef) / scale < 0.035)
    #expect(covRef / scale > 0.1)  // the pair is correlated: the check above means something
    // The look in the middle of a waking stretch (two looks in it) and the stretch's
    // integral: the look is drawn given the integral, so their covariance must hold too.
    let middleRef = ref.middleCross - ref.middle.mean * ref.integral.mean
    let middleNew = new.middleCross - new.middle.mean * new.integral.mean
    let middleScale = (ref.middle.variance * ref.integral.variance).squareRoot()
    #expect(abs(middleNew - middleRef) / middleScale < 0.035)
    #expect(middleRef / middleScale > 0.1)
    #expect(ref.integral.n == n && new.end.n == n)
  }

  @Test("the truth is the participant's, whatever the protocol looks at: same waking mean, same value at an anchor")
  func truthIndependentOfLooks() {
    let plan = StatePlan()
    let conditions = DailyLifePlan.defaultConditions
    // Three days: asleep to 07:00, awake in a few contexts to 23:00, asleep again.
    var timeline = Timeline()
    for d in 0..<3 {
      let day = SimTime(d) * Tick.day
      let pieces: [(SimTime, Context)] = [
        (7 * Tick.hour, .asleep), (8 * Tick.hour, .home), (9 * Tick.hour, .transit), (17 * Tick.hour, .work),
        (19 * Tick.hour, .social), (23 * Tick.hour, .home), (Tick.day, .asleep),
      ]
      var t = day
      for (end, context) in pieces {
        timeline.append(Episode(start: t, end: day + end, context: context, phoneAtHand: true, network: .wifi))
        t = day + end
      }
    }
    let end = 2 * Tick.day + 12 * Tick.hour  // enrolment ends mid-day: an anchor inside a waking stretch
    let lookSets: [[SimTime]] = [
      [], [Tick.hour * 10], (1..<70).map { SimTime($0) * Tick.hour },
      [Tick.minutes(431), Tick.minutes(432), 23 * Tick.hour, 30 * Tick.hour, end],
    ]
    for participant in 0..<50 {
      var results: [(mean: Double, integral: Double, atEnd: Double?)] = []
      for (k, looks) in lookSets.enumerated() {
        var g = GroundTruth(
          plan: plan, conditions: conditions, personLevel: 3, first: .asleep, end: end,
          pathStream: RandomStream(StreamAddress(seed: 8, participant: UInt32(participant), purpose: Purpose.state.indexed(1))))
        var s = RandomStream(StreamAddress(seed: 9 + UInt64(k), participant: UInt32(participant), purpose: .state))
        var atEnd: Double?
        for t in looks {
          g.advance(to: t, timeline: timeline, stream: &s)
          if t == end { atEnd = g.value }
        }
        g.finish(timeline: timeline)
        results.append((g.wakingMean, g.wakingIntegral, atEnd))
      }
      for r in results.dropFirst() {
        #expect(r.mean == results[0].mean, "participant \(participant)")
        #expect(r.integral == results[0].integral, "participant \(participant)")
      }
      // A look at an anchor reads the path, not a draw of the look's stream.
      var g = GroundTruth(
        plan: plan, conditions: conditions, personLevel: 3, first: .asleep, end: end,
        pathStream: RandomStream(StreamAddress(seed: 8, participant: UInt32(participant), purpose: Purpose.state.indexed(1))))
      var s = RandomStream(StreamAddress(seed: 99, participant: UInt32(participant), purpose: .state))
      g.advance(to: end, timeline: timeline, stream: &s)
      #expect(g.value == results[3].atEnd, "participant \(participant)")
      #expect(results[0].mean.isFinite)
    }
  }
}

extension ParticipantTests {
  @Test("the episode at a time, searched from any hint, is the one a linear scan finds")
  func timelineIndex() {
    var s = RandomStream(StreamAddress(seed: 41, purpose: .general))
    var timeline = Timeline()
    var t: SimTime = 0
    for _ in 0..<3_000 {
      let length = SimTime(1 + s.integer(below: UInt64(2 * Tick.hour)))
      timeline.append(Episode(start: t, end: t + length, context: .home, phoneAtHand: true, network: .wifi))
      t += length
    }
    let episodes = timeline.episodes
    for _ in 0..<5_000 {
      let at = SimTime(s.integer(below: UInt64(t + Tick.hour)))
      let hint = Int(s.integer(below: UInt64(episodes.count + 10)))
      let expected = episodes.firstIndex { $0.end > at } ?? episodes.count - 1
      #expect(timeline.index(at: at, from: hint) == expected, "t \(at), hint \(hint)")
    }
  }
}

/// Mean and variance, for the tests.
struct Moments {
  var n = 0
  var sum = 0.0
  var sq = 0.0
  mutating func add(_ x: Double) {
    n += 1
    sum += x
    sq += x * x
  }
  var variance: Double { (sq - sum * sum / Double(n)) / Double(n - 1) }
  var mean: Double { sum / Double(n) }
}

#if canImport(Glibc)
  import Glibc
#endif

@Suite("A mid-study change of Mappiness settings")
struct SettingsChangeTests {
  @Test("participants' own settings changes: about the share change, each at their own moment, to their own hours and count")
  func ownSettings() throws {
    let old = try Window(parsing: "08:00-22:00")
    let plan = testPlan(
      days: 10, participants: 1_000, schedule: ScheduleChoice(.mappiness, ScheduleParameters(perDay: 2)),
      window: .fixed(weekday: old, weekend: old)
    ) { $0.protocolPlan.ownSettingsChanges = OwnSettingsChanges(share: 0.3) }
    var changes: [SettingsChange] = []
    for p in 0..<plan.participants {
      let sim = ParticipantSimulation(plan: plan, seed: 9, replication: 0, participant: UInt32(p))
      guard let c = sim.timetable.change else { continue }
      changes.append(c)
      // After the change day: the new count, in the new hours (less Mappiness' end margin).
      let start = c.window.start.minutes
      for d in (c.day + 1)..<10 {
        let minutes = zip(sim.timetable.times, sim.timetable.days).filter { $0.1 == d }
          .map { Double($0.0 - SimTime(d) * Tick.day) / Double(Tick.minute) }
        #expect(minutes.count == c.perDay)
        #expect(minutes.allSatisfy { m in
          let offset = (m - start + 1440).truncatingRemainder(dividingBy: 1440)
          return offset < c.window.length
        })
      }
    }
    // Binomial(1,000, 0.3): sd 14.5; 4 sd either way.
    #expect(abs(changes.count - 300) < 58, "\(changes.count) changed")
    // Their own: several days, times, windows and counts.
    #expect(Set(changes.map(\.day)).count > 5 && Set(changes.map(\.perDay)) == [1, 2, 3, 4, 5])
    #expect(Set(changes.map(\.window.description)).count > 50)
    #expect(changes.allSatisfy { $0.day >= 1 && $0.timeOfDay >= 8 * Tick.hour && $0.timeOfDay <= 22 * Tick.hour })
  }

  @Test("old schedule before the change, the rest of that day pro rata in the new hours, new settings after")
  func proRata() throws {
    let old = try Window(parsing: "08:00-22:00")
    let new = try Window(parsing: "10:00-20:00")
    let plan = testPlan(
      days: 6, participants: 2_000, schedule: ScheduleChoice(.mappiness, ScheduleParameters(perDay: 2)),
      window: .fixed(weekday: old, weekend: old)
    ) { $0.protocolPlan.settingsChange = SettingsChange(day: 3, timeOfDay: 13 * Tick.hour, window: new, perDay: 5) }
    var changeDay = 0
    for p in 0..<plan.participants {
      let sim = ParticipantSimulation(plan: plan, seed: 9, replication: 0, participant: UInt32(p))
      for d in 0..<6 {
        let minutes = zip(sim.timetable.times, sim.timetable.days).filter { $0.1 == d }.map { Double($0.0 - SimTime(d) * Tick.day) / Double(Tick.minute) }
        switch d {
        case ..<3:
          #expect(minutes.count == 2 && minutes.allSatisfy { $0 >= 8 * 60 && $0 < 22 * 60 - 10 })
        case 3:
          changeDay += minutes.count
          // Before 13:00 only the old schedule; after it only the new hours.
          #expect(minutes.allSatisfy { $0 < 13 * 60 || ($0 >= 13 * 60 && $0 < 20 * 60 - 10) })
        default:
          #expect(minutes.count == 5 && minutes.allSatisfy { $0 >= 10 * 60 && $0 < 20 * 60 - 10 })
        }
      }
    }
    // Expected on the change day: 2 × 300/830 before, 5 × 410/590 after (λ pro rata).
    let expected = 2.0 * 300 / 830 + 5.0 * 410 / 590
    let mean = Double(changeDay) / Double(plan.participants)
    #expect(abs(mean - expected) < 0.06, "mean \(mean), expected \(expected) (tolerance about 4 standard errors)")
  }
}
