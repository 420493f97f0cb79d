import Foundation

extension PilotReaders {
  /// ESMira's data export ([@ESMiraWeb]: the server's response files, semicolons, every field
  /// quoted, times in milliseconds since 1970). A questionnaire's file holds only the
  /// questionnaires participants submitted; the prompts are the invitations in `events.csv`
  /// (`invitation` on Android, `actions_executed` on iOS, each with the time it was planned
  /// for, `actionScheduledTo`), so both are needed. A prompt is one invitation (a participant,
  /// a questionnaire, a planned time); it is answered by the submitted questionnaire whose
  /// `lastInvitation` is that time (else the latest invitation before it not yet answered),
  /// opened `formDuration` before it was submitted (`responseTime`). ESMira records no
  /// questionnaire left unfinished: break-offs cannot be seen.
  ///
  /// `invitation_missed` (a signal the app found expired, or older than the newest due one on
  /// iOS; off in ESMira's upload settings by default) is a prompt not answered. ESMira's iOS
  /// app records a notification only when the app later runs ([@ESMiraNotes]): without
  /// `invitation_missed`, an iPhone's ignored prompts leave no row, and its answered share
  /// would be overstated. With it, every signal has a record, those a dead phone never showed
  /// too: the pilot records the prompts sent (without it, those the phone showed). The
  /// setting is the study's: when no participant has an
  /// `invitation_missed` event, the participants with iOS events (`actions_executed`) are left
  /// out, counted and said; when no one else is left, the pilot is refused with that reason.
  ///
  /// Left out, and counted: events of other types, questionnaires submitted without an
  /// invitation (`lastInvitation` 0) or whose invitation is not in events.csv, the web
  /// access log. An invitation repeated (same participant, questionnaire and time) is one
  /// prompt.
  public static func esmira(_ files: [(file: String, data: Data)]) throws(ScenarioError) -> Pilot {
    var pilot = Pilot()
    pilot.recording = PilotRecording(prompts: .shown, openings: true, breakOffs: false)
    let (events, questionnaires) = try ESMiraFiles.sorted(files, &pilot)
    guard let first = events.first else {
      throw ScenarioError(
        file: questionnaires.first?.file ?? files.first?.file ?? "", key: "events.csv", at: .init(line: 1, column: 1),
        "ESMira's questionnaire files hold only the questionnaires submitted; the prompts are the invitation events of events.csv: give it too")
    }
    var invitations = try ESMiraInvitations(events, &pilot)
    guard !pilot.prompts.isEmpty else {
      throw ScenarioError(
        file: first.file, key: "eventType", at: .init(line: 1, column: 1),
        "no invitation or actions_executed events: switch their upload on in the study's settings (they are on by default)")
    }
    invitations.order(pilot)
    for csv in questionnaires { try invitations.answer(csv, &pilot) }
    // iPhones whose ignored prompts were not recorded (the study uploads no invitation_missed):
    // left out, said.
    let incomplete = invitations.missedRecorded.isEmpty ? invitations.onIOS : []
    if !incomplete.isEmpty {
      pilot.prompts.removeAll { incomplete.contains($0.participant) }
      pilot.leftOut[
        "ESMira iOS participants, the study uploading no invitation_missed events (the iOS app records only the notifications the app saw; switch invitation_missed on in the study's event upload settings)",
        default: 0] += incomplete.count
      guard !pilot.prompts.isEmpty else {
        throw ScenarioError(
          file: first.file, key: "eventType", at: .init(line: 1, column: 1),
          "every participant is on iOS without invitation_missed events: ESMira's iOS app records only the notifications the app saw, so the prompts they ignored are not in the file and the answered share cannot be known; switch invitation_missed on in the study's event upload settings")
      }
    }
    // With invitation_missed the app records every signal, also those it never showed (a
    // dead phone's, found expired when the app ran again): the prompts sent.
    if !invitations.missedRecorded.isEmpty { pilot.recording.prompts = .sent }
    pilot.sort()
    return pilot
  }
}

/// ESMira's export files by kind: events, questionnaires, and web access logs (left out).
private enum ESMiraFiles {
  static func sorted(_ files: [(file: String, data: Data)], _ pilot: inout Pilot) throws(ScenarioError) -> (
    events: [CSVText], questionnaires: [CSVText]
  ) {
    var events: [CSVText] = []
    var questionnaires: [CSVText] = []
    for (file, data) in files {
      let csv = try CSVText(data, file: file, separator: CSVText.separator(of: data))
      if csv.optionalColumn("actionScheduledTo") != nil {
        events.append(csv)
      } else if csv.optionalColumn("lastInvitation") != nil {
        questionnaires.append(csv)
      } else if csv.optionalColumn("page") != nil && csv.optionalColumn("referer") != nil {
        pilot.leftOut["ESMira web access logs (page visits: not prompts)", default: 0] += 1
      } else {
        throw ScenarioError(
          file: file, key: "actionScheduledTo", at: .init(line: 1, column: 1),
          "not an ESMira events.csv (with actionScheduledTo) or questionnaire file (with lastInvitation)")
      }
    }
    return (events, questionnaires)
  }
}

/// The invitations of `events.csv` as prompts, and which of them the submitted
/// questionnaires answer.
private struct ESMiraInvitations {
  /// Each invitation's prompt by (participant, questionnaire, planned time).
  var byKey: [String: Int] = [:]
  /// The event type that first named each key (`invitation`, `actions_executed` or
  /// `invitation_missed`).
  var firstKind: [String: String] = [:]
  /// Each participant's and questionnaire's prompts, in time order once ``order(_:)`` ran.
  var byQuestionnaire: [String: [Int]] = [:]
  /// Participants with iOS events, and with `invitation_missed` events.
  var onIOS: Set<String> = []
  var missedRecorded: Set<String> = []
  /// Each prompt's position in its list, and the latest one not yet answered at or before a
  /// position (a disjoint-set forest over the positions: answering one links it to the one
  /// before, so finding is near constant time and the whole matching linear, however many
  /// questionnaires come without their invitation).
  var position: [Int] = []
  var open: [String: [Int]] = [:]

  /// Reads every invitation of `events` into the pilot's prompts.
  init(_ events: [CSVText], _ pilot: inout Pilot) throws(ScenarioError) {
    for csv in events {
      let (user, name, type, at, zone) = (
        try csv.column("userId"), try csv.column("questionnaireName"), try csv.column("eventType"),
        try csv.column("actionScheduledTo"), try csv.column("timezoneOffset")
      )
      for r in csv.records {
        let kind = r[type].text
        if kind == "actions_executed" { onIOS.insert(r[user].text) }
        if kind == "invitation_missed" { missedRecorded.insert(r[user].text) }
        guard kind == "invitation" || kind == "actions_executed" || kind == "invitation_missed" else {
          pilot.leftOut["ESMira events of type \(kind.prefix(40)) (not a prompt)", default: 0] += 1
          continue
        }
        let planned = try csv.time(r[at], "actionScheduledTo", in: Pilot.times)
        let key = [r[user].text, r[name].text, String(planned)].joined(separator: "\u{1F}")
        if byKey[key] != nil {
          // Android's invitation, then its invitation_missed when the timeout removed the
          // notification unopened: one prompt, not a repeat.
          if kind == "invitation_missed" && firstKind[key] == "invitation" { continue }
          pilot.leftOut["ESMira invitations repeated (one prompt kept)", default: 0] += 1
          continue
        }
        firstKind[key] = kind
        byKey[key] = pilot.prompts.count
        byQuestionnaire[r[user].text + "\u{1F}" + r[name].text, default: []].append(pilot.prompts.count)
        pilot.prompts.append(
          PilotPrompt(
            participant: r[user].text, shown: planned, utcOffsetMinutes: try Self.offset(csv, r[zone]), outcome: .unanswered,
            questionnaire: r[name].text, scheduled: planned, file: csv.file, line: r[user].line))
      }
    }
  }

  /// A clock's offset from UTC in minutes, from `timezoneOffset` (milliseconds east of UTC).
  static func offset(_ csv: CSVText, _ f: CSVText.Field) throws(ScenarioError) -> Int {
    let z = try csv.optionalInteger(f, "timezoneOffset") ?? 0
    guard abs(z) <= 14 * 3_600_000 else {
      throw csv.error(f, "timezoneOffset", "expected milliseconds east of UTC within ±50400000 (UTC±14), found \(z)")
    }
    return Int(z / 60_000)
  }

  /// Puts each list in time order and starts every invitation unanswered.
  mutating func order(_ pilot: Pilot) {
    for k in byQuestionnaire.keys { byQuestionnaire[k]!.sort { (pilot.prompts[$0].shown, $0) < (pilot.prompts[$1].shown, $1) } }
    position = [Int](repeating: 0, count: pilot.prompts.count)
    for (key, list) in byQuestionnaire {
      for (i, k) in list.enumerated() { position[k] = i }
      open[key] = Array(0..<list.count)
    }
  }

  mutating func latestOpen(_ key: String, atOrBefore i: Int) -> Int? {
    guard i >= 0 else { return nil }
    var root = i
    while root >= 0 && open[key]![root] != root { root = open[key]![root] }
    var j = i
    while j >= 0 && open[key]![j] != j {
      let next = open[key]![j]
      open[key]![j] = root
      j = next
    }
    return root >= 0 ? root : nil
  }

  mutating func markAnswered(_ key: String, _ k: Int) { open[key]![position[k]] = position[k] - 1 }

  /// Marks the prompts that a questionnaire file's submissions answer: the invitation of
  /// their `lastInvitation`, else the latest before it not yet answered.
  mutating func answer(_ csv: CSVText, _ pilot: inout Pilot) throws(ScenarioError) {
    let (user, name, last, submittedAt, duration) = (
      try csv.column("userId"), try csv.column("questionnaireName"), try csv.column("lastInvitation"),
      try csv.column("responseTime"), try csv.column("formDuration")
    )
    for r in csv.records {
      let invitation = try csv.optionalInteger(r[last], "lastInvitation") ?? 0
      guard invitation != 0 else {
        pilot.leftOut["ESMira questionnaires submitted without an invitation (lastInvitation 0)", default: 0] += 1
        continue
      }
      let submitted = try csv.time(r[submittedAt], "responseTime", in: Pilot.times)
      let form = try csv.optionalInteger(r[duration], "formDuration") ?? 0
      guard form >= 0, form <= submitted - Pilot.times.lowerBound else {
        throw csv.error(r[duration], "formDuration", "expected the milliseconds the form was open, found \(form)")
      }
      let key = [r[user].text, r[name].text, String(invitation)].joined(separator: "\u{1F}")
      let listKey = r[user].text + "\u{1F}" + r[name].text
      var k = byKey[key].flatMap { pilot.prompts[$0].outcome == .unanswered ? $0 : nil }
      if k == nil, let list = byQuestionnaire[listKey] {
        // The last position whose invitation is at or before this one (binary search).
        var (lo, hi) = (0, list.count)
        while lo < hi {
          let mid = (lo + hi) / 2
          if pilot.prompts[list[mid]].shown <= invitation { lo = mid + 1 } else { hi = mid }
        }
        k = latestOpen(listKey, atOrBefore: lo - 1).map { list[$0] }
      }
      guard let k else {
        pilot.leftOut["ESMira questionnaires whose invitation is not in events.csv", default: 0] += 1
        continue
      }
      // Up to 5 minutes early is the phone's and the server's clocks apart: kept and counted,
      // as the other readers keep it.
      guard let kept = pilot.notBefore(submitted, shown: pilot.prompts[k].shown, what: "answers") else {
        throw csv.error(r[submittedAt], "responseTime", "submitted more than 5 minutes before its invitation (lastInvitation \(invitation))")
      }
      pilot.prompts[k].outcome = .answered
      markAnswered(listKey, k)
      pilot.prompts[k].submitted = kept
      // The opening, formDuration before the answer, not before the invitation (a form opened
      // from an earlier notification: counted).
      let opened = kept - form
      if opened < pilot.prompts[k].shown && submitted >= pilot.prompts[k].shown {
        pilot.adjusted["ESMira openings (responseTime − formDuration) before their invitation: taken as at the invitation", default: 0] += 1
      }
      pilot.prompts[k].opened = max(opened, pilot.prompts[k].shown)
    }
  }
}
