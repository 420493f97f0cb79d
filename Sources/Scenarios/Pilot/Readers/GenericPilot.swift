import Foundation

/// How a generic per-prompt CSV names its columns (`esmsim calibrate --format csv
/// --column ROLE=NAME`), and the participants' clock.
public struct PilotColumns: Sendable, Equatable {
  /// The roles a column can play; each is read from the column of its own name unless
  /// mapped. `participant` and one of `scheduled` or `delivered` are needed.
  public static let roles = ["participant", "questionnaire", "scheduled", "delivered", "opened", "submitted"]

  /// Role → the file's column name.
  public var names: [String: String]
  /// The participants' clock: of ISO 8601 times without an offset, and of the local hour
  /// and day. Not given: an ISO 8601 time's own offset, else UTC.
  public var clock: PilotClock?

  public init(names: [String: String] = [:], clock: PilotClock? = nil) {
    self.names = names
    self.clock = clock
  }

  /// The column of a role.
  public func name(_ role: String) -> String { names[role] ?? role }

  /// Reads `ROLE=NAME` mappings, refusing an unknown role or one given twice.
  public static func mapping(_ pairs: [String]) throws(ScenarioError) -> [String: String] {
    var names: [String: String] = [:]
    for p in pairs {
      let parts = p.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, roles.contains(parts[0]), !parts[1].isEmpty else {
        throw ScenarioError(
          file: "command line", key: "--column", at: nil,
          "expected ROLE=COLUMN with ROLE one of \(roles.joined(separator: ", ")), found '\(p.prefix(60))'")
      }
      guard names[parts[0]] == nil else {
        throw ScenarioError(file: "command line", key: "--column", at: nil, "the role \(parts[0]) is mapped twice")
      }
      names[parts[0]] = parts[1]
    }
    return names
  }
}

extension PilotReaders {
  /// A generic per-prompt CSV: a row per prompt the schedule sent, with its participant and
  /// time (`scheduled` or `delivered`: the time it was shown, else planned), optionally its
  /// `questionnaire` and when it was `opened` and `submitted` (empty: never). Submitted is
  /// answered; opened and not submitted a break-off (`partial`); neither, unanswered. Times
  /// are numbers (seconds or milliseconds since 1970, UTC) or ISO 8601, the separator a
  /// comma, semicolon or tab (the header's commonest).
  public static func generic(_ data: Data, file: String, columns: PilotColumns) throws(ScenarioError) -> Pilot {
    let csv = try CSVText(data, file: file, separator: CSVText.separator(of: data))
    var pilot = Pilot()
    // A column mapped by name must be there: a misspelt name would leave its role unread.
    for role in PilotColumns.roles where columns.names[role] != nil {
      do { _ = try csv.column(columns.name(role)) } catch {
        throw ScenarioError(file: file, key: "--column \(role)=\(columns.name(role))", at: error.location, error.message)
      }
    }
    let who = try csv.column(columns.name("participant"))
    let scheduledAt = csv.optionalColumn(columns.name("scheduled"))
    let deliveredAt = csv.optionalColumn(columns.name("delivered"))
    guard scheduledAt != nil || deliveredAt != nil else {
      throw ScenarioError(
        file: file, key: columns.name("delivered"), at: .init(line: 1, column: 1),
        "the header has neither \(columns.name("scheduled")) (scheduled) nor \(columns.name("delivered")) (delivered): a prompt needs its time (--column scheduled=NAME)")
    }
    let (openedAt, submittedAt, list) = (
      csv.optionalColumn(columns.name("opened")), csv.optionalColumn(columns.name("submitted")),
      csv.optionalColumn(columns.name("questionnaire"))
    )
    pilot.recording = PilotRecording(prompts: .sent, openings: openedAt != nil, breakOffs: openedAt != nil)
    // A time: UTC milliseconds and the clock's offset then.
    func time(_ r: [CSVText.Field], _ column: Int?, _ role: String) throws(ScenarioError) -> (Int64, Int)? {
      guard let column else { return nil }
      let f = r[column]
      if f.text.trimmingCharacters(in: .whitespaces).isEmpty { return nil }
      guard let t = PilotTime.parse(f.text) else {
        throw csv.error(
          f, columns.name(role),
          "expected a time: seconds or milliseconds since 1970, or ISO 8601 (2024-04-16T09:30:00+02:00), found '\(f.text.prefix(40))'")
      }
      let clock = columns.clock ?? .offset(minutes: 0)
      let utc = t.local ? clock.utc(ofLocal: t.milliseconds) : t.milliseconds
      guard Pilot.times.contains(utc) else {
        throw csv.error(f, columns.name(role), "'\(f.text.prefix(40))' is not a time between 2000 and 2100")
      }
      // A time's own offset is the participant's clock; else the one given (--time-zone,
      // --utc-offset), else UTC.
      let offset = t.offsetMinutes ?? columns.clock?.offsetMinutes(atUTC: utc) ?? 0
      return (utc, offset)
    }
    // A row that repeats an earlier one in every role (an export appended twice) is one
    // prompt: kept once, the repeats counted.
    struct Seen: Hashable {
      let participant: String, questionnaire: String
      let shown: Int64, scheduled: Int64?, opened: Int64?, submitted: Int64?
    }
    var seen = Set<Seen>()
    for r in csv.records {
      _ = try csv.nonBlank(r[who], columns.name("participant"), "a prompt without its participant")
      let scheduled = try time(r, scheduledAt, "scheduled")
      let delivered = try time(r, deliveredAt, "delivered")
      guard let (shown, offset) = delivered ?? scheduled else {
        let f = r[deliveredAt ?? scheduledAt!]
        throw csv.error(f, columns.name(deliveredAt != nil ? "delivered" : "scheduled"), "a prompt without its time")
      }
      var opened = try time(r, openedAt, "opened")?.0
      var submitted = try time(r, submittedAt, "submitted")?.0
      if let o = opened {
        guard let kept = pilot.notBefore(o, shown: shown, what: "openings") else {
          throw csv.error(r[openedAt!], columns.name("opened"), "opened more than 5 minutes before it was shown (\(columns.name(delivered != nil ? "delivered" : "scheduled")))")
        }
        opened = kept
      }
      if let s = submitted {
        guard let kept = pilot.notBefore(s, shown: opened ?? shown, what: "answers") else {
          throw csv.error(r[submittedAt!], columns.name("submitted"), "submitted more than 5 minutes before it was \(opened != nil ? "opened" : "shown")")
        }
        submitted = kept
      }
      let outcome: PilotPrompt.Outcome = submitted != nil ? .answered : opened != nil ? .partial : .unanswered
      let questionnaire = list.map { r[$0].text } ?? ""
      guard
        seen.insert(
          Seen(
            participant: r[who].text, questionnaire: questionnaire, shown: shown, scheduled: scheduled?.0, opened: opened,
            submitted: submitted)
        ).inserted
      else {
        pilot.leftOut["rows repeating an earlier row exactly (one kept)", default: 0] += 1
        continue
      }
      pilot.prompts.append(
        PilotPrompt(
          participant: r[who].text, shown: shown, utcOffsetMinutes: offset, outcome: outcome, opened: opened, submitted: submitted,
          questionnaire: questionnaire, scheduled: scheduled?.0, file: file, line: r[who].line))
    }
    pilot.sort()
    return pilot
  }
}
