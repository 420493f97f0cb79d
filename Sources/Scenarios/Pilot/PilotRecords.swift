import Foundation

/// A pilot study's prompts as its platform recorded them: the input of `esmsim calibrate`.
/// Read from AWARE `esms` rows ([@AWAREiOSESM]: a row per item, `esmStatus` 1 answered,
/// 2 dismissed, 3 expired) or Beiwe's iOS survey timings ([@Beiwe]: `notified`, `present`,
/// `submitted`, `expired` events).
public struct PilotPrompt: Sendable, Equatable {
  /// What became of the prompt.
  public enum Outcome: String, Sendable, CaseIterable {
    case answered, dismissed, expired
    /// Shown, and no outcome recorded before the next prompt (Beiwe without an expiry).
    case unanswered
  }

  /// The participant (AWARE's device id; Beiwe's folder).
  public var participant: String
  /// When the notification was shown, milliseconds since 1970 (UTC).
  public var shown: Int64
  /// The participant's clock's offset from UTC then, minutes.
  public var utcOffsetMinutes: Int
  public var outcome: Outcome
  /// When the survey was first on screen (Beiwe), and when it was submitted; nil if not.
  public var opened: Int64?
  public var submitted: Int64?
  /// Where the prompt was read: the file and the line of its first record.
  public var file: String
  public var line: Int

  public init(
    participant: String, shown: Int64, utcOffsetMinutes: Int, outcome: Outcome, opened: Int64? = nil, submitted: Int64? = nil,
    file: String = "", line: Int = 0
  ) {
    self.participant = participant
    self.shown = shown
    self.utcOffsetMinutes = utcOffsetMinutes
    self.outcome = outcome
    self.opened = opened
    self.submitted = submitted
    self.file = file
    self.line = line
  }
}

/// A pilot's prompts, in order of participant and time, and what the readers left out (by
/// reason, with counts: never dropped silently).
public struct Pilot: Sendable {
  public var prompts: [PilotPrompt] = []
  public var leftOut: [String: Int] = [:]

  public init() {}

  mutating func sort() {
    prompts.sort { ($0.participant, $0.shown) < ($1.participant, $1.shown) }
  }

  /// Several files' prompts and what they left out, in order.
  public init(merging parts: [Pilot]) {
    for p in parts {
      prompts += p.prompts
      for (reason, n) in p.leftOut { leftOut[reason, default: 0] += n }
    }
    sort()
  }

  /// The most prompts and participants a pilot may hold, and the longest a participant's
  /// prompts may span: a pilot, not a cohort (each is simulated several times over).
  public static let maxPrompts = 2_000_000
  public static let maxParticipants = 100_000
  public static let maxSpanDays = 366

  /// Refuses a pilot beyond the limits above, naming the file and line where it passes them.
  public func checkLimits() throws(ScenarioError) {
    if prompts.count > Self.maxPrompts {
      let p = prompts[Self.maxPrompts]
      throw ScenarioError(file: p.file, at: .init(line: p.line, column: 1), "more than \(Self.maxPrompts) prompts; a pilot has at most that many")
    }
    var first = 0
    var people = 0
    while first < prompts.count {
      var last = first
      while last + 1 < prompts.count && prompts[last + 1].participant == prompts[first].participant { last += 1 }
      people += 1
      if people > Self.maxParticipants {
        throw ScenarioError(
          file: prompts[first].file, at: .init(line: prompts[first].line, column: 1),
          "more than \(Self.maxParticipants) participants; a pilot has at most that many")
      }
      let (a, b) = (prompts[first], prompts[last])
      let days = (b.shown - a.shown) / 86_400_000
      if days >= Self.maxSpanDays {
        throw ScenarioError(
          file: b.file, at: .init(line: b.line, column: 1),
          "participant \(b.participant.prefix(40))'s prompts span \(days) days (from \(a.file) line \(a.line) to this one); a pilot spans at most \(Self.maxSpanDays) days: is a date wrong?")
      }
      first = last + 1
    }
  }

  /// Timestamps a pilot's records may hold: 2000-01-01 up to 2100-01-01 (milliseconds since
  /// 1970, UTC): outside, a clock or a unit is wrong.
  static let times: ClosedRange<Int64> = 946_684_800_000...4_102_444_800_000
}

/// The pilot readers.
public enum PilotReaders {
  /// AWARE `esms` rows (a CSV export of the table): one prompt per device and notification
  /// time, its outcome the rows' `esmStatus` (an answered item makes it answered).
  /// `timezone` is read as hours when within ±14, otherwise as seconds. Rows of status 0
  /// (new: never acted on) are left out and counted.
  public static func aware(_ data: Data, file: String) throws(ScenarioError) -> Pilot {
    let csv = try CSVText(data, file: file)
    let (device, zone, status, shownAt, answerAt) = (
      try csv.column("deviceId"), try csv.column("timezone"), try csv.column("esmStatus"),
      try csv.column("esmNotificationTime"), try csv.column("esmAnswerTime")
    )
    var byPrompt: [String: Int] = [:]
    var pilot = Pilot()
    for r in csv.records {
      let code = try csv.integer(r[status], "esmStatus")
      let outcome: PilotPrompt.Outcome
      switch code {
      case 0:
        pilot.leftOut["esmStatus 0 (new: never acted on)", default: 0] += 1
        continue
      case 1: outcome = .answered
      case 2: outcome = .dismissed
      case 3: outcome = .expired
      default:
        throw ScenarioError(
          file: file, key: "esmStatus", at: .init(line: r[status].line, column: r[status].column),
          "expected 0 (new), 1 (answered), 2 (dismissed) or 3 (expired), found \(code)")
      }
      let shown = try csv.time(r[shownAt], "esmNotificationTime", in: Pilot.times)
      let z = try csv.integer(r[zone], "timezone")
      guard abs(z) <= 14 * 3600 else {
        throw ScenarioError(
          file: file, key: "timezone", at: .init(line: r[zone].line, column: r[zone].column),
          "expected an offset from UTC in hours (or seconds), found \(z)")
      }
      let offset = abs(z) <= 14 ? Int(z) * 60 : Int(z) / 60
      let answered = outcome == .answered ? try csv.time(r[answerAt], "esmAnswerTime", in: Pilot.times) : nil
      if let a = answered, a < shown {
        throw ScenarioError(
          file: file, key: "esmAnswerTime", at: .init(line: r[answerAt].line, column: r[answerAt].column),
          "answered (\(a)) before its notification (\(shown), esmNotificationTime)")
      }
      let key = r[device].text + "\u{1F}" + String(shown)
      if let k = byPrompt[key] {
        // Another item of the same prompt: answered wins over dismissed over expired (the
        // cases' order).
        let order = PilotPrompt.Outcome.allCases
        if order.firstIndex(of: outcome)! < order.firstIndex(of: pilot.prompts[k].outcome)! {
          pilot.prompts[k].outcome = outcome
        }
        if let a = answered { pilot.prompts[k].submitted = max(pilot.prompts[k].submitted ?? a, a) }
      } else {
        byPrompt[key] = pilot.prompts.count
        pilot.prompts.append(
          PilotPrompt(
            participant: r[device].text, shown: shown, utcOffsetMinutes: offset, outcome: outcome, submitted: answered, file: file,
            line: r[device].line))
      }
    }
    pilot.sort()
    return pilot
  }

  /// One participant's Beiwe survey timings on iOS (with the `event` column): a prompt per
  /// `notified`, opened at its first `present`, ending at `submitted` or `expired` (or with
  /// none before the next `notified`: `unanswered`); the rows of each survey follow its
  /// `notified`. Beiwe writes UTC timestamps; the
  /// participant's offset from UTC is `utcOffsetMinutes`.
  public static func beiweTimings(
    _ data: Data, file: String, participant: String, utcOffsetMinutes: Int = 0
  ) throws(ScenarioError) -> Pilot {
    let csv = try CSVText(data, file: file)
    let time = try csv.column("timestamp")
    guard csv.header.contains("event") else {
      throw ScenarioError(
        file: file, key: "event", at: .init(line: 1, column: 1),
        "Beiwe's Android survey timings have no event column, so one survey cannot be told from the next: use the iOS files")
    }
    let event = try csv.column("event")
    var pilot = Pilot()
    var current: PilotPrompt?
    func close() {
      if let c = current { pilot.prompts.append(c) }
      current = nil
    }
    for r in csv.records {
      let t = try csv.time(r[time], "timestamp", in: Pilot.times)
      // A survey's events follow its notification (a file may hold several surveys, each
      // from its notified on, as esmsim writes them; Beiwe writes one file per survey).
      if r[event].text != "notified", let c = current, t < c.shown {
        throw ScenarioError(
          file: file, key: "timestamp", at: .init(line: r[time].line, column: r[time].column),
          "an event before its survey's notification")
      }
      switch r[event].text {
      case "notified":
        close()
        current = PilotPrompt(
          participant: participant, shown: t, utcOffsetMinutes: utcOffsetMinutes, outcome: .unanswered, file: file, line: r[time].line)
      case "present", "changed", "unpresent":
        guard current != nil else {
          throw ScenarioError(
            file: file, key: "event", at: .init(line: r[event].line, column: r[event].column), "\(r[event].text) before any notified")
        }
        if current!.opened == nil { current!.opened = t }
      case "submitted", "expired":
        guard current != nil else {
          throw ScenarioError(
            file: file, key: "event", at: .init(line: r[event].line, column: r[event].column), "\(r[event].text) before any notified")
        }
        current!.outcome = r[event].text == "submitted" ? .answered : .expired
        if current!.outcome == .answered { current!.submitted = t }
        close()
      default:
        throw ScenarioError(
          file: file, key: "event", at: .init(line: r[event].line, column: r[event].column),
          "expected notified, present, changed, unpresent, submitted or expired, found '\(r[event].text.prefix(40))'")
      }
    }
    close()
    pilot.sort()
    return pilot
  }
}
