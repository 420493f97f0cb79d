import Foundation
import Testing

@testable import Scenarios

/// Records that read without an error and yet meant something else: a date typed wrong, the
/// same export given twice, two AWARE schedules firing together, a prompt a breath before
/// midnight. Each is now read as the platform meant it, or refused with its file and line.
@Suite("Pilot records: wrong dates, repeated files, schedules at the same time")
struct PilotRobustnessTests {
  /// Six days of one prompt at 09:00 UTC, answered a minute later.
  static let days: String = {
    let rows = (5...10).map { d in
      let day = "2026-01-" + (d < 10 ? "0" : "") + String(d)
      return "p1,\(day)T09:00:00Z,\(day)T09:01:00Z"
    }
    return (["participant,scheduled,submitted"] + rows).joined(separator: "\n") + "\n"
  }()

  static func refusal(_ text: String) -> ScenarioError? {
    do {
      _ = try PilotFormat.csv.read([("g.csv", Data(text.utf8))])
      return nil
    } catch { return error }
  }

  @Test("a time a year or more from its prompt is refused with its file and line; 8 days to a year, the prompt is left out and counted; 7 days is kept")
  func wrongDates() throws {
    let header = "participant,scheduled,delivered,opened,submitted\n"
    // An answer's year typed wrong (2099) made a 26,000-day answer window.
    let late = try #require(Self.refusal(header + "p1,,2026-01-05T09:00Z,,2026-01-05T09:01Z\np1,,2026-01-06T09:00Z,2099-01-06T09:02Z,2099-01-06T09:03Z\n"))
    #expect(late.file == "g.csv" && late.location?.line == 3 && late.message.contains("opened") && late.message.contains("is a date wrong?"), "\(late)")
    let early = try #require(Self.refusal(header + "p1,2024-06-01T09:00Z,2026-01-05T09:00Z,,\n"))
    #expect(early.location?.line == 2 && early.message.contains("scheduled 583 days before"), "\(early)")
    // An ESMira invitation that never expires, answered 9 days later: left out, said.
    let late9 = try PilotFormat.csv.read([
      ("g.csv", Data((header + "p1,,2026-01-05T09:00Z,,2026-01-14T09:00Z\np1,,2026-01-06T09:00Z,,2026-01-06T09:05Z\n").utf8))
    ])
    #expect(late9.prompts.count == 1 && late9.leftOut.values.reduce(0, +) == 1, "\(late9.leftOut)")
    // A week exactly is a prompt's own (a phone off for days, an answer until the next).
    let week = try PilotFormat.csv.read([("g.csv", Data((header + "p1,,2026-01-05T09:00Z,,2026-01-12T09:00Z\n").utf8))])
    #expect(week.prompts.count == 1 && week.prompts[0].outcome == .answered)
  }

  @Test("the same export given twice is read once and the repeats counted; a second file's own prompts are kept, and so are two unnamed surveys' unanswered prompts at the same moments")
  func repeatedFiles() throws {
    let once = try PilotFormat.csv.read([("a.csv", Data(Self.days.utf8))])
    #expect(once.prompts.count == 6)
    let twice = try PilotFormat.csv.read([("a.csv", Data(Self.days.utf8)), ("b.csv", Data(Self.days.utf8))])
    #expect(twice.prompts.map(\.shown) == once.prompts.map(\.shown))
    #expect(twice.leftOut["prompts repeating one read from an earlier file (one kept)"] == 6)
    // An overlapping export: its one new prompt is kept, the five it shares are not.
    let more = Self.days + "p1,2026-01-11T09:00:00Z,\n"
    let overlap = try PilotFormat.csv.read([("a.csv", Data(Self.days.utf8)), ("b.csv", Data(more.utf8))])
    #expect(overlap.prompts.count == 7 && overlap.leftOut.values.reduce(0, +) == 6)
    // Another participant's prompts at the same times are theirs.
    let other = Self.days.replacingOccurrences(of: "p1,", with: "p2,")
    let two = try PilotFormat.csv.read([("a.csv", Data(Self.days.utf8)), ("b.csv", Data(other.utf8))])
    #expect(two.prompts.count == 12 && two.leftOut.isEmpty)
    // Two surveys' files (Beiwe's: no questionnaire named), notified at the same moments:
    // their unanswered prompts are each survey's own; their answers differ.
    let survey = { (minute: Int) in
      (["participant,scheduled,submitted"] + (5...9).map { d in
        "p1,2026-01-0\(d)T20:00:00Z," + (d % 2 == 0 ? "2026-01-0\(d)T20:\(minute):00Z" : "")
      }).joined(separator: "\n") + "\n"
    }
    let surveys = try PilotFormat.csv.read([("a.csv", Data(survey(10).utf8)), ("b.csv", Data(survey(20).utf8))])
    #expect(surveys.prompts.count == 10 && surveys.leftOut.isEmpty, "\(surveys.leftOut)")
  }

  @Test("AWARE: two schedules notifying at the same time are two prompts (the plugin's notification is the schedule's), each with its outcome")
  func awareSchedules() throws {
    let header = "id,deviceId,timestamp,timezone,os,jsonVersion,label,scheduleId,esmTrigger,esmType,esmTitle,esmInstructions,esmAnswer,esmAnswerTime,esmStatus,esmNotificationTime"
    var rows = [header]
    for d in 0..<6 {
      let t = 1_767_600_000_000 + Int64(d) * 86_400_000
      rows.append("1,d1,\(t),0,iOS,1,x,morning,mood,6,M,,50,\(t + 60_000),1,\(t)")
      rows.append("2,d1,\(t),0,iOS,1,x,morning,mood,6,M2,,40,\(t + 70_000),1,\(t)")  // the same prompt's second item
      rows.append("3,d1,\(t),0,iOS,1,x,stress,stress,6,S,,0,0,3,\(t)")
    }
    let pilot = try PilotReaders.aware(Data(rows.joined(separator: "\n").utf8), file: "esms.csv")
    #expect(pilot.prompts.count == 12)
    #expect(pilot.prompts.filter { $0.outcome == .answered }.count == 6 && pilot.prompts.filter { $0.outcome == .expired }.count == 6)
    #expect(pilot.prompts.filter { $0.outcome == .answered }.allSatisfy { $0.submitted == $0.shown + 70_000 })
  }

  @Test("a file not in UTF-8 is refused at its first byte that is not; an m-Path beep without its participant is refused (it was participant '')")
  func encodingAndParticipant() throws {
    var latin1 = Data("participant,scheduled\np1,2026-01-05T09:00Z\nJos".utf8)
    latin1.append(0xE9)  // é in Latin-1
    latin1.append(contentsOf: Array(",2026-01-05T10:00Z\n".utf8))
    do {
      _ = try PilotFormat.csv.read([("g.csv", latin1)])
      Issue.record("accepted a Latin-1 file")
    } catch {
      #expect(error.file == "g.csv" && error.location?.line == 3 && error.location?.column == 4 && error.message.contains("UTF-8"), "\(error)")
    }
    let header = "connectionId;legacyCode;code;alias;initials;accountCode;scheduledBeepId;sentBeepId;reminderForOriginalSentBeepId;questionListName;questionListLabel;fromProtocolName;timeStampScheduled;timeStampSent;timeStampStart;timeStampStop;originalTimeStampSent;timeZoneOffset;deltaUTC"
    let row = ";;\"!abc\";;;acc;11;101;0;main;;proto;1740992400;1740992402;;;;3600;"
    do {
      _ = try PilotReaders.mpath(Data((header + "\n" + row + "\n").utf8), file: "m.csv")
      Issue.record("accepted a beep without its participant")
    } catch {
      #expect(error.key == "connectionId" && error.location?.line == 2, "\(error)")
    }
  }

  @Test("a fixed time a few seconds before midnight is proposed as 23:59, a time of its own day (it was 24:00, outside the window)")
  func beforeMidnight() {
    #expect(PilotProtocol.fixedTime([1439.8, 1439.9, 1439.7]) == 1439)
    #expect(PilotProtocol.fixedTime([540.4, 540.2, 539.9]) == 540)
    #expect(PilotProtocol.clock(PilotProtocol.fixedTime([1439.8, 1439.9])!) == "23:59")
  }
}
