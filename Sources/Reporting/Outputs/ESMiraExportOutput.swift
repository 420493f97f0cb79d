import Foundation
import Schedules
import SimKernel
import Scenarios
import Study
import StudyModel

/// ESMira's data export (`outputs.esmira`), as ESMira-web's server stores and sends it
/// ([@ESMiraNotes]): for each variant and replication a folder `esmira/vV-rR/` with
/// `events.csv` and a file per questionnaire (`<id>.csv`); semicolons, every field quoted (a
/// quote inside a value becomes '), rows joined by a line break, none after the last.
///
/// What the app writes with ESMira's default upload settings: `joined` at the start of the
/// participant's first day, and `schedule_changed` then for each signal time of a participant
/// who moved their times (`protocol.own_times`); an Android phone's `invitation` when the alarm fired (the prompt
/// delivered), an iPhone's `actions_executed` when the participant opened it (iOS records no
/// delivery); a `questionnaire` row (and one in the questionnaire's file) for each submitted
/// questionnaire, with `formDuration` from opening to submission and `lastInvitation` the
/// planned time. `invitation_missed` (off in ESMira by default) only with
/// `outputs.esmira_missed`: a row for each prompt not opened, at its close (on Android after
/// its `invitation`, where the prompt has a timeout: ESMira removes the notification then). Nothing after the
/// participant leaves the study (their app no longer runs). Simulated, not
/// real: the user ids are made from the participant's number, the phones' model and versions
/// are `esmsim`'s, uploads are at once (`uploaded` = `responseTime`), `localDateTime` is an ISO
/// local time, and the answers of a questionnaire's items all come from the one simulated state
/// (``ItemAnswers``). With `protocol.items`, every questionnaire's file has a column per item
/// after its own, with the answer `answers.csv` has (``AnswersOutput``); an item named as one
/// of the questionnaire's answers in that item's column instead.
final class ESMiraExportOutput: RunOutput {
  static let folderName = "esmira"
  static let base = [
    "entryId", "userId", "uploaded", "uploaded_formatted", "appType", "appVersion", "studyId", "accessKey", "studyVersion",
    "studyLang", "questionnaireName", "eventType", "timezone", "timezoneOffset", "responseTime", "responseTime_formatted",
    "localDateTime",
  ]
  static let eventsHeader = base + ["newSchedule", "actionScheduledTo", "actionScheduledTo_formatted", "model", "osVersion", "manufacturer"]
  static let questionnaireHeader = base + ["formDuration", "pageDurations", "lastInvitation", "lastInvitation_formatted"]

  let folder: RunFolder
  let missed: Bool
  /// The open files of the current variant and replication.
  var current: (key: String, events: RowFile, questionnaires: [String: RowFile])?

  /// The items' answers, where the plan has them.
  var detail: OutcomeDetail { .answers }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.esmira }

  /// An invitation and a questionnaire row in `events.csv`, one in its file.
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(fileBytes: work.prompts * (3 * 300 + work.items * 4)) }

  /// With `invitation_missed` rows as the scenario's `outputs.esmira_missed` says.
  convenience init(_ folder: RunFolder) throws { try self.init(folder, missed: folder.scenario.outputs.esmiraMissed) }

  init(_ folder: RunFolder, missed: Bool) throws {
    self.folder = folder
    self.missed = missed
    try FileManager.default.createDirectory(atPath: folder.path(Self.folderName), withIntermediateDirectories: false)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let plan = folder.variant(v).plan
    try open(variant: v, replication: r, plan: plan)
    let time = folder.clock(o, plan: plan)
    let ios = o.os == .ios
    let user = Self.userId(o.participant)
    var entry = 0
    func row(_ t: SimTime, type: String, questionnaire: String) -> [String] {
      entry += 1
      let ms = time.unix(t)
      let offset = time.zone.isUTC ? 0 : Int64(time.zone.offset(atInstant: time.zone.instant(ofWall: t)))
      let id = Int64(o.participant + 1) * 1_000_000 + Int64(entry)
      let app: [String] = ios ? ["iOS", "1.19.1"] : ["Android", "2.22.2"]
      let local = String(time.iso(t).prefix(16)).replacingOccurrences(of: "T", with: " ")
      var fields: [String] = [String(id), user, String(ms), Self.formatted(ms)]
      fields += app
      fields += ["1", "", "1.0", "en", questionnaire, type, Self.zoneName(offset), String(offset), String(ms), Self.formatted(ms), local]
      return fields
    }
    func event(_ t: SimTime, _ type: String, questionnaire: String = "", planned: SimTime? = nil, newSchedule: String = "") throws
      -> [String]
    {
      let base = row(t, type: type, questionnaire: questionnaire)
      let scheduled = planned.map { time.unix($0) }
      try current!.events.write(
        base + [newSchedule, scheduled.map(String.init) ?? "", scheduled.map(Self.formatted) ?? "", "esmsim", "", "esmsim"])
      return base
    }
    _ = try event(0, "joined")
    // Times moved in the app on joining (`protocol.own_times`): each signal time saved.
    for (name, schedule) in Self.changedSchedules(plan.protocolPlan, shift: o.ownTimesShift) {
      _ = try event(0, "schedule_changed", questionnaire: name, newSchedule: schedule)
    }
    let own = OwnItemAnswers(o, plan: plan)
    for (i, p) in (o.prompts + o.volunteered).enumerated() {
      // After leaving the study the app writes nothing (no invitation, none missed).
      if p.status == .droppedOut { continue }
      let survey = plan.protocolPlan.survey(of: p)
      let name = survey.title.isEmpty ? survey.id : survey.title
      if !p.volunteered {
        if ios ? p.opened >= 0 : p.delivered >= 0 {
          _ = try event(ios ? p.opened : p.delivered, ios ? "actions_executed" : "invitation", questionnaire: name, planned: p.scheduled)
          // Android removes a notification whose timeout passed unopened and records it
          // missed (ESMira's `WorkerBox`, `reportMissedInvitation`): the prompt's second row.
          if missed && !ios && p.opened < 0, case .after = plan.protocolPlan.expiry(ofSchedule: p.schedule) {
            _ = try event(max(p.closed, p.scheduled), "invitation_missed", questionnaire: name, planned: p.scheduled)
          }
        } else if missed && p.opened < 0 {
          _ = try event(max(p.closed, p.scheduled), "invitation_missed", questionnaire: name, planned: p.scheduled)
        }
      }
      guard p.status == .answered, p.submitted >= 0 else { continue }
      let base = try event(p.submitted, "questionnaire", questionnaire: name)
      let form = p.opened >= 0 ? p.submitted - p.opened : 0
      let invitation = p.volunteered ? 0 : time.unix(p.scheduled)
      try current!.questionnaires[survey.id]?.write(
        base + [String(form), String(form), String(invitation), invitation == 0 ? "" : Self.formatted(invitation)]
          + Self.answers(p, survey: survey, plan: plan.answers, own: own.at(i)))
    }
  }

  /// The `schedule_changed` events of a participant who moved their times by `shift` minutes
  /// on joining (``ProtocolPlan/ownTimes``): ESMira's app writes one for each signal time saved
  /// (`SignalTime.saveTimeFrames`), `newSchedule` its schedule as `Schedule.toDescString` gives
  /// it ("title: HH:MM-HH:MM, " for random times, "title: HH:MM, " for a fixed one), on the
  /// participant's 24-hour clock. Schedules in the participant's own hours or triggered by
  /// events have no times to save.
  static func changedSchedules(_ proto: ProtocolPlan, shift: Double) -> [(questionnaire: String, schedule: String)] {
    guard shift != 0 else { return [] }
    return proto.schedules.indices.compactMap { k in
      let part = proto.schedules[k]
      guard let choice = part.choice, case .fixed(let window, _) = part.window else { return nil }
      let survey = proto.survey(ofSchedule: k)
      let name = survey.title.isEmpty ? survey.id : survey.title
      func clock(_ minutes: Double) -> String { ClockTime(minutes: minutes.rounded()).description }
      if choice.algorithm == .fixedTimes {
        let times = choice.parameters.times ?? [window.start]
        return (name, times.map { "\(name): \(clock($0.minutes + shift)), " }.joined())
      }
      return (name, "\(name): \(clock(window.start.minutes + shift))-\(clock(window.start.minutes + window.length + shift)), ")
    }
  }

  /// Opens the files of variant `v`'s replication `r` (closing the last ones) unless they are
  /// the current ones: `events.csv` and a file per questionnaire.
  func open(variant v: Int, replication r: Int, plan: StudyPlan) throws {
    let key = RunFolder.replicationKey(variant: v, replication: r)
    guard current?.key != key else { return }
    try finish()
    let dir = try folder.replicationDirectory(Self.folderName, variant: v, replication: r)
    var questionnaires: [String: RowFile] = [:]
    for survey in plan.protocolPlan.allSurveys {
      questionnaires[survey.id] = try RowFile.esmira(
        (dir as NSString).appendingPathComponent("\(survey.id).csv"),
        header: Self.questionnaireHeader + survey.items.map(\.id)
          + OwnItemAnswers.extra(plan.answers, survey).map { plan.answers.items[$0].name })
    }
    current = (key, try RowFile.esmira((dir as NSString).appendingPathComponent("events.csv"), header: Self.eventsHeader), questionnaires)
  }

  /// A submitted questionnaire's answers: its items' from the one state, then the scenario's own
  /// items (`protocol.items`) as answers.csv has them (`own`, by name; none: empty, a
  /// volunteered answer); an own item named as a survey item answers in that item's column.
  static func answers(_ p: PromptRecord, survey: SurveyPlan, plan: AnswersPlan, own: [String: String]) -> [String] {
    let answers = survey.items.enumerated().map { k, item in
      if plan.items.contains(where: { $0.name == item.id }) { return own[item.id] ?? "" }
      let state = ItemAnswers.state(p, item: item, k: k)
      return ItemAnswers.option(item, state: state) ?? String(ItemAnswers.number(item, state: state))
    }
    return answers + OwnItemAnswers.extra(plan, survey).map { own[plan.items[$0].name] ?? "" }
  }

  func finish() throws {
    try current?.events.close()
    for file in current?.questionnaires.values ?? [:].values { try file.close() }
    current = nil
  }

  /// A user id as the app makes them (12 characters of its alphabet in groups of 4), from the
  /// participant's number.
  static func userId(_ participant: Int) -> String {
    let alphabet = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz")
    var x = UInt64(participant) &* 0x9E37_79B9_7F4A_7C15 &+ 0x2545_F491_4F6C_DD1D
    var chars: [Character] = []
    for _ in 0..<12 {
      chars.append(alphabet[Int(x % UInt64(alphabet.count))])
      x /= UInt64(alphabet.count)
      if x == 0 { x = UInt64(participant) &+ 0x1234_5678 }
    }
    return [0, 4, 8].map { String(chars[$0..<$0 + 4]) }.joined(separator: "-")
  }

  /// ESMira-web's `Y/m/d H:i:s` of a time, on the server's clock (UTC), rounded to the second.
  static func formatted(_ ms: Int64) -> String {
    let seconds = (ms + 500) / 1000
    let days = Int(seconds / 86_400 - (seconds % 86_400 < 0 ? 1 : 0))
    let rest = Int(seconds - Int64(days) * 86_400)
    let (y, m, d) = Timestamps.civil(days)
    func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
    return "\(y)/\(two(m))/\(two(d)) \(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
  }

  /// iOS's zone abbreviation of an offset (`GMT+1`, `GMT+5:30`, `GMT` at 0).
  static func zoneName(_ offsetMs: Int64) -> String {
    let minutes = Int(offsetMs / 60_000)
    guard minutes != 0 else { return "GMT" }
    let h = abs(minutes) / 60
    let m = abs(minutes) % 60
    return "GMT" + (minutes < 0 ? "-" : "+") + "\(h)" + (m == 0 ? "" : ":" + (m < 10 ? "0\(m)" : "\(m)"))
  }
}

extension RowFile {
  /// A file as ESMira-web writes it: every field quoted, semicolons, a quote inside a value
  /// written as ', line breaks in a value as spaces, rows joined by "\n" with none after the last.
  static func esmira(_ path: String, header: [String]) throws -> RowFile {
    try RowFile(path, header: header, ending: "") { fields in
      "\"" + fields.map { $0.replacingOccurrences(of: "\"", with: "'").replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ") }
        .joined(separator: "\";\"") + "\""
    }
  }
}
