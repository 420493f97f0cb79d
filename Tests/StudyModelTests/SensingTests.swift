import Foundation
import SimKernel
import Testing

@testable import StudyModel

@Suite("Sensor yields and coverage")
struct SensingTests {
  /// Random closed stretches in [0, span).
  func randomSpans(_ s: inout RandomStream, span: SimTime, count: Int) -> Intervals {
    var cuts = (0..<(2 * count)).map { _ in SimTime(s.integer(below: UInt64(span))) }.sorted()
    cuts = Array(Set(cuts)).sorted()
    if cuts.count % 2 == 1 { cuts.removeLast() }
    return Intervals(stride(from: 0, to: cuts.count, by: 2).map { (cuts[$0], cuts[$0 + 1]) })
  }

  @Test("the last end of an intersection, found walking back, is the built intersection's")
  func lastEndOfIntersection() {
    var s = RandomStream(StreamAddress(seed: 19, purpose: .general))
    var found = 0
    for _ in 0..<3_000 {
      let a = randomSpans(&s, span: 1_000, count: Int(s.integer(below: 12)))
      let b = randomSpans(&s, span: 1_000, count: Int(s.integer(below: 12)))
      let limit = SimTime(s.integer(below: 1_100))
      let expected = a.intersection(b).lastEnd(before: limit)
      #expect(a.lastEndOfIntersection(with: b, before: limit) == expected)
      #expect(b.lastEndOfIntersection(with: a, before: limit) == expected)
      if expected != nil { found += 1 }
    }
    #expect(found > 1_000)
  }

  @Test("the last sync on Wi-Fi while charging, found walking back, is the one the built stretches give")
  func lastWifiChargingRun() {
    var s = RandomStream(StreamAddress(seed: 23, purpose: .general))
    var found = 0
    for _ in 0..<3_000 {
      // A timeline of 1–30 episodes over [0, 1,000), each on Wi-Fi, cellular or unreachable.
      var timeline = Timeline()
      let cuts = Array(Set((0..<Int(s.integer(below: 30))).map { _ in SimTime(s.integer(below: 999)) + 1 })).sorted()
      var start: SimTime = 0
      for end in cuts + [1_000] {
        let network: Network = [.wifi, .wifi, .cellular, .unreachable][Int(s.integer(below: 4))]
        timeline.append(Episode(start: start, end: end, context: .home, phoneAtHand: true, network: network))
        start = end
      }
      let charging = randomSpans(&s, span: 1_000, count: Int(s.integer(below: 8)))
      let runs = randomSpans(&s, span: 1_000, count: Int(s.integer(below: 12)))
      let limit = SimTime(s.integer(below: 1_100))
      let expected = timeline.spans { $0.network == .wifi }.intersection(charging)
        .lastEndOfIntersection(with: runs, before: limit)
      #expect(
        Upload.lastWifiChargingRun(timeline: timeline, charging: charging, runs: runs, before: limit) == expected)
      if expected != nil { found += 1 }
    }
    #expect(found > 500)
  }

  @Test("dividing by a period without the instruction gives the quotient and its ceiling, in range and beyond")
  func periodDivisor() {
    var s = RandomStream(StreamAddress(seed: 17, purpose: .general))
    // Sensor periods (5 Hz, 1 Hz, minutes, the range's edges) and random ones, the fallback's too.
    var periods: [SimTime] = [1, 2, 3, 200, 1_000, 60_000, 180_000, 600_000, 3_600_000, (1 << 24) - 1, 1 << 24, 1 << 30]
    periods += (0..<200).map { _ in SimTime(s.integer(below: 1 << 25)) + 1 }
    var checked = 0
    for d in periods {
      let divisor = Yield.Divisor(d)
      // The numerators near multiples of d (where a wrong quotient would show), the range's
      // end and random ones, negative ones for the ceiling.
      var numerators: [SimTime] = [0, 1, d - 1, d, d + 1, (1 << 40) - 1, 1 << 40, 1 << 50]
      for _ in 0..<200 {
        let k = SimTime(s.integer(below: UInt64((1 << 40) / d)))
        numerators += [k * d - 1, k * d, k * d + 1, SimTime(s.integer(below: 1 << 40))]
      }
      for a in numerators where a >= 0 {
        #expect(divisor.quotient(a) == a / d, "\(a) / \(d)")
        let ceiling = a / d + (a % d == 0 ? 0 : 1)
        #expect(divisor.ceilQuotient(a) == ceiling && divisor.ceilQuotient(-a) == -(a / d), "⌈±\(a) / \(d)⌉")
        checked += 1
      }
    }
    #expect(checked > 150_000)
  }

  @Test("arithmetic yields equal a per-sample count on random timelines")
  func yieldsMatchBruteForce() {
    var s = RandomStream(StreamAddress(seed: 12, purpose: .general))
    for trial in 0..<300 {
      let span = 6 * Tick.hour
      let runs = randomSpans(&s, span: span, count: 1 + Int(s.integer(below: 8)))
      let usable = randomSpans(&s, span: span, count: 1 + Int(s.integer(below: 8)))
      let period = [200, 1_000, 60_000, 3 * Tick.minute, 10 * Tick.minute, 7_919][Int(s.integer(below: 6))]
      let lo = SimTime(s.integer(below: UInt64(span)))
      let hi = lo + SimTime(s.integer(below: UInt64(span - lo) + 1))
      // Brute force: every sample of every run stretch.
      var expected = 0
      var expectedUsable = 0
      var expectedFixed = 0
      for r in runs.spans {
        var t = r.start
        while t < r.end {
          if t >= lo && t < hi {
            expected += 1
            if usable.contains(t) { expectedUsable += 1 }
          }
          t += period
        }
      }
      var t: SimTime = 0
      while t < span {
        if t >= lo && t < hi && runs.contains(t) { expectedFixed += 1 }
        t += period
      }
      var c1 = 0
      var c2 = 0
      var c3 = 0
      #expect(Yield.periodic(runs: runs, period: period, from: lo, to: hi, cursor: &c1) == expected, "trial \(trial)")
      #expect(Yield.periodic(runs: runs, period: period, from: lo, to: hi, usable: usable, cursor: &c2) == expectedUsable, "trial \(trial)")
      #expect(Yield.coprocessor(on: runs, period: period, from: lo, to: hi, cursor: &c3) == expectedFixed, "trial \(trial)")
    }
  }

  @Test(
    "coverage counted stretch by stretch equals a per-sample count, hour by hour and in the tallies, on random timelines"
  )
  func coverageMatchesBruteForce() {
    var s = RandomStream(StreamAddress(seed: 13, purpose: .general))
    let hours = 8
    let span = SimTime(hours) * Tick.hour
    let sensors = [
      SensorPlan(name: "accelerometer", kind: .periodic(period: 200)),
      SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute)),
      SensorPlan(name: "weather", kind: .periodic(period: 10 * Tick.minute), needsNetwork: true),
      SensorPlan(name: "pedometer", kind: .periodic(period: 10 * Tick.minute), coprocessor: true),
    ]
    for trial in 0..<60 {
      // Half the trials without the fast sensor, so that the slower grids fill the minutes.
      let used = trial % 2 == 0 ? sensors : Array(sensors.dropFirst())
      let runs = randomSpans(&s, span: span, count: 1 + Int(s.integer(below: 12)))
      let on = randomSpans(&s, span: span, count: 1 + Int(s.integer(below: 4)))
      // A timeline alternating reachable and unreachable stretches.
      var timeline = Timeline()
      var t: SimTime = 0
      while t < span + Tick.hour {
        let length = SimTime(1 + s.integer(below: UInt64(90 * Tick.minute)))
        timeline.append(
          Episode(start: t, end: t + length, context: .home, phoneAtHand: true, network: s.bernoulli(0.7) ? .wifi : .unreachable))
        t += length
      }
      // A third of the trials with everything uploaded.
      let lastSync = trial % 3 == 0 ? span + Tick.hour : SimTime(s.integer(below: UInt64(span)))
      func coverage(keepRows: Bool) -> CoverageCalculator {
        return CoverageCalculator(
          sensors: used, runs: runs, phoneOn: on,
          networkUsable: Upload.backgroundNetwork(
            timeline: timeline, lowPower: Intervals(), foreground: Intervals(), until: span),
          timeline: timeline, enrolledUntil: span, lastSync: lastSync, batteryTrace: [],
          keepRows: keepRows)
      }
      let c = coverage(keepRows: true)
      // Brute force: every sample.
      var collected = Array(repeating: Array(repeating: 0, count: used.count), count: hours)
      var received = collected
      var minutes = Array(repeating: Set<Int>(), count: hours)
      func sample(_ k: Int, at t: SimTime) {
        guard t < span else { return }
        let h = Int(t / Tick.hour)
        collected[h][k] += 1
        if t < lastSync { received[h][k] += 1 }
        minutes[h].insert(Int((t % Tick.hour) / Tick.minute))
      }
      for (k, sensor) in used.enumerated() {
        guard case .periodic(let period) = sensor.kind else { continue }
        if sensor.coprocessor {
          var g: SimTime = 0
          while g < span {
            if on.contains(g) { sample(k, at: g) }
            g += period
          }
        } else {
          for r in runs.spans {
            var g = r.start
            while g < r.end {
              if !sensor.needsNetwork || timeline.episode(at: g).network != .unreachable { sample(k, at: g) }
              g += period
            }
          }
        }
      }
      for h in 0..<hours {
        for k in used.indices {
          let row = c.rows[h * used.count + k]
          #expect(row.hour == h && row.sensor == k)
          #expect(row.collected == collected[h][k], "trial \(trial), hour \(h), \(used[k].name)")
          #expect(row.received == received[h][k], "trial \(trial), hour \(h), \(used[k].name)")
        }
      }
      // The tallies, with and without the rows: hours classified by collected samples.
      let lean = coverage(keepRows: false)
      for k in used.indices {
        var t = SensorTally()
        let e = used[k].expectedPerHour
        for h in 0..<hours {
          t.expected += e
          t.collected += collected[h][k]
          t.received += received[h][k]
          switch CoverageStatus.classify(expected: e, collected: collected[h][k]) {
          case .comp: t.comp += 1
          case .incomp: t.incomp += 1
          case .loss: t.loss += 1
          }
        }
        #expect(c.tallies[k] == t, "trial \(trial), \(used[k].name)")
        #expect(lean.tallies[k] == t, "trial \(trial), \(used[k].name)")
      }
      #expect(c.yield.validMinutes == minutes.map(\.count).reduce(0, +), "trial \(trial)")
      #expect(c.yield.validHours == minutes.filter { $0.count > 30 }.count, "trial \(trial)")
    }
  }

  @Test("Comp, Incomp and Loss of hand-built hours, as the AWARE paper defines them")
  func compIncompLoss() {
    #expect(CoverageStatus.classify(expected: 20, collected: 20) == .comp)
    #expect(CoverageStatus.classify(expected: 20, collected: 21) == .comp)
    #expect(CoverageStatus.classify(expected: 20, collected: 19) == .incomp)
    #expect(CoverageStatus.classify(expected: 20, collected: 1) == .incomp)
    #expect(CoverageStatus.classify(expected: 20, collected: 0) == .loss)
    // The app runs 00:00–00:30 and 01:10–02:00; location every 3 minutes.
    let runs = Intervals([(0, 30 * Tick.minute), (70 * Tick.minute, 2 * Tick.hour)])
    let on = Intervals([(0, 3 * Tick.hour)])
    let sensors = [SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute))]
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: 4 * Tick.hour, context: .home, phoneAtHand: true, network: .wifi))
    let c = CoverageCalculator(
      sensors: sensors, runs: runs, phoneOn: on, networkUsable: Intervals(), timeline: timeline,
      enrolledUntil: 3 * Tick.hour, lastSync: 100 * Tick.minute, batteryTrace: [],
      keepRows: true)
    #expect(c.rows.map(\.collected) == [10, 17, 0])  // minutes 0, 3, … 27; then 70, 73, … 118
    #expect(c.rows.map(\.status) == [.incomp, .incomp, .loss])
    #expect(c.rows.map(\.received) == [10, 10, 0])  // before the last sync at 01:40: 70…97 → 10
    #expect(c.tallies[0].comp == 0 && c.tallies[0].incomp == 2 && c.tallies[0].loss == 1)
    // RAPIDS: hour 0 has 10 minutes with a row (not more than half: not valid); hour 1 has 17.
    #expect(c.yield.validMinutes == 27)
    #expect(c.yield.validHours == 0)
    #expect(c.yield.observedHours == 3)
  }

  @Test("RAPIDS data yield: valid minutes and the strict half-hour rule")
  func rapidsYield() {
    #expect(DataYield.isValidHour(validMinutes: 31))
    #expect(!DataYield.isValidHour(validMinutes: 30))  // RAPIDS compares with >, not ≥
    #expect(DataYield.isValidHour(validMinutes: 16, minutes: 30))  // a 30-minute segment
    // An accelerometer at 5 Hz in a run 00:00:30–00:31:00: minutes 0 to 30 hold rows (31 ≥).
    let runs = Intervals([(30 * Tick.second, 31 * Tick.minute)])
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: 2 * Tick.hour, context: .home, phoneAtHand: true, network: .wifi))
    let c = CoverageCalculator(
      sensors: [SensorPlan(name: "accelerometer", kind: .periodic(period: 200))], runs: runs,
      phoneOn: Intervals([(0, 2 * Tick.hour)]), networkUsable: Intervals(), timeline: timeline, enrolledUntil: 2 * Tick.hour,
      lastSync: 2 * Tick.hour, batteryTrace: [], keepRows: false)
    #expect(c.yield.validMinutes == 31)
    #expect(c.yield.validHours == 1)
    #expect(c.yield.minuteRatio == 31.0 / 120)
    #expect(c.yield.hourRatio == 0.5)
    #expect(c.tallies[0].collected == (31 * 60 - 30) * 5)
  }

  @Test("the battery passes every whole percent it drains through, recorded while the app runs")
  func batteryEvents() {
    let trace: [(SimTime, Double)] = [(0, 80), (Tick.hour, 70), (2 * Tick.hour, 70)]
    let runs = Intervals([(0, 30 * Tick.minute)])
    var cursor = 0
    var minutes: UInt64 = 0
    let (e, c, r) = CoverageCalculator.batteryEvents(
      trace, runs: runs, lo: 0, hi: Tick.hour, lastSync: Tick.hour, cursor: &cursor, &minutes)
    #expect(e == 10)  // 79, 78, … 70
    #expect(c == 5)  // 79 … 75 fall in the first half hour
    #expect(r == 5)
    // RAPIDS: the minutes of the collected events (a percent every 6 minutes from 80 at 0:00).
    #expect(minutes == 1 << 0 | 1 << 6 | 1 << 12 | 1 << 18 | 1 << 24)
    #expect(minutes.nonzeroBitCount == c)
  }

  /// Screen events only, phone at hand and awake for `hours` hours, `checks` phone checks an
  /// hour, the app running in `runs`: the coverage and the checks behind it.
  static func screenOnly(hours: Int, checks: Double, runs: Intervals, seed: UInt64) -> (CoverageCalculator, PhoneChecks) {
    let span = SimTime(hours) * Tick.hour
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: span, context: .home, phoneAtHand: true, network: .wifi))
    var counts = RandomStream(StreamAddress(seed: seed, purpose: .general))
    var places = RandomStream(StreamAddress(seed: seed + 1, purpose: .general))
    let phoneChecks = PhoneChecks(timeline: timeline, hours: hours, checksPerHour: checks, counts: &counts, places: &places)
    let c = CoverageCalculator(
      sensors: [SensorPlan(name: "screen", kind: .screen)], runs: runs, phoneOn: Intervals([(0, span)]),
      networkUsable: Intervals(), timeline: timeline, enrolledUntil: span, lastSync: span, checks: phoneChecks,
      batteryTrace: [], keepRows: true)
    return (c, phoneChecks)
  }

  @Test("phone checks: a Poisson number at the person's rate, only while awake with the phone at hand")
  func phoneChecks() {
    var timeline = Timeline()
    // Awake with the phone 08:00-20:00, asleep otherwise, for 100 days.
    for d in 0..<100 {
      let day = SimTime(d) * Tick.day
      timeline.append(Episode(start: day, end: day + 8 * Tick.hour, context: .asleep, phoneAtHand: false, network: .wifi))
      timeline.append(Episode(start: day + 8 * Tick.hour, end: day + 20 * Tick.hour, context: .home, phoneAtHand: true, network: .wifi))
      timeline.append(Episode(start: day + 20 * Tick.hour, end: day + Tick.day, context: .asleep, phoneAtHand: false, network: .wifi))
    }
    var counts = RandomStream(StreamAddress(seed: 3, purpose: .general))
    var places = RandomStream(StreamAddress(seed: 4, purpose: .general))
    let c = PhoneChecks(timeline: timeline, hours: 2400, checksPerHour: 6, counts: &counts, places: &places)
    // 1,200 waking hours × 6: Poisson, sd √7,200 ≈ 85; 4 sd.
    #expect(abs(c.times.count - 7_200) < 340, "\(c.times.count) checks")
    #expect(c.times.allSatisfy { t in t % Tick.day >= 8 * Tick.hour && t % Tick.day < 20 * Tick.hour })
    #expect(c.times == c.times.sorted())
    #expect(c.screenEvents.count == 2 * c.times.count)
  }

  @Test("RAPIDS yield and the screen sensor from the phone checks the app sees, counted exactly")
  func eventSensorYield() {
    let hours = 200
    let end = SimTime(hours) * Tick.hour
    let half = Intervals((0..<hours).map { h in (SimTime(h) * Tick.hour, SimTime(h) * Tick.hour + 30 * Tick.minute) })
    let (c, checks) = Self.screenOnly(hours: hours, checks: 20, runs: half, seed: 5)
    // Brute force: the screen events inside the runs, and their distinct minutes.
    let seen = checks.screenEvents.filter { half.contains($0) && $0 < end }
    #expect(c.tallies[0].collected == seen.count)
    #expect(c.tallies[0].expected == checks.screenEvents.filter { $0 < end }.count)
    #expect(c.yield.validMinutes == Set(seen.map { $0 / Tick.minute }).count)
    #expect(c.yield.validMinutes > 5 * hours)
    // The app runs in the first half of every hour only: no hour has more than 30 valid minutes.
    #expect(c.yield.validHours == 0)
  }
}

@Suite("Beiwe phone events")
struct PhoneEventsTests {
  @Test("Reachability and PowerState are recorded while the app runs, starting with the state it finds")
  func handBuilt() {
    let h = Tick.hour
    let runs = Intervals([(0, 2 * h), (3 * h, 5 * h)])
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: h, context: .home, phoneAtHand: true, network: .wifi))
    timeline.append(Episode(start: h, end: 3 * h / 2, context: .transit, phoneAtHand: true, network: .unreachable))
    timeline.append(Episode(start: 3 * h / 2, end: 4 * h, context: .work, phoneAtHand: true, network: .cellular))
    timeline.append(Episode(start: 4 * h, end: 6 * h, context: .home, phoneAtHand: true, network: .wifi))
    let charging = Intervals([(h / 2, 7 * h / 2)])
    let trace: [(SimTime, Double)] = [(0, 50), (h / 2, 50), (7 * h / 4, 100), (7 * h / 2, 100), (6 * h, 90)]
    let e = PhoneEvents(runs: runs, timeline: timeline, charging: charging, batteryTrace: trace)
    #expect(e.reachability.map(\.time) == [0, h, 3 * h / 2, 3 * h, 4 * h])
    #expect(e.reachability.map(\.network) == [.wifi, .unreachable, .cellular, .cellular, .wifi])
    #expect(e.power.map(\.time) == [0, h / 2, 7 * h / 4, 3 * h, 7 * h / 2])
    #expect(e.power.map(\.event) == [.unplugged, .charging, .full, .charging, .unplugged])
    #expect(e.power.map(\.level) == [50, 50, 100, 100, 100])
  }
}

@Suite("Beiwe Unlocked and Locked")
struct LockEventsTests {
  @Test("Unlocked at each phone check the running app sees, Locked when its screen goes off, with the level")
  func locks() {
    let h = Tick.hour
    var timeline = Timeline()
    timeline.append(Episode(start: 0, end: 4 * h, context: .home, phoneAtHand: true, network: .wifi))
    var counts = RandomStream(StreamAddress(seed: 6, purpose: .general))
    var places = RandomStream(StreamAddress(seed: 7, purpose: .general))
    let checks = PhoneChecks(timeline: timeline, hours: 4, checksPerHour: 30, counts: &counts, places: &places)
    let runs = Intervals([(0, h), (2 * h, 3 * h)])
    let trace: [(SimTime, Double)] = [(0, 80), (4 * h, 60)]
    let e = PhoneEvents(runs: runs, timeline: timeline, charging: Intervals(), batteryTrace: trace, checks: checks)
    let unlocked = e.power.filter { $0.event == .unlocked }
    let locked = e.power.filter { $0.event == .locked }
    #expect(unlocked.map(\.time) == checks.times.filter { runs.contains($0) })
    #expect(locked.map(\.time) == checks.times.map { $0 + PhoneChecks.screenOn }.filter { runs.contains($0) })
    #expect(unlocked.count > 20)
    // The level on the line from 80 % to 60 % over four hours.
    #expect(unlocked.allSatisfy { abs($0.level - (80 - 20 * Double($0.time) / Double(4 * h))) < 1e-9 })
    #expect(e.power.map(\.time) == e.power.map(\.time).sorted())
  }
}
