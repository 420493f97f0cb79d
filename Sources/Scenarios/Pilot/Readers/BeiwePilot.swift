import Foundation

extension PilotReaders {
  /// One participant's Beiwe survey timings on iOS (with the `event` column): a prompt per
  /// `notified`, opened at its first `present`, ending at `submitted` or `expired` (or with
  /// none before the next `notified`: `unanswered`); the rows of each survey follow its
  /// `notified`. Beiwe writes UTC timestamps; the participant's clock is `clock`.
  public static func beiweTimings(
    _ data: Data, file: String, participant: String, clock: PilotClock = .offset(minutes: 0)
  ) throws(ScenarioError) -> Pilot {
    let android = ScenarioError(
      file: file, key: "event", at: .init(line: 1, column: 1),
      "Beiwe's Android survey timings have no event column, so one survey cannot be told from the next: use the iOS files")
    // Without an event column: Android's timings (their question and survey ids) by name,
    // anything else as not Beiwe's.
    func missingEvent(_ header: [String]) -> ScenarioError {
      guard header.contains("question id") || header.contains("survey id") else {
        return ScenarioError(
          file: file, key: "event", at: .init(line: 1, column: 1),
          "not Beiwe's survey timings: their header has timestamp and event (found \(header.prefix(6).joined(separator: ", ").prefix(120)))")
      }
      return android
    }
    let csv: CSVText
    do {
      csv = try CSVText(data, file: file)
    } catch {
      // Android's rows need not fit its header's shape: refused by name, not by the row.
      if let loose = try? CSVText(data, file: file, ragged: true), !loose.header.contains("event") { throw missingEvent(loose.header) }
      throw error
    }
    guard csv.header.contains("event") else { throw missingEvent(csv.header) }
    let time = try csv.column("timestamp")
    let event = try csv.column("event")
    var pilot = Pilot()
    // Each notification shown; opened at the first question presented, an opened survey
    // that expires unsubmitted broken off.
    pilot.recording = PilotRecording(prompts: .shown, openings: true, breakOffs: true)
    var current: PilotPrompt?
    func close() {
      if let c = current { pilot.prompts.append(c) }
      current = nil
    }
    for r in csv.records {
      var t = try csv.time(r[time], "timestamp", in: Pilot.times)
      // A survey's events follow its notification (a file may hold several surveys, each
      // from its notified on, as esmsim writes them; Beiwe writes one file per survey); up to
      // 5 minutes before it is a clock set back, kept and counted as the other formats do.
      if r[event].text != "notified", let c = current, t < c.shown {
        let what = r[event].text == "submitted" ? "answers" : r[event].text == "expired" ? "expiries" : "openings"
        guard let kept = pilot.notBefore(t, shown: c.shown, what: what) else {
          throw ScenarioError(
            file: file, key: "timestamp", at: .init(line: r[time].line, column: r[time].column),
            "an event more than 5 minutes before its survey's notification")
        }
        t = kept
      }
      switch r[event].text {
      case "notified":
        close()
        current = PilotPrompt(
          participant: participant, shown: t, utcOffsetMinutes: clock.offsetMinutes(atUTC: t), outcome: .unanswered, file: file, line: r[time].line)
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
