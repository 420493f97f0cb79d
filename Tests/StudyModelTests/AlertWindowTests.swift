import Foundation
import Schedules
import SimKernel
import Testing

@testable import StudyModel

/// Attention to alerts follows the answer window (`alert_window_exponent`): the odds of
/// noticing an alert as it arrives are `alert_odds` × (60 minutes / window)^exponent, the
/// window held within 5 minutes to 4 hours.
@Suite("Alerts: attention follows the answer window")
struct AlertWindowTests {
  @Test("the odds scale with (60 min / window)^exponent, held at 5 and 240 minutes; exponent 0 keeps alert_odds")
  func oddsFollowTheWindow() {
    var c = CompliancePlan()
    c.alertOdds = 0.8
    c.alertWindowExponent = 0.5
    func odds(_ minutes: Double?) -> Double {
      Noticing.alertOdds(base: c.alertOdds, exponent: c.alertWindowExponent, window: minutes.map { Tick.minutes($0) })
    }
    #expect(abs(odds(60) - 0.8) < 1e-12)
    #expect(abs(odds(15) - 1.6) < 1e-12)  // a quarter of the window: twice the odds
    #expect(abs(odds(240) - 0.4) < 1e-12)
    #expect(abs(odds(1) - odds(5)) < 1e-12)  // below 5 minutes: held at 5
    #expect(abs(odds(5) - 0.8 * 12.0.squareRoot()) < 1e-12)
    #expect(abs(odds(nil) - 0.4) < 1e-12)  // no expiry: as 4 hours
    #expect(abs(odds(600) - 0.4) < 1e-12)
    c.alertWindowExponent = 0
    for m in [1.0, 5, 60, 240, 600] { #expect(odds(m) == 0.8) }
    #expect(odds(nil) == 0.8)
  }

  /// A participant keeps the last window's odds (a speed-up): asked about windows in any
  /// order, repeats and changes alike, they give exactly the formula's odds.
  @Test("a participant's kept odds are the formula's for every window, repeated or not")
  func keptOddsAreTheFormulas() {
    var plan = testPlan()
    plan.compliance.alertOdds = 0.9
    plan.compliance.alertWindowExponent = 0.37
    var (s, z, a) = (
      RandomStream(StreamAddress(seed: 1, participant: 0, purpose: .traits)),
      RandomStream(StreamAddress(seed: 1, participant: 0, purpose: .zone)),
      RandomStream(StreamAddress(seed: 1, participant: 0, purpose: .answering))
    )
    var noticing = Noticing(person: Person(plan: plan, stream: &s, zones: &z, answering: &a), compliance: plan.compliance)
    let windows: [SimTime?] = [
      Tick.minutes(30), Tick.minutes(30), Tick.minutes(300), Tick.minutes(240), nil, Tick.minutes(2), Tick.minutes(5),
      Tick.minutes(30), Tick.seconds(4321), Tick.seconds(4321), nil,
    ]
    for w in windows {
      #expect(noticing.alertOdds(window: w) == Noticing.alertOdds(base: 0.9, exponent: 0.37, window: w))
    }
  }

  /// `reaction_seconds`: the mean seconds from an alert heard to noticing it. With alarms
  /// heard almost always (odds 100), every willing decision opened at once and 1 s after
  /// noticing, a wait is about the exponential reaction plus a second: its median
  /// reaction × ln 2 + 1. 100 people for 7 days (about 3,000 answered prompts: the median's
  /// sampling error about 4 %): the median with a 40-s reaction within 20 % of 28.7 s (the
  /// few prompts met while driving or asleep wait longer), and more than 4 times the median
  /// with a 5-s reaction (expected 6.4).
  @Test("reaction_seconds sets the time from an alert heard to noticing it: the shortest waits follow it")
  func reactionSetsTheShortestWaits() {
    func medianWait(reaction: Double) -> Double {
      let plan = testPlan(participants: 100, expiry: .after(Tick.hour)) {
        $0.protocolPlan.alarm = true
        $0.compliance.alertOdds = 100
        $0.compliance.atOnce = 0.995
        $0.compliance.atOnceSD = 0
        $0.compliance.atOnceSeconds = 1
        $0.compliance.atOnceSigma = 0
        $0.compliance.reactionSeconds = reaction
      }
      let waits = outcomes(plan).allPrompts.filter { $0.status == .answered && $0.opened >= 0 && $0.delivered >= 0 }
        .map { Tick.inSeconds($0.opened - $0.delivered) }.sorted()
      #expect(waits.count > 2_000)
      return waits[waits.count / 2]
    }
    let slow = medianWait(reaction: 40)
    let fast = medianWait(reaction: 5)
    #expect(slow > 0.8 * (40 * log(2) + 1) && slow < 1.2 * (40 * log(2) + 1), "median \(slow) s")
    #expect(slow > 4 * fast, "medians \(slow) and \(fast) s")
  }

  /// A 5-minute study (4 a day, 200 people, 14 days): with the default exponent the alerts are
  /// noticed more often as they arrive than with 0, so more prompts are answered; the
  /// difference is more than 4 cluster-robust standard errors of either share.
  @Test("a 5-minute window is answered more with attention that follows it than with the same odds as an hour's")
  func shortWindowAnsweredMore() {
    func answered(exponent: Double) -> (share: Double, se: Double) {
      let w = try! Window(parsing: "09:00-21:00")
      let times = [600.0, 780, 960, 1140].map { ClockTime(minutes: $0) }
      let plan = testPlan(
        days: 14, participants: 200, devices: [(.nonControlled, 1)],
        schedule: ScheduleChoice(.fixedTimes, ScheduleParameters(times: times)), window: .fixed(weekday: w, weekend: w),
        expiry: .after(Tick.minutes(5))
      ) { p in
        p.compliance.dropoutPerDay = 0
        p.compliance.alertWindowExponent = exponent
      }
      return answeredShare(outcomes(plan, seed: 9))
    }
    let flat = answered(exponent: 0)
    let following = answered(exponent: CompliancePlan().alertWindowExponent)
    #expect(following.share - flat.share > 4 * max(flat.se, following.se), "exponent 0: \(flat), default: \(following)")
  }
}
