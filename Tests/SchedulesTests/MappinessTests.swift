import Measures
import Schedules
import SimKernel
import Testing

@Suite("Mappiness")
struct MappinessTests {
  @Test(
    "every draw: exactly n a day, sorted, inside the effective window, gaps in [W/(4n), 1.75·W/n]",
    arguments: [1, 2, 3, 4, 5], ["08:00-22:00", "08:00-20:00", "20:00-06:00", "07:15-23:45"])
  func provenProperties(n: Int, windowText: String) throws {
    let w = window(windowText)
    let m = Mappiness(perDay: n)
    try m.validate(for: w)
    let W = w.length - 10
    var checked = 0
    eachDay(m, w, days: 5_000, seed: UInt64(n)) { t in
      #expect(t.count == n)
      #expect(isSorted(t))
      #expect(t.allSatisfy { $0 >= 0 && $0 < W })
      for g in gaps(t) {
        #expect(g >= W / Double(4 * n) - 1e-9)
        #expect(g <= 1.75 * W / Double(n) + 1e-9)
      }
      checked += 1
    }
    #expect(checked == 5_000)
  }

  @Test("intensity is flat over 60,000 days: every 10-minute slot within 5 standard errors, chi-square p > 0.001")
  func flatIntensity() throws {
    // 08:00-22:00, n = 2: W = 830 minutes, 83 slots of 10 minutes. No two signals of a day
    // share a slot (gaps ≥ W/8 > 10), so a slot's count over D days is Binomial(D, q) with
    // q = n·10/W, and its intensity c/(D·n·10/W) has standard error sqrt((1 − q)/(D·q)).
    let days = 60_000
    let w = window("08:00-22:00")
    let s = AnyScheduler.mappiness(Mappiness(perDay: 2))
    let summary = ScheduleRun.measure(s, window: w, days: days, seed: 42)
    #expect(summary.intensity.count == 83)
    let q = 2.0 * 10 / 830
    let se = ((1 - q) / (Double(days) * q)).squareRoot()
    for (j, x) in summary.intensity.enumerated() {
      #expect(abs(x - 1) < 5 * se, "slot \(j): intensity \(x), tolerance \(5 * se)")
    }
    let expected = Double(days * 2) / 83
    let chi = summary.intensity.reduce(0.0) { acc, x in
      let c = x * expected
      return acc + (c - expected) * (c - expected) / expected
    }
    #expect(try GSL.chiSquareUpperTail(chi, degrees: 82) > 0.001)
    #expect(summary.ksP > 0.001)
  }

  @Test("the pro-rata rule: k is ⌊λ⌋ or ⌊λ⌋ + 1 with mean λ, placed in the rest of the day")
  func proRata() {
    let w = window("08:00-20:00")  // W = 710
    let m = Mappiness(perDay: 3)
    let elapsed = 355.0  // half the effective window: λ = 1.5
    var st = stream(9)
    var total = 0
    var times: [Double] = []
    let trials = 40_000
    for _ in 0..<trials {
      times.removeAll()
      m.rest(of: w, after: elapsed, into: &times, using: &st)
      #expect(times.count == 1 || times.count == 2)
      #expect(times.allSatisfy { $0 >= elapsed && $0 < 710 })
      #expect(isSorted(times))
      total += times.count
    }
    // Mean 1.5, per-trial variance 0.25: 4 standard errors.
    let mean = Double(total) / Double(trials)
    #expect(abs(mean - 1.5) < 4 * (0.25 / Double(trials)).squareRoot())
    // At the very end of the day nothing is left to send.
    times.removeAll()
    m.rest(of: w, after: 710, into: &times, using: &st)
    #expect(times.isEmpty)
  }

  @Test("impossible parameters are refused, naming the parameter")
  func badInput() {
    #expect(throws: ScheduleError(.perDay, "Mappiness sends 1 to 5 signals a day, not 0")) {
      try Mappiness(perDay: 0).validate(for: window("08:00-20:00"))
    }
    #expect(throws: ScheduleError.self) { try Mappiness(perDay: 6).validate(for: window("08:00-20:00")) }
    do {
      try Mappiness(perDay: 2, endMargin: 30).validate(for: window("08:00-08:15"))
      Issue.record("a window shorter than its margin was accepted")
    } catch {
      #expect(error.parameter == .endMargin)
    }
    do {
      try Mappiness(perDay: 2).validate(for: window("08:05-20:00"))
      Issue.record("hours off the quarter hour were accepted")
    } catch {
      #expect(error.parameter == .window)
    }
    #expect(Mappiness.quarterHour(ClockTime("08:07")!) == ClockTime("08:00")!)
    #expect(Mappiness.quarterHour(ClockTime("08:08")!) == ClockTime("08:15")!)
  }
}
