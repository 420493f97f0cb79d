import Foundation

extension PilotReaders {
  /// AWARE `esms` rows (a CSV export of the table): one prompt per device, schedule
  /// (`scheduleId`, the parent schedule: each schedule has its own notification) and
  /// notification time, its outcome the rows' `esmStatus` (an answered item makes it answered).
  /// `timezone` is read as hours when within ±14, otherwise as seconds. Rows of status 0
  /// (new: never acted on) are left out and counted.
  public static func aware(_ data: Data, file: String) throws(ScenarioError) -> Pilot {
    let csv = try CSVText(data, file: file)
    let (device, zone, status, shownAt, answerAt) = (
      try csv.column("deviceId"), try csv.column("timezone"), try csv.column("esmStatus"),
      try csv.column("esmNotificationTime"), try csv.column("esmAnswerTime")
    )
    let schedule = csv.optionalColumn("scheduleId")
    var byPrompt: [String: Int] = [:]
    var pilot = Pilot()
    // iPhones' rows (the plugin writes a row when the participant acts or the prompt expires);
    // no time of opening.
    pilot.recording = PilotRecording(prompts: .actedOnIPhones, openings: false, breakOffs: false)
    for r in csv.records {
      guard let outcome = try awareOutcome(try csv.integer(r[status], "esmStatus"), r[status], file: file) else {
        pilot.leftOut["esmStatus 0 (new: never acted on)", default: 0] += 1
        continue
      }
      let shown = try csv.time(r[shownAt], "esmNotificationTime", in: Pilot.times)
      let z = try csv.integer(r[zone], "timezone")
      guard abs(z) <= 14 * 3600 else {
        throw ScenarioError(
          file: file, key: "timezone", at: .init(line: r[zone].line, column: r[zone].column),
          "expected an offset from UTC in hours (or seconds), found \(z)")
      }
      let offset = abs(z) <= 14 ? Int(z) * 60 : Int(z) / 60
      var answered = outcome == .answered ? try csv.time(r[answerAt], "esmAnswerTime", in: Pilot.times) : nil
      if let a = answered {
        guard let kept = pilot.notBefore(a, shown: shown, what: "answers") else {
          throw ScenarioError(
            file: file, key: "esmAnswerTime", at: .init(line: r[answerAt].line, column: r[answerAt].column),
            "answered (\(a)) more than 5 minutes before its notification (\(shown), esmNotificationTime)")
        }
        answered = kept
      }
      let key = r[device].text + "\u{1F}" + (schedule.map { r[$0].text } ?? "") + "\u{1F}" + String(shown)
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

  /// An AWARE `esmStatus`: 1 answered, 2 dismissed, 3 expired; nil for 0 (new: never acted on).
  static func awareOutcome(_ code: Int64, _ f: CSVText.Field, file: String) throws(ScenarioError) -> PilotPrompt.Outcome? {
    switch code {
    case 0: return nil
    case 1: return .answered
    case 2: return .dismissed
    case 3: return .expired
    default:
      throw ScenarioError(
        file: file, key: "esmStatus", at: .init(line: f.line, column: f.column),
        "expected 0 (new), 1 (answered), 2 (dismissed) or 3 (expired), found \(code)")
    }
  }
}
