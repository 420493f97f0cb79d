import Schedules
import SimKernel
import Testing

@testable import Measures

/// Slots are assigned exactly: a whole minute on a slot's edge belongs to the slot it starts,
/// and schedulers that are uniform by construction come out flat in every slot.
@Suite("Exact slots")
struct SlotTests {
  @Test("a whole minute on a slot's edge is in the slot it starts, in windows of any length")
  func edges() {
    // 720 minutes in 10-minute slots: 230, 370 and 460 are where u·720/10 once rounded below.
    let m = ScheduleMeasures(referenceMinutes: 720, slotMinutes: 10)
    for minute in 0..<720 {
      #expect(m.slot(at: Double(minute), inWindowOf: 720) == minute / 10)
    }
    // A participant's window of 630 minutes stretched onto the reference's 72 slots: slot j
    // starts at j·630/72 = j·8.75 minutes; check both sides of every edge.
    for j in 1..<72 {
      let edge = Double(j) * 8.75
      #expect(m.slot(at: edge, inWindowOf: 630) == j)
      #expect(m.slot(at: edge.nextDown, inWindowOf: 630) == j - 1)
    }
    #expect(m.slot(at: 630, inWindowOf: 630) == 71)  // the window's end: the last slot
  }

  /// The largest distance of a slot's intensity from 1, in standard errors: the count in slot
  /// j of N signals is at most as variable as Binomial(N, w_j) (it is exactly that for
  /// independent uniform times; blocks and Mappiness's spacing make it less variable), so the
  /// intensity count/(w_j·N) has standard error √((1 − w_j)/(w_j·N)).
  static func worstZ(_ m: ScheduleMeasures) -> Double {
    let s = m.summary()
    var worst = 0.0
    for j in 0..<m.slotCount {
      let w = m.width(ofSlot: j)
      let se = ((1 - w) / (w * Double(s.signals))).squareRoot()
      worst = max(worst, abs(s.intensity[j] - 1) / se)
    }
    return worst
  }

  @Test(
    "uniform schedulers are flat in every slot, with continuous and with whole-minute times",
    arguments: [
      ("bernoulli", AnyScheduler.bernoulli(Bernoulli(perDay: 3))),
      ("stratified blocks", AnyScheduler.fixedBlocks(FixedBlocks(layout: .equal(3)))),
      ("mappiness", AnyScheduler.mappiness(Mappiness(perDay: 3))),
    ])
  func flat(name: String, scheduler: AnyScheduler) throws {
    let window = try Window(parsing: "08:00-20:00")
    let sampling = scheduler.samplingWindow(for: window)
    var continuous = ScheduleMeasures(referenceMinutes: sampling.length)
    var whole = ScheduleMeasures(referenceMinutes: sampling.length)
    // 60,000 days of 3 signals: a slot's standard error is about 0.02, so the edge error
    // (a whole minute of ten moved to the slot before: intensities 0.9 and 1.1) is 5 of them.
    ScheduleRun.days(scheduler, window: window, days: 60_000, seed: 7) { day, times in
      continuous.add(day: day, times: times, sampling: sampling, detailed: false)
      whole.add(day: day, times: times.map { $0.rounded(.down) }, sampling: sampling, detailed: false)
    }
    // 72 slots: the chance that any of them is beyond 4.5 standard errors is about 72 × 7e-6.
    #expect(Self.worstZ(continuous) < 4.5, "\(name), continuous times")
    #expect(Self.worstZ(whole) < 4.5, "\(name), whole minutes")
  }

  @Test("a schedule whose minutes sit on slot edges is measured as its minutes say")
  func edgeHeavy() {
    // Every day one signal at each of 230, 370 and 460: three slots of intensity 24, the rest 0.
    var m = ScheduleMeasures(referenceMinutes: 720, slotMinutes: 10)
    for day in 0..<10 { m.add(day: day, times: [230, 370, 460], sampling: Block(start: 0, end: 720)) }
    let s = m.summary()
    for j in 0..<72 { #expect(abs(s.intensity[j] - ([23, 37, 46].contains(j) ? 24 : 0)) < 1e-9, "slot \(j)") }
  }
}
