import Measures
import Schedules
import SimKernel
import Testing

@Suite("Fixed blocks and their gap methods")
struct FixedBlocksTests {
  let w = window("08:00-20:00")

  @Test("none: exactly one uniform draw in each block")
  func oneInEachBlock() throws {
    let s = FixedBlocks(layout: .equal(4))
    try s.validate(for: w)
    eachDay(s, w, days: 5_000, seed: 1) { t in
      #expect(t.count == 4)
      for (i, x) in t.enumerated() { #expect(x >= Double(i) * 180 && x < Double(i + 1) * 180) }
    }
  }

  @Test("custom blocks (Turk et al. 2007: 08-12, 12-16, 16-20) with a 2-hour gap", arguments: GapMethod.allCases.filter { $0 != .sortAndSpace && $0 != .none })
  func turkBlocks(method: GapMethod) throws {
    let s = FixedBlocks(
      layout: .custom(["08:00-12:00", "12:00-16:00", "16:00-20:00"].map { ClockRange($0)! }),
      minGap: 120, method: method)
    try s.validate(for: w)
    eachDay(s, w, days: 3_000, seed: 2) { t in
      #expect(t.count <= 3)
      if method != .sequentialRejection { #expect(t.count == 3) }
      #expect(isSorted(t))
      #expect(gaps(t).allSatisfy { $0 >= 120 })
      #expect(t.allSatisfy { $0 >= 0 && $0 < 720 })
    }
  }

  @Test("every gap method keeps every gap, inside the window", arguments: GapMethod.allCases.filter { $0 != .none })
  func gapsHold(method: GapMethod) throws {
    let s = FixedBlocks(layout: .equal(5), minGap: 60, method: method)
    try s.validate(for: w)
    eachDay(s, w, days: 5_000, seed: 3) { t in
      #expect(isSorted(t))
      #expect(gaps(t).allSatisfy { $0 >= 60 - 1e-9 })
      #expect(t.allSatisfy { $0 >= 0 && $0 < 720 })
      if method != .sequentialRejection { #expect(t.count == 5) }
    }
  }

  @Test("PACO: integer minutes, and a signal is dropped when 1,000 redraws all fail")
  func pacoDrops() throws {
    // Two 30-minute blocks, gap 45: a first signal at minute 15 or later leaves the second
    // block no room (it ends at 59), so half of the days (15 of 30 first minutes) lose it.
    let w = window("08:00-09:00")
    let s = FixedBlocks(layout: .equal(2), minGap: 45, method: .sequentialRejection)
    try s.validate(for: w)
    var dropped = 0
    let days = 20_000
    eachDay(s, w, days: days, seed: 4) { t in
      #expect(t.allSatisfy { $0 == $0.rounded() })
      if t.count == 1 {
        dropped += 1
        #expect(t[0] >= 15 && t[0] < 30)
      } else {
        #expect(t.count == 2)
        #expect(t[0] <= 14 && t[1] - t[0] >= 45)
      }
    }
    // Binomial(20,000, 0.5): 4 standard errors.
    #expect(abs(Double(dropped) / Double(days) - 0.5) < 4 * (0.25 / Double(days)).squareRoot())
  }

  @Test("PACO: blocks under a whole minute are refused (they gave a day without any signal)")
  func pacoWholeMinutes() throws {
    let w = window("09:00-10:00")
    try FixedBlocks(layout: .equal(60), method: .sequentialRejection).validate(for: w)
    #expect(throws: ScheduleError.self) { try FixedBlocks(layout: .equal(61), method: .sequentialRejection).validate(for: w) }
    // Other methods draw in fractions of a minute: 61 in an hour is allowed.
    try FixedBlocks(layout: .equal(61), method: .none).validate(for: w)
  }

  @Test("ESMira: a draw within the gap of its block's end pushes the next block's start later")
  func esmiraTruncation() throws {
    let s = FixedBlocks(layout: .equal(3), minGap: 120, method: .truncation)
    try s.validate(for: w)
    var pushed = 0
    eachDay(s, w, days: 5_000, seed: 5) { t in
      #expect(t.count == 3)
      for i in 0..<2 {
        let blockEnd = Double(i + 1) * 240
        if blockEnd - t[i] < 120 {
          // The next draw is in [t_i + gap, its own block's end): the start moved, the end did not.
          pushed += 1
          #expect(t[i + 1] >= t[i] + 120)
          #expect(t[i + 1] < blockEnd + 240)
        } else {
          #expect(t[i + 1] >= blockEnd)
        }
      }
    }
    #expect(pushed > 1_000)
  }

  @Test("AWARE sort-and-space: the first signal's mean is the shrunken window over n + 1")
  func awareSortAndSpace() throws {
    let s = FixedBlocks(layout: .equal(4), minGap: 60, method: .sortAndSpace)
    try s.validate(for: w)
    var sum = 0.0
    let days = 40_000
    eachDay(s, w, days: days, seed: 6) { t in sum += t[0] }
    // The first order statistic of 4 uniforms on [0, 540): mean 108, sd 540·sqrt(4/((5^2)(6))).
    let sd = 540 * (4.0 / (25 * 6)).squareRoot()
    #expect(abs(sum / Double(days) - 108) < 4 * sd / Double(days).squareRoot())
  }

  @Test("redrawing whole days under-samples the moments around block boundaries (MacKerron's warning)")
  func resampleUndersamplesBoundaries() throws {
    let turk = FixedBlocks(
      layout: .custom(["08:00-12:00", "12:00-16:00", "16:00-20:00"].map { ClockRange($0)! }),
      minGap: 120, method: .resampleSchedule)
    let summary = ScheduleRun.measure(.fixedBlocks(turk), window: w, days: 20_000, seed: 7)
    // The slots either side of 12:00 and 16:00 (23, 24, 47, 48) against the middle of the
    // first block (slot 12). An independent simulation (200,000 days) gives about 0.52,
    // 0.70, 0.71, 0.53 against 1.14; a slot's standard error here is about 0.035.
    for j in [23, 24, 47, 48] {
      #expect(summary.intensity[j] < 0.75 * summary.intensity[12], "slot \(j)")
    }
    #expect(summary.intensity[12] > 1.05)
  }

  @Test("impossible gaps and blocks are refused, naming the parameter")
  func badInput() {
    func parameter(_ s: FixedBlocks, _ w: Window = window("08:00-20:00")) -> ScheduleParameter? {
      do {
        try s.validate(for: w)
        return nil
      } catch { return error.parameter }
    }
    #expect(parameter(FixedBlocks(layout: .equal(0))) == .perDay)
    #expect(parameter(FixedBlocks(layout: .equal(4), minGap: 240, method: .sortAndSpace)) == .minGap)
    #expect(parameter(FixedBlocks(layout: .equal(4), minGap: 200, method: .truncation)) == .minGap)
    #expect(parameter(FixedBlocks(layout: .equal(3), minGap: -1, method: .truncation)) == .minGap)
    let overlapping = ["08:00-12:00", "11:00-16:00"].map { ClockRange($0)! }
    #expect(parameter(FixedBlocks(layout: .custom(overlapping))) == .blocks)
    let outside = ["07:00-12:00"].map { ClockRange($0)! }
    #expect(parameter(FixedBlocks(layout: .custom(outside))) == .blocks)
    // resample-schedule: infeasible, and feasible but hopeless, are both refused at once.
    #expect(parameter(FixedBlocks(layout: .equal(3), minGap: 400, method: .resampleSchedule)) == .minGap)
    #expect(parameter(FixedBlocks(layout: .equal(6), minGap: 139, method: .resampleSchedule)) == .minGap)
  }
}
