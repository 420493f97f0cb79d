import Presentation
import Study
import Scenarios
import SimKernel
import StudyModel
import Testing

@testable import Reporting

/// `aware_esm.csv` as the AWARE iOS ESM plugin stores its rows ([@AWAREiOSESM]).
@Suite("AWARE ESM rows")
struct AWARERowsTests {
  static let survey = SurveyPlan(
    id: "daily", title: "Check-in",
    items: [
      SurveyItem(id: "mood", type: 2, title: "Mood", instructions: "", options: ["good", "bad"]),
      SurveyItem(id: "tags", type: 3, title: "Tags", instructions: "", options: ["a", "b", "c", "d"]),
      SurveyItem(id: "energy", type: 4, title: "Energy", instructions: "", scale: 1...5),
      SurveyItem(id: "scale", type: 6, title: "Scale", instructions: "", scale: 10...20),
      SurveyItem(id: "note", type: 1, title: "Note", instructions: ""),
    ])

  static func prompt(_ status: PromptStatus, reported: Double = 77) -> PromptRecord {
    var p = PromptRecord(index: 0, day: 0, scheduled: Tick.hour)
    p.delivered = Tick.hour
    p.status = status
    p.closed = 2 * Tick.hour
    if status == .answered {
      p.opened = Tick.hour + Tick.minute
      p.submitted = Tick.hour + 2 * Tick.minute
      p.reported = reported
    }
    return p
  }

  static func rows(_ p: PromptRecord, os: OperatingSystem = .ios) -> [[String]] {
    var id = 0
    return AWAREESMRows.rows(p, survey: survey, os: os, deviceId: "d", time: Timestamps(start: CalendarDate(iso: "2026-01-05")!), nextId: &id)
  }

  @Test("answers by item type: radio and checkbox as option text, likert and scale in their range, text as text")
  func answersByType() throws {
    let r = Self.rows(Self.prompt(.answered))
    let answer = try #require(AWAREESMRows.header.firstIndex(of: "esmAnswer"))
    let status = try #require(AWAREESMRows.header.firstIndex(of: "esmStatus"))
    // A reported 77 of 100: the second of two options, the fourth of four, 4 of 1…5, 18 of 10…20.
    #expect(r.map { $0[answer] } == ["bad", #"["d"]"#, "4", "18", "77"])
    #expect(r.allSatisfy { $0[status] == "1" && $0[7] == "daily" })
    // The ends of the scale.
    #expect(Self.rows(Self.prompt(.answered, reported: 0)).map { $0[answer] } == ["good", #"["a"]"#, "1", "10", "0"])
    #expect(Self.rows(Self.prompt(.answered, reported: 100)).map { $0[answer] } == ["bad", #"["d"]"#, "5", "20", "100"])
  }

  @Test("a scale or likert with a step answers on its steps, never past its maximum")
  func answersOnSteps() {
    var scale = SurveyItem(id: "s", type: 6, title: "", instructions: "", scale: 0...100)
    scale.step = 25
    // 0, 25, 50, 75, 100: 77 of 100 is nearest 75; 90 nearest 100.
    #expect([0.0, 10, 77, 90, 100].map { ItemAnswers.number(scale, state: $0) } == [0, 0, 75, 100, 100])
    var likert = SurveyItem(id: "l", type: 4, title: "", instructions: "", scale: 1...6)
    likert.step = 2
    // 1, 3, 5 (the plugin's stride through 6 stops at 5).
    #expect([0.0, 50, 100].map { ItemAnswers.number(likert, state: $0) } == [1, 3, 5])
  }

  @Test("statuses as the plugin writes them: 2 dismissed, 3 expired, no row for a prompt never acted on or on Android")
  func statuses() throws {
    let status = try #require(AWAREESMRows.header.firstIndex(of: "esmStatus"))
    let answer = try #require(AWAREESMRows.header.firstIndex(of: "esmAnswer"))
    #expect(Self.rows(Self.prompt(.dismissed)).map { $0[status] } == Array(repeating: "2", count: 5))
    #expect(Self.rows(Self.prompt(.expired)).map { $0[status] } == Array(repeating: "3", count: 5))
    #expect(Self.rows(Self.prompt(.expired)).allSatisfy { $0[answer].isEmpty })
    #expect(Self.rows(Self.prompt(.undelivered)).isEmpty)
    #expect(Self.rows(Self.prompt(.answered), os: .android).isEmpty)
  }
}
