import Foundation
import Testing

@testable import Scenarios

/// The pilot readers of m-Path's per-beep export, ESMira's events and questionnaire files
/// and a generic per-prompt CSV, on the project's own fixtures (written from each
/// platform's documented format, `docs/calibration.md`), and m-Path's on mpathr's example
/// study where a copy of it is on this machine (ESMSIM_MPATHR or ESMSIM_CORPUS).
@Suite("Pilot records: m-Path, ESMira and a generic per-prompt CSV")
struct PilotFormatsTests {
  // 2025-03-03 (a Monday) 09:00 on a clock one hour east of UTC, in m-Path's seconds.
  static let nine: Int64 = 1_740_992_400
  static let mpathHeader =
    "connectionId;legacyCode;code;alias;initials;accountCode;scheduledBeepId;sentBeepId;reminderForOriginalSentBeepId;questionListName;questionListLabel;fromProtocolName;timeStampScheduled;timeStampSent;timeStampStart;timeStampStop;originalTimeStampSent;timeZoneOffset;deltaUTC;mood_sliderNegPos;company_yesno"

  /// An m-Path row: answered rows carry their answers; unanswered ones end after deltaUTC
  /// (m-Path cuts them short).
  static func beep(
    _ who: Int, scheduledId: Int, sent id: Int, reminderOf: Int = 0, list: String = "main", at t: Int64, start: Int64? = nil,
    stop: Int64? = nil
  ) -> String {
    let times = "\(t);\(t + 2);\(start.map(String.init) ?? "");\(stop.map(String.init) ?? "")"
    let head = "\(who);;\"!abc\";;;acc;\(scheduledId);\(id);\(reminderOf);\(list);;proto;\(times);\(start == nil ? "" : "0");3600;"
    return start == nil ? head : head + "0;55;\"\"\"yes\"\"\""
  }

  static let mpath: String = {
    let n = nine
    let rows = [
      beep(1, scheduledId: -1, sent: 100, list: "\"Intake questionnaire\"", at: n - 3600, start: n - 3590, stop: n - 3400),
      beep(1, scheduledId: 11, sent: 101, at: n, start: n + 60, stop: n + 90),
      beep(1, scheduledId: 12, sent: 102, at: n + 5400),
      beep(1, scheduledId: 13, sent: 103, at: n + 10800, start: n + 10900),
      beep(1, scheduledId: 12, sent: 102, at: n + 5400),
      beep(1, scheduledId: 12, sent: 104, reminderOf: 102, at: n + 6000, start: n + 6100, stop: n + 6160),
      beep(2, scheduledId: 21, sent: 201, at: n + 86_400, start: n + 86_500, stop: n + 86_560),
    ]
    return "\u{FEFF}" + ([mpathHeader] + rows).joined(separator: "\n") + "\n"
  }()

  @Test("m-Path: a prompt per scheduled beep, UTC from the local clock, partial when started and not stopped; intake, repeats and reminders counted")
  func mpathFixture() throws {
    let pilot = try PilotReaders.mpath(Data(Self.mpath.utf8), file: "basic.csv")
    #expect(pilot.prompts.count == 4)
    #expect(pilot.recording == PilotRecording(prompts: .sent, openings: true, breakOffs: true))
    let p1 = pilot.prompts.filter { $0.participant == "1" }
    #expect(p1.map(\.outcome) == [.answered, .answered, .partial])
    // 09:00 on a clock at UTC+1 is 08:00 UTC; the offset kept for local hours.
    #expect(p1[0].shown == (Self.nine + 2 - 3600) * 1000 && p1[0].scheduled == (Self.nine - 3600) * 1000)
    #expect(p1[0].opened == (Self.nine + 60 - 3600) * 1000 && p1[0].submitted == (Self.nine + 90 - 3600) * 1000)
    #expect(p1[0].utcOffsetMinutes == 60 && p1[0].questionnaire == "main")
    // The unanswered beep answered through its reminder.
    #expect(p1[1].submitted == (Self.nine + 6160 - 3600) * 1000)
    #expect(pilot.leftOut.values.reduce(0, +) == 3)
    #expect(pilot.leftOut.keys.contains { $0.contains("scheduledBeepId -1") })
    #expect(pilot.leftOut.keys.contains { $0.contains("repeating a sentBeepId") })
    #expect(pilot.leftOut.keys.contains { $0.contains("reminder") })
  }

  @Test("Break-offs are a figure of a pilot only where some survey was opened and left: records whose every opening has its answer show openings of answers only")
  func breakOffsVisible() throws {
    let pilot = try PilotReaders.mpath(Data(Self.mpath.utf8), file: "basic.csv")
    #expect(pilot.visibleRecording.breakOffs)
    var answersOnly = pilot
    answersOnly.prompts.removeAll { $0.outcome == .partial }
    #expect(answersOnly.recording.breakOffs)
    #expect(!answersOnly.visibleRecording.breakOffs)
    #expect(answersOnly.visibleRecording.openings && answersOnly.visibleRecording.prompts == .sent)
  }

  @Test("m-Path: malformed files get one located error naming the column", arguments: [
    // More than the 5 minutes of clock skew kept (Pilot.clockSkew) out of order.
    (beep(1, scheduledId: 11, sent: 101, at: nine, start: nine + 60, stop: nine - 600), "timeStampStop"),
    (beep(1, scheduledId: 11, sent: 101, at: nine, start: nine - 600, stop: nine + 30), "timeStampStart"),
    (beep(1, scheduledId: 11, sent: 101, at: nine * 1000), "timeStampSent"),
    (beep(1, scheduledId: 11, sent: 101, at: nine).replacingOccurrences(of: ";3600;", with: ";99999;"), "timeZoneOffset"),
    (beep(1, scheduledId: 11, sent: 101, at: nine) + ";1;2;3", ""),
  ])
  func mpathMalformed(_ row: String, _ key: String) {
    #expect {
      try PilotReaders.mpath(Data((Self.mpathHeader + "\n" + row + "\n").utf8), file: "basic.csv")
    } throws: { error in
      guard let e = error as? ScenarioError else { return false }
      return e.file == "basic.csv" && e.key == key && e.location?.line == 2
    }
  }

  @Test("m-Path's meta file is recognised and skipped, counted")
  func mpathMeta() throws {
    let meta = "\u{FEFF}columnName;fullQuestion;typeQuestion;typeAnswer;fullQuestion_mixed;typeQuestion_mixed;typeAnswer_mixed\nmood_sliderNegPos;\"How do you feel?\";sliderNegPos;int;0;0;0\n"
    let pilot = try PilotFormat.mpath.read([("meta.csv", Data(meta.utf8)), ("basic.csv", Data(Self.mpath.utf8))])
    #expect(pilot.prompts.count == 4 && pilot.leftOut.keys.contains { $0.contains("meta") })
  }

  /// mpathr's example study (GPL; read, never copied into esmsim), where a copy is on this
  /// machine: `$ESMSIM_MPATHR` (the file), else the real-studies corpus'
  /// `$ESMSIM_CORPUS/mpathr_example/example_basic.csv` (validation/real/README.md).
  static var mpathr: String? {
    let env = ProcessInfo.processInfo.environment
    let candidates = [env["ESMSIM_MPATHR"], env["ESMSIM_CORPUS"].map { $0 + "/mpathr_example/example_basic.csv" }]
    return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0) }
  }

  @Test(
    "m-Path: mpathr's example study reads as 20 participants, 2,200 beeps (2,000 main: 1,251 answered), and its protocol is found",
    .enabled(if: mpathr != nil, "mpathr's example study is not on this machine (set ESMSIM_MPATHR or ESMSIM_CORPUS)"))
  func mpathrExample() throws {
    let data = try #require(FileManager.default.contents(atPath: Self.mpathr!))
    let pilot = try PilotReaders.mpath(data, file: "example_basic.csv")
    #expect(Set(pilot.prompts.map(\.participant)).count == 20)
    #expect(pilot.prompts.count == 2_200)
    let main = pilot.prompts.filter { $0.questionnaire == "main_questionnaire" }
    #expect(main.count == 2_000 && main.filter { $0.outcome == .answered }.count == 1_251)
    #expect(pilot.prompts.filter { $0.outcome == .partial }.isEmpty)
    #expect(pilot.leftOut.values.reduce(0, +) == 21)  // 20 intakes, one repeated row
    let proposal = PilotProtocol(pilot)
    #expect(proposal.yaml.contains("{algorithm: buffered-blocks, per_day: 10, buffer: 0.167}, window: \"07:15-22:15\", expiry: 30m"))
    #expect(proposal.yaml.contains("{algorithm: fixed-times, times: [\"22:10\"]}"))
    #expect(proposal.yaml.contains("duration: 10d"))
    // The proposal is a scenario esmsim runs.
    _ = try Readers.scenario(Data(proposal.yaml.utf8), file: "proposed.yaml")
  }

  // ESMira: every field quoted, semicolons, times in milliseconds.
  static let t1: Int64 = 1_740_988_800_000  // 2025-03-03 08:00 UTC
  static func esmiraRow(_ fields: [String]) -> String { "\"" + fields.joined(separator: "\";\"") + "\"" }
  static let events: String = {
    let h = ["entryId", "userId", "uploaded", "appType", "questionnaireName", "eventType", "timezoneOffset", "responseTime", "actionScheduledTo"]
    let rows = [
      ["1", "u1", "0", "Android", "", "joined", "3600000", "\(t1 - 1000)", ""],
      ["2", "u1", "0", "Android", "Daily", "invitation", "3600000", "\(t1)", "\(t1)"],
      ["3", "u1", "0", "Android", "Daily", "invitation", "3600000", "\(t1)", "\(t1)"],
      ["4", "u1", "0", "Android", "Daily", "invitation", "3600000", "\(t1 + 3_600_000)", "\(t1 + 3_600_000)"],
      ["5", "u1", "0", "Android", "Daily", "invitation", "3600000", "\(t1 + 7_200_000)", "\(t1 + 7_200_000)"],
    ]
    return ([h] + rows).map(esmiraRow).joined(separator: "\n")
  }()
  static let daily: String = {
    let h = ["entryId", "userId", "questionnaireName", "eventType", "timezoneOffset", "responseTime", "formDuration", "lastInvitation", "mood"]
    let rows = [
      ["6", "u1", "Daily", "questionnaire", "3600000", "\(t1 + 120_000)", "30000", "\(t1)", "5"],
      ["7", "u1", "Daily", "questionnaire", "3600000", "\(t1 + 3_700_000)", "20000", "\(t1 + 3_600_005)", "4"],
      ["8", "u1", "Daily", "questionnaire", "3600000", "\(t1 + 9_000_000)", "20000", "0", "3"],
    ]
    return ([h] + rows).map(esmiraRow).joined(separator: "\n")
  }()

  @Test("ESMira: a prompt per invitation, answered by the questionnaire that names it (or the latest before), opened formDuration before")
  func esmiraFixture() throws {
    let pilot = try PilotReaders.esmira([("events.csv", Data(Self.events.utf8)), ("1234.csv", Data(Self.daily.utf8))])
    #expect(pilot.prompts.map(\.outcome) == [.answered, .answered, .unanswered])
    #expect(pilot.prompts[0].opened == Self.t1 + 90_000 && pilot.prompts[0].submitted == Self.t1 + 120_000)
    #expect(pilot.prompts[1].submitted == Self.t1 + 3_700_000 && pilot.prompts[0].utcOffsetMinutes == 60)
    #expect(pilot.recording == PilotRecording(prompts: .shown, openings: true, breakOffs: false))
    #expect(pilot.leftOut.keys.contains { $0.contains("joined") })
    #expect(pilot.leftOut.keys.contains { $0.contains("repeated") })
    #expect(pilot.leftOut.keys.contains { $0.contains("lastInvitation 0") })
    #expect(pilot.adjusted.isEmpty)
    // An answer 2 minutes before its invitation (the clocks apart) is kept at the invitation
    // and counted, as in the other formats; 6 minutes is refused.
    for (early, kept) in [(120_000, true), (360_000, false)] {
      let moved = Self.daily.replacingOccurrences(of: "\"\(Self.t1 + 120_000)\";\"30000\"", with: "\"\(Self.t1 - Int64(early))\";\"30000\"")
      #expect(moved != Self.daily)
      let read = Result { try PilotReaders.esmira([("events.csv", Data(Self.events.utf8)), ("1234.csv", Data(moved.utf8))]) }
      if kept {
        let p = try read.get()
        #expect(p.prompts[0].submitted == Self.t1 && p.prompts[0].opened == Self.t1)
        #expect(p.adjusted.keys.contains { $0.hasPrefix("answers up to 5 minutes before their prompt") }, "\(p.adjusted)")
      } else {
        #expect(throws: ScenarioError.self) { try read.get() }
      }
    }
  }

  /// iOS: a notification is recorded only when the app later runs (actions_executed on a tap);
  /// the ones ignored only as invitation_missed, off by default.
  @Test("ESMira iOS: invitation_missed is a prompt not answered; a study uploading none has its iPhones left out and said; only iPhones: refused")
  func esmiraIOS() throws {
    func row(_ id: Int, _ user: String, _ type: String, _ at: Int64, app: String = "iOS") -> [String] {
      [String(id), user, "0", app, "Daily", type, "3600000", "\(at + 60_000)", "\(at)"]
    }
    let h = ["entryId", "userId", "uploaded", "appType", "questionnaireName", "eventType", "timezoneOffset", "responseTime", "actionScheduledTo"]
    let t1 = Self.t1
    let a = [row(1, "a", "actions_executed", t1), row(2, "a", "invitation_missed", t1 + 3_600_000), row(3, "a", "actions_executed", t1 + 7_200_000)]
    let b = [row(4, "b", "actions_executed", t1), row(5, "b", "actions_executed", t1 + 7_200_000)]
    let c = [row(6, "c", "invitation", t1, app: "Android"), row(7, "c", "invitation", t1 + 7_200_000, app: "Android")]
    func read(_ rows: [[String]]) throws -> Pilot {
      try PilotReaders.esmira([("events.csv", Data(([h] + rows).map(Self.esmiraRow).joined(separator: "\n").utf8))])
    }
    // The study uploads invitation_missed (a has one): every iPhone kept, a's missed prompt unanswered.
    let on = try read(a + b)
    #expect(on.prompts.map(\.participant).sorted() == ["a", "a", "a", "b", "b"])
    #expect(!on.leftOut.keys.contains { $0.contains("invitation_missed") })
    // With it every signal has a record (a dead phone's too): the prompts sent; without, shown.
    #expect(on.recording.prompts == .sent)
    // It does not: the iPhones left out and counted, the Android phone kept.
    let off = try read(b + c)
    #expect(off.prompts.map(\.participant) == ["c", "c"] && off.recording.prompts == .shown)
    #expect(off.leftOut.first { $0.key.contains("invitation_missed") }?.value == 1, "\(off.leftOut)")
    // Only iPhones without it: refused with the reason.
    #expect {
      try read(b)
    } throws: { ($0 as? ScenarioError)?.key == "eventType" && ($0 as? ScenarioError)?.message.contains("iOS") == true }
  }

  @Test("ESMira: questionnaire files without events.csv, or events without invitations, are refused by name")
  func esmiraRefused() {
    #expect {
      try PilotReaders.esmira([("1234.csv", Data(Self.daily.utf8))])
    } throws: { ($0 as? ScenarioError)?.file == "1234.csv" && ($0 as? ScenarioError)?.key == "events.csv" }
    let none = Self.events.split(separator: "\n").prefix(2).joined(separator: "\n")
    #expect {
      try PilotReaders.esmira([("events.csv", Data(none.utf8))])
    } throws: { ($0 as? ScenarioError)?.key == "eventType" }
    #expect {
      try PilotReaders.esmira([("other.csv", Data("a;b\n1;2\n".utf8))])
    } throws: { ($0 as? ScenarioError)?.file == "other.csv" }
    let bad = Self.events.replacingOccurrences(of: "\"\(Self.t1 + 7_200_000)\"", with: "\"tomorrow\"")
    #expect {
      try PilotReaders.esmira([("events.csv", Data(bad.utf8))])
    } throws: { ($0 as? ScenarioError)?.key == "actionScheduledTo" && ($0 as? ScenarioError)?.location?.line == 6 }
  }

  static let generic = """
    pid,survey,planned,sent,start,end
    a,morning,2025-03-03T09:00:00+01:00,2025-03-03T09:00:05+01:00,2025-03-03T09:01:00+01:00,2025-03-03T09:02:00+01:00
    a,morning,2025-03-04 09:00,,,
    a,evening,1741111200,1741111201000,1741111300,
    b,morning,2025-03-03T08:00:00Z,,,
    """

  @Test("generic CSV: columns mapped, ISO 8601 with or without an offset, seconds or milliseconds; the participants' clock")
  func genericFixture() throws {
    let columns = PilotColumns(
      names: try PilotColumns.mapping(["questionnaire=survey", "scheduled=planned", "delivered=sent", "opened=start", "submitted=end", "participant=pid"]),
      clock: .zone("Europe/Brussels"))
    let pilot = try PilotReaders.generic(Data(Self.generic.utf8), file: "pilot.csv", columns: columns)
    #expect(pilot.prompts.count == 4)
    let a = pilot.prompts.filter { $0.participant == "a" }
    #expect(a.map(\.outcome) == [.answered, .unanswered, .partial])
    #expect(a[0].scheduled == Self.t1 && a[0].shown == Self.t1 + 5000 && a[0].submitted == Self.t1 + 120_000)
    // A local time without an offset is on the participants' clock (Brussels, UTC+1 in March).
    #expect(a[1].shown == Self.t1 + 86_400_000 && a[1].utcOffsetMinutes == 60)
    #expect(a[2].shown == 1_741_111_201_000 && a[2].scheduled == 1_741_111_200_000 && a[2].opened == 1_741_111_300_000)
    #expect(pilot.recording.openings && pilot.recording.breakOffs)
    // Without a clock, an ISO time's own offset is the participant's.
    let plain = try PilotReaders.generic(
      Data(Self.generic.utf8), file: "pilot.csv",
      columns: PilotColumns(names: try PilotColumns.mapping(["scheduled=planned", "participant=pid"])))
    #expect(plain.prompts.first { $0.participant == "a" }!.utcOffsetMinutes == 60)
    #expect(!plain.recording.openings)
    // A time's own offset wins over the clock given (a participant abroad: +09:00 was read
    // as Brussels' +01:00); a Z time is read on the clock given, UTC without one.
    let abroad = Self.generic.replacingOccurrences(of: "2025-03-03T09:00:00+01:00", with: "2025-03-03T17:00:00+09:00")
      .replacingOccurrences(of: "2025-03-03T09:00:05+01:00", with: "2025-03-03T17:00:05+09:00")
    let mixed = try PilotReaders.generic(Data(abroad.utf8), file: "pilot.csv", columns: columns)
    #expect(mixed.prompts.first { $0.participant == "a" }!.utcOffsetMinutes == 540)
    #expect(pilot.prompts.first { $0.participant == "b" }!.utcOffsetMinutes == 60)
    #expect(plain.prompts.first { $0.participant == "b" }!.utcOffsetMinutes == 0)
    // A row repeated exactly (an export appended twice) is one prompt, the repeat counted;
    // a row that differs (another answer time) is a prompt of its own.
    let rows = Self.generic.split(separator: "\n").map(String.init)
    let twice = (rows + [rows[1], rows[4], rows[1].replacingOccurrences(of: "09:02:00", with: "09:03:00")]).joined(separator: "\n")
    let deduplicated = try PilotReaders.generic(Data(twice.utf8), file: "pilot.csv", columns: columns)
    #expect(deduplicated.prompts.count == 5)
    #expect(deduplicated.leftOut == ["rows repeating an earlier row exactly (one kept)": 2])
  }

  @Test("a proposal from records with nothing opened or answered says its expiry is assumed (it read like a measured 30.0 minutes)")
  func proposalWithoutWaits() throws {
    let rows = (0..<4).flatMap { d in ["a", "b"].map { "\($0),2026-01-0\(5 + d)T09:00:00" } }
    let pilot = try PilotReaders.generic(Data((["participant,scheduled"] + rows).joined(separator: "\n").utf8), file: "p.csv", columns: PilotColumns(names: [:]))
    let notes = PilotProtocol(pilot).notes.joined(separator: "\n")
    #expect(notes.contains("answerable for 30 minutes (an assumption: no prompt was answered"), "\(notes)")
    #expect(!notes.contains("the longest time to"))
  }

  @Test("prompts outside the proposed window are counted in the proposal's notes (they fed the fit unsaid)")
  func promptsOutsideTheWindow() throws {
    // Four a day at 09, 12, 15 and 18 for 6 participants over 5 days; one also at 23:00.
    var rows: [String] = []
    for who in ["a", "b", "c", "d", "e", "f"] {
      for d in 0..<5 {
        for h in [9, 12, 15, 18] { rows.append("\(who),2026-01-0\(5 + d)T\(h < 10 ? "0" : "")\(h):00:00") }
        if who == "a" { rows.append("a,2026-01-0\(5 + d)T23:00:00") }
      }
    }
    let pilot = try PilotReaders.generic(
      Data((["participant,scheduled"] + rows).joined(separator: "\n").utf8), file: "p.csv", columns: PilotColumns(names: [:]))
    let notes = PilotProtocol(pilot).notes.joined(separator: "\n")
    #expect(notes.contains("5 of 125 prompts (4.0 %) fall outside 09:00-18:05"), "\(notes)")
  }

  @Test("generic CSV: bad times, a missing time column, a blank participant and impossible orders are refused with the line and column")
  func genericMalformed() {
    let columns = PilotColumns(names: ["participant": "pid", "scheduled": "planned", "opened": "start"])
    let cases: [(String, String, Int)] = [
      ("pid,planned,start\na,yesterday,\n", "planned", 2),
      ("pid,planned,start\na,2025-02-30T09:00,\n", "planned", 2),
      ("pid,planned,start\na,1900-01-01T00:00Z,\n", "planned", 2),
      ("pid,planned,start\na,2025-03-03T09:00Z,2025-03-03T08:50Z\n", "start", 2),
      // A column mapped by name and missing: its role was read as never recorded.
      ("pid,planned\na,2025-03-03T09:00Z\n", "--column opened=start", 1),
      ("pid,when,start\na,2025-03-03T09:00Z,\n", "--column scheduled=planned", 1),
      ("pid,planned,start\na,,\n", "planned", 2),
      // A blank participant was read as one more participant.
      ("pid,planned,start\na,2025-03-03T09:00Z,\n ,2025-03-03T10:00Z,\n", "pid", 3),
    ]
    for (text, key, line) in cases {
      #expect {
        try PilotReaders.generic(Data(text.utf8), file: "g.csv", columns: columns)
      } throws: { error in
        guard let e = error as? ScenarioError else { return false }
        return e.file == "g.csv" && e.key == key && e.location?.line == line
      }
    }
    #expect(throws: ScenarioError.self) { try PilotColumns.mapping(["colour=red"]) }
    #expect(throws: ScenarioError.self) { try PilotColumns.mapping(["participant=a", "participant=b"]) }
  }

  @Test("times: ISO 8601's forms, unix seconds and milliseconds, and local times across a daylight-saving change")
  func times() {
    #expect(PilotTime.parse("2025-03-03T08:00:00Z")?.milliseconds == Self.t1)
    #expect(PilotTime.parse("2025-03-03 09:00:00.250+0100")?.milliseconds == Self.t1 + 250)
    #expect(PilotTime.parse("2025-03-03T10:00+02")?.milliseconds == Self.t1)
    #expect(PilotTime.parse("1740988800")?.milliseconds == Self.t1)
    #expect(PilotTime.parse("1740988800000")?.milliseconds == Self.t1)
    #expect(PilotTime.parse("2025-03-03T08:00")?.local == true)
    for bad in ["2025-13-01T00:00", "2025-03-03", "2025-03-03T25:00", "03/03/2025 08:00", "2025-03-03T08:00+15:00", "nan", ""] {
      #expect(PilotTime.parse(bad) == nil, "\(bad)")
    }
    // Brussels: 2025-03-30 02:00 CET became 03:00 CEST.
    let brussels = PilotClock.zone("Europe/Brussels")
    let before = PilotTime.parse("2025-03-29T12:00")!.milliseconds
    let after = PilotTime.parse("2025-03-30T12:00")!.milliseconds
    #expect(brussels.utc(ofLocal: before) == before - 3_600_000)
    #expect(brussels.utc(ofLocal: after) == after - 7_200_000)
  }
}
