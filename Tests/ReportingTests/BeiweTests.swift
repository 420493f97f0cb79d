import Presentation
import Study
import Scenarios
import SimKernel
import StudyModel
import Testing

@testable import Reporting

/// Beiwe's survey files as its data formats define them ([@Beiwe]).
@Suite("Beiwe survey answers and timings")
struct BeiweTests {
  static let survey = SurveyPlan(
    id: "daily", title: "Daily",
    items: [
      SurveyItem(id: "mood", type: 6, title: "Mood", instructions: ""),
      SurveyItem(id: "place", type: 2, title: "Where", instructions: "", options: ["home", "work", "elsewhere"]),
      SurveyItem(id: "energy", type: 4, title: "Energy", instructions: "", scale: 1...5),
    ])
  static let time = Timestamps(start: CalendarDate(iso: "2026-01-05")!)

  /// A prompt opened at 10:00:10 whose answers take 60 s; `reached` of them before it closed.
  static func prompt(reached: Double) -> PromptRecord {
    var p = PromptRecord(index: 0, day: 0, scheduled: 10 * Tick.hour)
    p.delivered = 10 * Tick.hour
    p.opened = 10 * Tick.hour + 10 * Tick.second
    p.reported = 40
    p.reached = reached
    if reached >= 1 {
      p.status = .answered
      p.submitted = p.opened + Tick.minute
      p.closed = p.submitted
    } else {
      p.status = .expired
      p.closed = p.opened + SimTime(reached * Double(Tick.minute))
    }
    return p
  }

  @Test("a submitted survey: every question answered, options in brackets, events in order, submitted last")
  func submitted() throws {
    let p = Self.prompt(reached: 1)
    let answers = try #require(BeiweSurveys.answers(p, survey: Self.survey, os: .ios))
    #expect(answers == [
      ["mood", "slider", "Mood", "", "40"], ["place", "radio_button", "Where", "[home;work;elsewhere]", "work"],
      ["energy", "slider", "Energy", "", "3"],
    ])
    let t = BeiweSurveys.timings(p, survey: Self.survey, os: .ios, time: Self.time)
    #expect(t.first?.last == "notified" && t.last?.last == "submitted")
    #expect(t.filter { $0.last == "present" }.count == 3 && t.filter { $0.last == "unpresent" }.count == 3)
    let stamps = t.map { Int64($0[0])! }
    #expect(stamps == stamps.sorted())
    #expect(t.allSatisfy { $0.count == BeiweSurveys.timingsHeader.count })
  }

  @Test("a survey expired part way: not_presented for questions never reached, NO_ANSWER_SELECTED for the one left")
  func abandoned() throws {
    // Half-way through three questions: the first answered, the second on screen, the third never reached.
    let p = Self.prompt(reached: 0.5)
    let ios = try #require(BeiweSurveys.answers(p, survey: Self.survey, os: .ios))
    #expect(ios.map(\.last!) == ["40", "NO_ANSWER_SELECTED", "not_presented"])
    let t = BeiweSurveys.timings(p, survey: Self.survey, os: .ios, time: Self.time, expiry: .after(30 * Tick.minute))
    #expect(t.filter { $0.last == "present" }.map { $0[1] } == ["mood", "place"])
    #expect(t.last?.last == "expired")
    // not_presented is iOS's addition: Android has none.
    let android = try #require(BeiweSurveys.answers(p, survey: Self.survey, os: .android))
    #expect(!android.contains { $0.last == "not_presented" })
  }

  @Test("a survey broken off part-way: the items presented, then expired at the survey's expiry with the answers so far; with no expiry, nothing more; AWARE: every item dismissed")
  func brokenOff() throws {
    var p = Self.prompt(reached: 0.5)
    p.status = .partial
    p.reason = .brokeOff
    // With a 30-minute expiry Beiwe writes expired at delivery + 30 minutes, and the answers.
    let expiry = ExpiryPolicy.after(30 * Tick.minute)
    let t = BeiweSurveys.timings(p, survey: Self.survey, os: .ios, time: Self.time, expiry: expiry)
    #expect(t.filter { $0.last == "present" }.map { $0[1] } == ["mood", "place"])
    #expect(t.last?.last == "expired" && t.last?[0] == String(Self.time.unix(p.delivered + 30 * Tick.minute)))
    let answers = try #require(BeiweSurveys.answers(p, survey: Self.survey, os: .ios, expiry: expiry))
    #expect(answers.map(\.last!) == ["40", "NO_ANSWER_SELECTED", "not_presented"])
    // A survey that never expires stays available: no expired event, no answers file.
    #expect(BeiweSurveys.timings(p, survey: Self.survey, os: .ios, time: Self.time, expiry: .never).last?.last == "unpresent")
    #expect(BeiweSurveys.answers(p, survey: Self.survey, os: .ios, expiry: .never) == nil)
    // AWARE's form stores every item as dismissed and keeps no answer.
    var next = 0
    let rows = AWAREESMRows.rows(p, survey: Self.survey, os: .ios, deviceId: "d", time: Self.time, nextId: &next)
    let status = AWAREESMRows.header.firstIndex(of: "esmStatus")!
    let answer = AWAREESMRows.header.firstIndex(of: "esmAnswer")!
    #expect(rows.count == 3 && rows.allSatisfy { $0[status] == "2" && $0[answer].isEmpty })
  }

  @Test("Android timings: no event column, no notification row, the survey's first display, an answer row per item and the submission as Beiwe's Android app writes them; a survey never opened has no answers file")
  func androidAndUnopened() {
    let p = Self.prompt(reached: 1)
    #expect(BeiweSurveys.timingsHeader(.android) == Array(BeiweSurveys.timingsHeader.dropLast()))
    let rows = BeiweSurveys.timings(p, survey: Self.survey, os: .android, time: Self.time)
    #expect(rows.first == [String(Self.time.unix(p.opened)), "Survey first rendered and displayed to user"])
    #expect(rows.last == [String(Self.time.unix(p.submitted)), "User hit submit"])
    let answers = rows.dropFirst().dropLast()
    #expect(answers.count == Self.survey.items.count && answers.allSatisfy { $0.count == 6 && !$0[5].isEmpty })
    #expect(answers.map { $0[1] } == Self.survey.items.map(\.id))
    // Not opened: nothing (Android writes no notification row); broken off: no submission.
    var unopened = p
    unopened.opened = -1
    unopened.status = .expired
    #expect(BeiweSurveys.timings(unopened, survey: Self.survey, os: .android, time: Self.time).isEmpty)
    let half = Self.prompt(reached: 0.5)
    #expect(!BeiweSurveys.timings(half, survey: Self.survey, os: .android, time: Self.time).contains { $0.count == 2 && $0[1] == "User hit submit" })
    var never = PromptRecord(index: 1, day: 0, scheduled: 0)
    never.delivered = 0
    never.status = .expired
    never.closed = Tick.hour
    #expect(BeiweSurveys.answers(never, survey: Self.survey, os: .ios) == nil)
    #expect(
      BeiweSurveys.timings(never, survey: Self.survey, os: .ios, time: Self.time, expiry: .after(Tick.hour)).map { $0.last! } == ["notified", "expired"])
    // A survey that never expires is still open at the study's end: no expired event (it was
    // written at the study's end).
    #expect(BeiweSurveys.timings(never, survey: Self.survey, os: .ios, time: Self.time, expiry: .never).map { $0.last! } == ["notified"])
  }
}
