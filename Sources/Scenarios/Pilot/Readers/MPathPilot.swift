import Foundation

extension PilotReaders {
  /// m-Path's per-beep export, as mpathr documents and reads it ([@mpathr]): semicolons, a
  /// byte-order mark, one row per beep sent, rows of unanswered beeps cut short after their
  /// last field (read as empty). A participant is a `connectionId`; a prompt is a beep
  /// (`sentBeepId`), shown when it was sent (`timeStampSent`), opened at `timeStampStart` and
  /// submitted at `timeStampStop`: started and not stopped is a break-off (`partial`), neither
  /// is unanswered. Times are m-Path's: seconds since 1970 on the participant's local clock,
  /// so UTC is the time less `timeZoneOffset` (seconds east of UTC).
  ///
  /// Left out, and counted: beeps not scheduled (`scheduledBeepId` −1: a questionnaire sent
  /// once, such as an intake), rows repeating a `sentBeepId` (the first kept), and m-Path's
  /// meta file (question texts: not needed). A reminder (`reminderForOriginalSentBeepId`) is
  /// folded into the beep it reminds of: answered through the reminder, the beep is answered.
  public static func mpath(_ data: Data, file: String) throws(ScenarioError) -> Pilot {
    let csv = try CSVText(data, file: file, separator: CSVText.separator(of: data), ragged: true)
    var pilot = Pilot()
    pilot.recording = PilotRecording(prompts: .sent, openings: true, breakOffs: true)
    if csv.optionalColumn("columnName") != nil && csv.optionalColumn("fullQuestion") != nil {
      pilot.leftOut["m-Path meta files (question texts: not needed)"] = 1
      return pilot
    }
    let (who, list, scheduledId, sentId, reminderOf) = (
      try csv.column("connectionId"), try csv.column("questionListName"), try csv.column("scheduledBeepId"),
      try csv.column("sentBeepId"), try csv.column("reminderForOriginalSentBeepId")
    )
    let (scheduledAt, sentAt, startAt, stopAt, zone) = (
      try csv.column("timeStampScheduled"), try csv.column("timeStampSent"), try csv.column("timeStampStart"),
      try csv.column("timeStampStop"), try csv.column("timeZoneOffset")
    )
    func time(_ f: CSVText.Field, _ name: String, offset: Int64) throws(ScenarioError) -> Int64? {
      try mpathTime(csv, f, name, offset: offset)
    }
    var bySent: [String: Int] = [:]
    var reminders: [(of: String, prompt: PilotPrompt)] = []
    for r in csv.records {
      _ = try csv.nonBlank(r[who], "connectionId", "a beep without its participant")
      guard try csv.integer(r[scheduledId], "scheduledBeepId") != -1 else {
        pilot.leftOut["m-Path beeps not scheduled (scheduledBeepId -1: sent once, such as an intake)", default: 0] += 1
        continue
      }
      let offset = try csv.integer(r[zone], "timeZoneOffset")
      guard abs(offset) <= 14 * 3600 else {
        throw csv.error(r[zone], "timeZoneOffset", "expected seconds east of UTC within ±50400 (UTC±14), found \(offset)")
      }
      guard let sent = try time(r[sentAt], "timeStampSent", offset: offset) else {
        throw csv.error(r[sentAt], "timeStampSent", "a scheduled beep without the time it was sent")
      }
      let (start, stop) = try mpathTimes(
        start: try time(r[startAt], "timeStampStart", offset: offset), stop: try time(r[stopAt], "timeStampStop", offset: offset),
        sent: sent, fields: (r[startAt], r[stopAt]), csv, &pilot)
      let outcome: PilotPrompt.Outcome = stop != nil ? .answered : start != nil ? .partial : .unanswered
      let prompt = PilotPrompt(
        participant: r[who].text, shown: sent, utcOffsetMinutes: Int(offset / 60), outcome: outcome, opened: start, submitted: stop,
        questionnaire: r[list].text, scheduled: try time(r[scheduledAt], "timeStampScheduled", offset: offset), file: file,
        line: r[who].line)
      let original = try csv.integer(r[reminderOf], "reminderForOriginalSentBeepId")
      if original != 0 {
        reminders.append((r[who].text + "\u{1F}" + String(original), prompt))
        continue
      }
      let key = r[who].text + "\u{1F}" + String(try csv.integer(r[sentId], "sentBeepId"))
      guard bySent[key] == nil else {
        pilot.leftOut["m-Path rows repeating a sentBeepId (the first kept)", default: 0] += 1
        continue
      }
      bySent[key] = pilot.prompts.count
      pilot.prompts.append(prompt)
    }
    foldReminders(reminders, bySent: bySent, into: &pilot)
    pilot.sort()
    return pilot
  }

  /// m-Path's reminders folded into the beeps they remind of: answered (or started) through a
  /// reminder, the beep is; counted.
  static func foldReminders(_ reminders: [(of: String, prompt: PilotPrompt)], bySent: [String: Int], into pilot: inout Pilot) {
    for (of, reminder) in reminders {
      pilot.leftOut["m-Path reminder beeps (folded into the beep they remind of)", default: 0] += 1
      guard let k = bySent[of] else {
        pilot.leftOut["m-Path reminders of a beep not in the file", default: 0] += 1
        continue
      }
      if reminder.outcome != .unanswered && pilot.prompts[k].outcome != .answered {
        pilot.prompts[k].outcome = reminder.outcome
        pilot.prompts[k].opened = reminder.opened
        pilot.prompts[k].submitted = reminder.submitted
      }
    }
  }

  /// A beep's start and stop, each kept when at most 5 minutes before what it follows (the
  /// start its sending, the stop its start; counted by ``Pilot/notBefore(_:shown:what:)``),
  /// refused when earlier; a stop needs a start.
  static func mpathTimes(
    start: Int64?, stop: Int64?, sent: Int64, fields: (start: CSVText.Field, stop: CSVText.Field), _ csv: CSVText,
    _ pilot: inout Pilot
  ) throws(ScenarioError) -> (start: Int64?, stop: Int64?) {
    var (start, stop) = (start, stop)
    if let s = start {
      guard let kept = pilot.notBefore(s, shown: sent, what: "openings") else {
        throw csv.error(fields.start, "timeStampStart", "started more than 5 minutes before it was sent (timeStampSent)")
      }
      start = kept
    }
    if let e = stop {
      guard let s = start else { throw csv.error(fields.stop, "timeStampStop", "stopped without a start (timeStampStart)") }
      guard let kept = pilot.notBefore(e, shown: s, what: "answers") else {
        throw csv.error(fields.stop, "timeStampStop", "stopped more than 5 minutes before it started (timeStampStart)")
      }
      stop = kept
    }
    return (start, stop)
  }

  /// An m-Path local-clock time in seconds as UTC milliseconds (nil: empty).
  static func mpathTime(_ csv: CSVText, _ f: CSVText.Field, _ name: String, offset: Int64) throws(ScenarioError) -> Int64? {
    let seconds = (Pilot.times.lowerBound / 1000)...(Pilot.times.upperBound / 1000)
    guard let t = try csv.optionalInteger(f, name) else { return nil }
    guard seconds.contains(t) else {
      throw csv.error(f, name, "\(t) is not a time between 2000 and 2100 in seconds since 1970 (m-Path's local clock)")
    }
    return (t - offset) * 1000
  }
}
