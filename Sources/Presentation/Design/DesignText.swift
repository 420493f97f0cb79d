import Foundation
import Scenarios
import Study
import StudyModel

/// `esmsim design`'s answer as text (the table and the cheapest design) and as JSON (what
/// `esm_design()` in R reads).
public enum DesignText {
  /// The designs tried, ordered by participants, prompts a day and days; the fewest days
  /// for each prompts a day; the cheapest.
  public static func text(_ r: DesignSearch.Result, space: DesignSpace) -> String {
    let share: Bool
    if case .shareReaching = r.target { share = true } else { share = false }
    func figure(_ x: Double) -> String { share ? String(format: "%.1f %%", 100 * x) : String(format: "%.1f", x) }
    var out = "# esmsim design: \(space.file), variant \(space.variant); target \(r.target.figure) ≥ \(figure(r.target.level))\n"
    out += "# searched: participants \(Self.list(r.participants)), days \(Self.list(r.days)), \(Self.list(r.perDay)) a day; "
      + "each design up to \(r.maxReplications) replications\n"
    out += "# each design with the scenario's seed (\(space.seed): the same people in every design); 95 % intervals from the simulation\n"
    out += "participants  days  per_day  \(r.target.figure.padding(toLength: 28, withPad: " ", startingAt: 0))  95 % interval     reps  reaches\n"
    for e in r.evaluations.sorted(by: { $0.point < $1.point }) {
      let interval = "[\(figure(e.low)), \(figure(e.high))]"
      out += String(participants: e.point.participants, days: e.point.days, perDay: e.point.perDay)
      out += figure(e.value).padding(toLength: 30, withPad: " ", startingAt: 0)
      out += interval.padding(toLength: 18, withPad: " ", startingAt: 0)
      out += String(e.replications).padding(toLength: 6, withPad: " ", startingAt: 0)
      out += e.reaches ? (e.clear ? "yes" : "yes (interval straddles)") : (e.clear ? "no" : "no (interval straddles)")
      out += "\n"
    }
    out += "\nfewest days that reach the target:\n"
    for f in r.frontier {
      if let b = f.best {
        out += "  \(f.participants) participants, \(f.perDay) a day: \(b.point.days) days (\(figure(b.value)) [\(figure(b.low)), \(figure(b.high))]"
        if let one = b.oneStudy { out += "; one study of \(f.participants): \(figure(one.lowerBound))–\(figure(one.upperBound))" }
        out += ")"
        // The replications ran out before the interval left the target: the day is uncertain.
        out += b.clear ? "\n" : " (interval straddles)\n"
      } else {
        out += "  \(f.participants) participants, \(f.perDay) a day: not within the days given\(f.triedUpTo.map { " (tried up to \($0))" } ?? "")\n"
      }
    }
    for s in r.skipped {
      out += "  \(s.participants) participants, \(s.perDay) a day: skipped, the scenario cannot run it (\(s.reason))\n"
    }
    if let c = r.cheapest {
      out += "cheapest in \(r.cost.rawValue): \(c.point) (\(r.cost.of(c.point)) \(r.cost.rawValue))\(c.clear ? "" : " (interval straddles)")\n"
    } else {
      out += "no design within the ranges reaches the target\n"
    }
    out += "# \(r.evaluations.count) designs simulated, \(r.participantDays) participant-days\n"
    if space.defaultPeople { out += Self.betweenStudies }
    return out
  }

  /// Said under a design of esmsim's default people: the spread between real studies, and how
  /// to size for a sample that answers less.
  static let betweenStudies =
    "# esmsim's default people: a real study's answered share (prompts answered) lies within \(BetweenStudies.halfWidth) of\n"
    + "# theirs 95 % of the time (docs/validation.md), and the designs above assume their level: to size for a sample\n"
    + "# that answers less, lower population.compliance.answer_probability, or fit a pilot (esmsim calibrate)\n"

  /// Values given as a list, or a range when they run on by one (5–30).
  static func list(_ v: [Int]) -> String {
    guard let first = v.first, let last = v.last else { return "none" }
    if v.count > 2 && last - first == v.count - 1 { return "\(first)–\(last)" }
    return v.map(String.init).joined(separator: ", ")
  }

  public static func json(_ r: DesignSearch.Result, space: DesignSpace) -> JSONValue {
    func evaluation(_ e: DesignSearch.Evaluation) -> JSONValue {
      .object([
        ("participants", .int(e.point.participants)), ("days", .int(e.point.days)), ("per_day", .int(e.point.perDay)),
        ("value", .finite(e.value)), ("low", .finite(e.low)), ("high", .finite(e.high)), ("replications", .int(e.replications)),
        ("reaches", .bool(e.reaches)), ("clear", .bool(e.clear)),
        ("one_study_low", e.oneStudy.map { .finite($0.lowerBound) } ?? .null),
        ("one_study_high", e.oneStudy.map { .finite($0.upperBound) } ?? .null),
        ("participant_days", .int(e.point.participantDays)), ("prompts", .int(e.point.prompts)),
      ])
    }
    return .object([
      ("scenario", .string(space.file)), ("variant", .string(space.variant)), ("target", .string(r.target.description)),
      ("figure", .string(r.target.figure)), ("level", .finite(r.target.level)), ("cost", .string(r.cost.rawValue)),
      (
        "searched",
        .object([
          ("participants", .array(r.participants.map { .int($0) })), ("days", .array(r.days.map { .int($0) })),
          ("per_day", .array(r.perDay.map { .int($0) })), ("replications", .int(r.maxReplications)),
          ("seed", .string(String(space.seed))),
        ])
      ),
      ("designs", .array(r.evaluations.sorted { $0.point < $1.point }.map(evaluation))),
      (
        "frontier",
        .array(
          r.frontier.map {
            .object([
              ("participants", .int($0.participants)), ("per_day", .int($0.perDay)),
              ("days", $0.best.map { .int($0.point.days) } ?? .null),
            ])
          })
      ),
      ("cheapest", r.cheapest.map(evaluation) ?? .null),
      (
        "skipped",
        .array(
          r.skipped.map {
            .object([("participants", .int($0.participants)), ("per_day", .int($0.perDay)), ("reason", .string($0.reason))])
          })
      ),
      ("participant_days_simulated", .int(r.participantDays)),
      // esmsim's default people: a real study's answered share lies within this many points
      // of theirs 95 % of the time (null: people of the scenario's own).
      ("between_studies_points", space.defaultPeople ? .finite(BetweenStudies.answeredHalfWidthPoints) : .null),
    ])
  }
}

extension String {
  fileprivate init(participants: Int, days: Int, perDay: Int) {
    self = String(participants).padding(toLength: 14, withPad: " ", startingAt: 0)
      + String(days).padding(toLength: 6, withPad: " ", startingAt: 0)
      + String(perDay).padding(toLength: 9, withPad: " ", startingAt: 0)
  }
}
