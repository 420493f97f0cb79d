import Foundation
import Testing

@Suite("esmsim run with rolling enrolment")
struct EnrolmentRunTests {
  @Test("each participant's prompts fall in their own days from the date they joined, across a daylight-saving change")
  func ownDays() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let scenario = try tmp.write(
      "enrol.yaml",
      """
      name: enrolment
      start_date: 2026-03-27
      duration: 3d
      population: {size: 40, enrolment_days: 4, time_zones: {Europe/London: 1}}
      protocol:
        window: "09:00-21:00"
        schedule: {algorithm: fixed-times, times: ["10:00", "20:00"]}
        own_times: {later: 2h}
      outputs: {prompts: true, participants: true, report: false, sqlite: false}
      """)
    let out = tmp.path("out")
    let r = try ESMSimBinary.run(["run", scenario, "--output", out])
    #expect(r.status == 0, "\(r.stderr)")
    let header = try lines(out + "/participants.csv")[0].split(separator: ",").map(String.init)
    let joinedColumn = try #require(header.firstIndex(of: "joined"))
    let shiftColumn = try #require(header.firstIndex(of: "own_times_shift"))
    var joined: [String: (date: String, shift: Int)] = [:]
    for line in try lines(out + "/participants.csv").dropFirst() where !line.isEmpty {
      let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      joined[c[2]] = (c[joinedColumn], Int(c[shiftColumn])!)
    }
    // 40 participants over 4 days: every day someone joins (each day missed with chance 0.75^40).
    #expect(Set(joined.values.map(\.date)) == ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30"])
    #expect(joined.values.allSatisfy { $0.shift >= 0 && $0.shift < 120 })
    let days = ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31", "2026-04-01"]
    let promptHeader = try lines(out + "/prompts.csv")[0].split(separator: ",").map(String.init)
    let (dayColumn, scheduledColumn) = (promptHeader.firstIndex(of: "day")!, promptHeader.firstIndex(of: "scheduled")!)
    var count = 0
    for line in try lines(out + "/prompts.csv").dropFirst() where !line.isEmpty {
      let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard let own = joined[c[2]], c[scheduledColumn].count >= 16 else { continue }
      count += 1
      let date = String(c[scheduledColumn].prefix(10))
      // Study day d (from 1) of a participant is their joining date + d - 1, at 10:00 or 20:00 plus their own move.
      let d = try #require(Int(c[dayColumn]))
      #expect(days.firstIndex(of: date) == days.firstIndex(of: own.date)! + d - 1, "\(line)")
      let minute = Int(c[scheduledColumn].dropFirst(11).prefix(2))! * 60 + Int(c[scheduledColumn].dropFirst(14).prefix(2))!
      #expect(minute == 600 + own.shift || minute == 1200 + own.shift, "\(line)")
    }
    #expect(count == 40 * 3 * 2)
  }
}
