import Foundation

/// A pilot study's prompts as its platform recorded them: the input of `esmsim calibrate`.
/// Read from AWARE `esms` rows ([@AWAREiOSESM]: a row per item, `esmStatus` 1 answered,
/// 2 dismissed, 3 expired), Beiwe's iOS survey timings ([@Beiwe]: `notified`, `present`,
/// `submitted`, `expired` events), m-Path's per-beep export ([@mpathr]), ESMira's
/// events.csv with its questionnaire files ([@ESMiraWeb]) or a generic per-prompt CSV.
public struct PilotPrompt: Sendable, Equatable {
  /// What became of the prompt.
  public enum Outcome: String, Sendable, CaseIterable {
    case answered, dismissed, expired
    /// Shown, and no outcome recorded before the next prompt (Beiwe without an expiry), or
    /// never opened (m-Path, ESMira, a generic file).
    case unanswered
    /// Opened and not submitted: broken off, or closed while being answered.
    case partial
  }

  /// The participant (AWARE's device id; Beiwe's folder; m-Path's connectionId; ESMira's
  /// userId).
  public var participant: String
  /// The questionnaire it opened (empty when the platform does not say).
  public var questionnaire = ""
  /// When the notification was shown (or sent), milliseconds since 1970 (UTC).
  public var shown: Int64
  /// When the schedule planned it, when the records say (milliseconds since 1970, UTC).
  public var scheduled: Int64?
  /// The participant's clock's offset from UTC then, minutes.
  public var utcOffsetMinutes: Int
  public var outcome: Outcome
  /// When the survey was first on screen, and when it was submitted; nil if not (or not
  /// recorded).
  public var opened: Int64?
  public var submitted: Int64?
  /// Where the prompt was read: the file and the line of its first record.
  public var file: String
  public var line: Int

  public init(
    participant: String, shown: Int64, utcOffsetMinutes: Int, outcome: Outcome, opened: Int64? = nil, submitted: Int64? = nil,
    questionnaire: String = "", scheduled: Int64? = nil, file: String = "", line: Int = 0
  ) {
    self.participant = participant
    self.questionnaire = questionnaire
    self.shown = shown
    self.scheduled = scheduled
    self.utcOffsetMinutes = utcOffsetMinutes
    self.outcome = outcome
    self.opened = opened
    self.submitted = submitted
    self.file = file
    self.line = line
  }

  /// The moment the prompt belongs to: when it was planned, or else shown.
  public var planned: Int64 { scheduled ?? shown }

  /// Its times other than when it was shown, named.
  var otherTimes: [(String, Int64?)] { [("scheduled", scheduled), ("opened", opened), ("answered", submitted)] }
}

/// What a platform's records hold, so that a simulation of the pilot counts the same prompts
/// and reads the same times.
public struct PilotRecording: Sendable, Equatable {
  /// Which prompts have a record.
  public enum Prompts: String, Sendable {
    /// Every prompt the schedule sent, whether the phone showed it or not (m-Path, a generic
    /// file).
    case sent
    /// The prompts the phone showed (Beiwe's `notified`, ESMira's invitation events).
    case shown
    /// iPhones' prompts the participant acted on or that expired (AWARE's esms rows).
    case actedOnIPhones
  }

  public var prompts: Prompts
  /// Whether the moment a survey was opened is recorded for answered prompts.
  public var openings: Bool
  /// Whether a survey opened and not submitted is recorded (a break-off can be seen).
  public var breakOffs: Bool
  /// The records hold only the participants who answered at least this share of their
  /// prompts (a study that left out, or never published, those who answered less); nil: every
  /// participant. A simulation of the pilot keeps the same participants
  /// (`esmsim calibrate --kept-at-least`).
  public var keptAtLeast: Double?

  public init(prompts: Prompts, openings: Bool, breakOffs: Bool, keptAtLeast: Double? = nil) {
    self.prompts = prompts
    self.openings = openings
    self.breakOffs = breakOffs
    self.keptAtLeast = keptAtLeast
  }
}

/// A pilot's prompts, in order of participant and time, and what the readers left out (by
/// reason, with counts: never dropped silently).
public struct Pilot: Sendable {
  public var prompts: [PilotPrompt] = []
  public var leftOut: [String: Int] = [:]
  /// What the readers kept but changed, by reason, with counts (said as warnings).
  public var adjusted: [String: Int] = [:]
  /// What the platform records (the readers set it).
  public var recording = PilotRecording(prompts: .shown, openings: false, breakOffs: false)

  public init() {}

  /// What the records can show: the platform's ``recording``, except that break-offs count as
  /// recorded only when some survey was opened and not submitted. Records whose every opening
  /// has its answer record openings of answers only (a survey left part-way leaves no
  /// record, or none that was read): their zero break-offs are not a figure.
  public var visibleRecording: PilotRecording {
    var r = recording
    if r.breakOffs && !prompts.contains(where: { $0.outcome == .partial }) { r.breakOffs = false }
    return r
  }

  mutating func sort() {
    prompts.sort { ($0.participant, $0.shown) < ($1.participant, $1.shown) }
  }

  /// Several files' prompts and what they left out, in order. A prompt that repeats one of
  /// an earlier file in everything but where it was read (the same export given twice, or
  /// two exports that overlap) is one prompt: kept once, the repeats counted in ``leftOut``.
  /// A prompt is taken for a repeat only where it could not be another: it names its
  /// questionnaire, or was opened or answered (times to the millisecond), or its file repeats
  /// an earlier one's (half or more of the file's opened or answered prompts do). Two surveys
  /// notified at the same moment, unanswered and unnamed (Beiwe's files, a survey each), stay
  /// two prompts.
  public init(merging parts: [Pilot]) {
    if let first = parts.first { recording = first.recording }
    struct Same: Hashable {
      let participant, questionnaire: String
      let shown: Int64, scheduled, opened, submitted: Int64?
      let offset: Int, outcome: PilotPrompt.Outcome
      init(_ p: PilotPrompt) {
        (participant, questionnaire, shown, scheduled) = (p.participant, p.questionnaire, p.shown, p.scheduled)
        (opened, submitted, offset, outcome) = (p.opened, p.submitted, p.utcOffsetMinutes, p.outcome)
      }
    }
    // The most copies of a prompt any one earlier file held: a file's own copies beyond them
    // are prompts of its own.
    var earlier: [Same: Int] = [:]
    for p in parts {
      var here: [Same: Int] = [:]
      let distinctive = p.prompts.filter { $0.opened != nil || $0.submitted != nil }
      let repeated = distinctive.filter { earlier[Same($0)] != nil }.count
      let copy = !distinctive.isEmpty && 2 * repeated >= distinctive.count
      for prompt in p.prompts {
        let key = Same(prompt)
        here[key, default: 0] += 1
        let known = copy || !prompt.questionnaire.isEmpty || prompt.opened != nil || prompt.submitted != nil
        if known && here[key]! <= earlier[key, default: 0] {
          leftOut["prompts repeating one read from an earlier file (one kept)", default: 0] += 1
        } else {
          prompts.append(prompt)
        }
      }
      for (key, n) in here where n > earlier[key, default: 0] { earlier[key] = n }
      for (reason, n) in p.leftOut { leftOut[reason, default: 0] += n }
      for (reason, n) in p.adjusted { adjusted[reason, default: 0] += n }
    }
    sort()
  }

  /// The most prompts and participants a pilot may hold, and the longest a participant's
  /// prompts may span: a pilot, not a cohort (each is simulated several times over).
  public static let maxPrompts = 2_000_000
  public static let maxParticipants = 100_000
  public static let maxSpanDays = 366
  /// How far a prompt's other times (when it was scheduled, opened and answered) may lie from
  /// when it was shown, in days, and be read: a week covers a phone off for days and an answer
  /// "until the next prompt". A prompt with a time further away (an ESMira invitation that
  /// never expires, answered weeks later) is left out and counted (``leaveOutFarTimes()``);
  /// one beyond ``maxSpanDays`` is refused: a date is wrong (a year typed wrong silently made
  /// a 26,000-day answer window).
  public static let maxPromptDays: Int64 = 7
  /// A day in the records' milliseconds.
  static let dayMilliseconds: Int64 = 86_400_000
  /// How far an opening or answer may precede its prompt and still be kept (milliseconds):
  /// the phone's and the server's clocks differ by seconds to minutes. Such a time is taken
  /// as the prompt's own, counted and said; an earlier one is refused.
  public static let clockSkew: Int64 = 5 * 60_000

  /// `time` (an opening or an answer) against the prompt's `shown`: the time itself when not
  /// before it; the prompt's time when up to ``clockSkew`` before (counted in `adjusted`);
  /// nil when earlier still (the reader refuses it).
  mutating func notBefore(_ time: Int64, shown: Int64, what: String) -> Int64? {
    if time >= shown { return time }
    guard shown - time <= Self.clockSkew else { return nil }
    adjusted["\(what) up to 5 minutes before their prompt (the phone's and the server's clocks apart): taken as at the prompt", default: 0] += 1
    return shown
  }

  /// Leaves out the prompts with a time more than ``maxPromptDays`` (and less than
  /// ``maxSpanDays``, which ``checkLimits()`` refuses) from when they were shown, counted.
  mutating func leaveOutFarTimes() {
    let far = Self.maxPromptDays * Self.dayMilliseconds
    let limit = Int64(Self.maxSpanDays) * Self.dayMilliseconds
    let before = prompts.count
    prompts.removeAll { p in
      p.otherTimes.contains { _, t in t.map { abs($0 - p.shown) > far && abs($0 - p.shown) < limit } ?? false }
    }
    if prompts.count < before {
      leftOut["prompts scheduled, opened or answered more than \(Self.maxPromptDays) days from when they were shown (an invitation answered weeks later, or a date wrong)", default: 0] += before - prompts.count
    }
  }

  /// The largest pilot file read (bytes): checked before the file is read.
  public static let maxFileBytes = 64 << 20

  /// Refuses a pilot beyond the limits above, naming the file and line where it passes them.
  public func checkLimits() throws(ScenarioError) {
    if prompts.count > Self.maxPrompts {
      let p = prompts[Self.maxPrompts]
      throw ScenarioError(file: p.file, at: .init(line: p.line, column: 1), "more than \(Self.maxPrompts) prompts; a pilot has at most that many")
    }
    for p in prompts {
      for (what, time) in p.otherTimes {
        guard let time, abs(time - p.shown) >= Int64(Self.maxSpanDays) * Self.dayMilliseconds else { continue }
        let days = abs(time - p.shown) / Self.dayMilliseconds
        throw ScenarioError(
          file: p.file, at: .init(line: p.line, column: 1),
          "participant \(p.participant.prefix(40))'s prompt was \(what) \(days) days \(time < p.shown ? "before" : "after") it was shown; a pilot spans at most \(Self.maxSpanDays) days: is a date wrong?")
      }
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
      let days = (b.shown - a.shown) / Self.dayMilliseconds
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

/// The pilot readers, one file each in `Readers/` (AWARE, Beiwe, m-Path, ESMira, a generic
/// per-prompt CSV).
public enum PilotReaders {}
