import Measures
import Schedules
import SimKernel
import Testing

@Suite("Bernoulli, fixed times, chain, buffered blocks")
struct OtherSchedulersTests {
  @Test("bernoulli: the daily count has mean n and variance n(1 − n/W) (4 standard errors)")
  func bernoulliCounts() throws {
    let w = window("08:00-20:00")  // W = 720 whole minutes
    let n = 3.0
    let s = Bernoulli(perDay: n)
    try s.validate(for: w)
    let days = 100_000
    var sum = 0.0
    var sumSq = 0.0
    eachDay(s, w, days: days, seed: 10) { t in
      #expect(t.allSatisfy { $0 == $0.rounded() && $0 >= 0 && $0 < 720 })
      #expect(Set(t).count == t.count)
      sum += Double(t.count)
      sumSq += Double(t.count * t.count)
    }
    let p = n / 720
    let variance = 720 * p * (1 - p)
    // Binomial(720, p): fourth central moment Np(1−p)[1 + 3(N−2)p(1−p)].
    let mu4 = 720 * p * (1 - p) * (1 + 3 * 718 * p * (1 - p))
    let mean = sum / Double(days)
    let sampleVariance = (sumSq - Double(days) * mean * mean) / Double(days - 1)
    #expect(abs(mean - n) < 4 * (variance / Double(days)).squareRoot())
    #expect(abs(sampleVariance - variance) < 4 * ((mu4 - variance * variance) / Double(days)).squareRoot())
  }

  @Test("fixed times: each time moves by whole minutes within ± jitter, redrawn daily")
  func fixedTimes() throws {
    let w = window("08:00-20:00")
    let s = FixedTimes(times: ["09:00", "13:00", "18:00"].map { ClockTime($0)! }, jitter: 15)
    try s.validate(for: w)
    var seen = Set<Double>()
    eachDay(s, w, days: 2_000, seed: 11) { t in
      #expect(t.count == 3)
      for (x, centre) in zip(t, [60.0, 300, 600]) {
        #expect(x == x.rounded() && abs(x - centre) <= 15)
        seen.insert(x - centre)
      }
    }
    #expect(seen.count == 31)  // every offset −15…15 occurs
    #expect(throws: ScheduleError.self) {
      try FixedTimes(times: [ClockTime("08:05")!], jitter: 10).validate(for: w)
    }
  }

  @Test("chain: lags of fixed + U(0, random) whole minutes from the window start; none after the end")
  func chain() throws {
    let w = window("07:00-17:00")  // 600 minutes
    let s = Chain(perDay: 6, fixedLag: 90, randomLag: 30)
    try s.validate(for: w)
    var short = 0
    eachDay(s, w, days: 5_000, seed: 12) { t in
      #expect(t.count <= 6)
      if t.count < 6 { short += 1 }
      var previous = 0.0
      for x in t {
        #expect(x - previous >= 90 && x - previous <= 120 && x == x.rounded())
        previous = x
      }
      #expect(t.allSatisfy { $0 < 600 })
    }
    #expect(short > 0)  // six lags of 90–120 minutes can pass 600 minutes
  }

  @Test("buffered blocks: nothing in the outer 10 % of any block")
  func bufferedBlocks() throws {
    let w = window("08:00-18:00")
    let s = BufferedBlocks(perDay: 5)
    try s.validate(for: w)
    eachDay(s, w, days: 5_000, seed: 13) { t in
      #expect(t.count == 5)
      for (i, x) in t.enumerated() {
        let offset = x - Double(i) * 120
        #expect(offset >= 12 && offset <= 108)
      }
    }
  }

  @Test("windows crossing midnight work for every algorithm")
  func crossingMidnight() throws {
    let w = window("20:00-06:00")
    #expect(w.length == 600)
    let p = ScheduleParameters(perDay: 3, minGap: 60, gapMethod: .truncation, times: ["22:00", "01:00", "04:00"].map { ClockTime($0)! })
    for name in AnyScheduler.Name.allCases {
      let s = try AnyScheduler(name, p, window: w)
      eachDay(s, w, days: 500, seed: 14) { t in
        #expect(t.allSatisfy { $0 >= 0 && $0 < 600 })
      }
    }
    #expect(w.offset(of: ClockTime("01:00")!) == 300)
  }

  @Test("the same seed draws the same schedule; another seed another one")
  func reproducible() throws {
    let w = window("08:00-22:00")
    for name in AnyScheduler.Name.allCases {
      let s = try AnyScheduler(name, ScheduleParameters(perDay: 4, minGap: 30, gapMethod: .truncation, times: ["09:00", "12:00", "15:00", "18:00"].map { ClockTime($0)! }, jitter: 20), window: w)
      let a = ScheduleRun.signals(s, window: w, days: 50, seed: 77)
      let b = ScheduleRun.signals(s, window: w, days: 50, seed: 77)
      let c = ScheduleRun.signals(s, window: w, days: 50, seed: 78)
      #expect(a == b, "\(name)")
      #expect(a != c, "\(name)")
    }
  }

  @Test("parameters by name: missing and impossible ones name the parameter")
  func parameters() {
    let w = window("08:00-20:00")
    func failure(_ name: AnyScheduler.Name, _ p: ScheduleParameters) -> ScheduleParameter? {
      do {
        _ = try AnyScheduler(name, p, window: w)
        return nil
      } catch { return error.parameter }
    }
    #expect(failure(.fixedBlocks, ScheduleParameters()) == .perDay)
    #expect(failure(.fixedBlocks, ScheduleParameters(perDay: 2.5)) == .perDay)
    #expect(failure(.fixedTimes, ScheduleParameters(perDay: 2)) == .times)
    #expect(failure(.bernoulli, ScheduleParameters(perDay: 0)) == .perDay)
    #expect(failure(.bernoulli, ScheduleParameters(perDay: 721)) == .perDay)
    #expect(failure(.chain, ScheduleParameters(perDay: 0)) == .perDay)
    #expect(failure(.bufferedBlocks, ScheduleParameters(perDay: 3, buffer: 0.5)) == .buffer)
    #expect(failure(.mappiness, ScheduleParameters()) == nil)  // defaults: 2 a day
    #expect(throws: ScheduleError.self) { try Window(parsing: "08:00-08:00") }
    #expect(throws: ScheduleError.self) { try Window(parsing: "8-20") }
    #expect(throws: ScheduleError.self) { try Window(parsing: "08:00-25:00") }
  }
}
