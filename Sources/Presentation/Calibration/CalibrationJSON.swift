import Calibration
import Foundation
import Scenarios
import SimKernel
import StudyModel

/// `esmsim calibrate`'s results as JSON (beside `--output`): what was read, the protocol,
/// the estimates, what is not identified, the check; what `esm_calibrate()` in R reads.
public enum CalibrationJSON {
  public static func value(_ run: CalibrationRun) -> JSONValue {
    let m = run.moments
    let r = run.result
    var members: [(String, JSONValue)] = [
      (
        "pilot",
        .object([
          ("format", .string(run.format.rawValue)), ("participants", .int(m.people)), ("prompts", .int(m.prompts.count)),
          ("days", .int(m.days)), ("answered", .finite(m.rate)),
          ("kept_at_least", run.pilot.recording.keptAtLeast.map { .finite($0) } ?? .null),
          ("kept_share_simulated", r.keptShare.map { .finite($0) } ?? .null),
          ("left_out", .array(run.pilot.leftOut.sorted { $0.key < $1.key }.map { .object([("what", .string($0.key)), ("count", .int($0.value))]) })),
          ("adjusted", .array(run.pilot.adjusted.sorted { $0.key < $1.key }.map { .object([("what", .string($0.key)), ("count", .int($0.value))]) })),
        ])
      ),
      (
        "protocol",
        .object([
          ("source", .string(run.proposed == nil ? run.scenario : "proposed from the records")),
          ("scenario", run.proposed.map { .string($0.yaml) } ?? .null),
          ("notes", .array((run.proposed?.notes ?? []).map { .string($0) })),
        ])
      ),
      ("estimates", estimates(r)),
      ("moments", moments(r)),
      ("simulations", .int(r.evaluations)),
      ("compliance", CalibrationText.fitted(r.compliance)),
      ("not_identified", .array(r.notIdentified.map { .string($0) })),
      ("block", .string(CalibrationText.text(run).split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }.joined(separator: "\n"))),
    ]
    if let c = run.check { members.append(("check", check(c))) }
    return .object(members)
  }

  /// Every estimate with its interval, the hour odds' (log-scale intervals) after them.
  static func estimates(_ r: Calibrator.Result) -> JSONValue {
    .array(
      r.estimates.map {
        .object([
          ("parameter", .string($0.key)), ("value", .finite($0.value)), ("low", .finite($0.low)), ("high", .finite($0.high)),
          ("standard_error", .finite($0.standardError)), ("at_bound", .bool($0.atBound)), ("reason", .string($0.reason)),
        ])
      } + r.hours.map {
        .object([
          ("parameter", .string("hour_odds[\($0.hour)]")), ("value", .finite($0.value)),
          ("low", .finite($0.value * exp(-1.96 * $0.standardError))), ("high", .finite($0.value * exp(1.96 * $0.standardError))),
          ("standard_error", .finite($0.standardError)), ("at_bound", .bool(false)), ("reason", .string("")),
        ])
      })
  }

  /// Each moment, the pilot's against the simulation's at the estimate.
  static func moments(_ r: Calibrator.Result) -> JSONValue {
    .array(
      r.moments.map {
        .object([
          ("moment", .string($0.name)), ("pilot", .finite($0.pilot)), ("simulated", .finite($0.simulated)),
          ("standard_error", .finite($0.standardError)),
        ])
      })
  }

  /// The held-out check: its split, each figure observed against its prediction, and the
  /// fit on the part kept that the predictions draw from (`fit`: its estimates, moments,
  /// fitted people and what that part cannot identify).
  static func check(_ c: PredictiveCheck) -> JSONValue {
    .object([
      ("holdout", .string(c.holdout.description)), ("fit_prompts", .int(c.fitPrompts)), ("check_prompts", .int(c.checkPrompts)),
      ("check_participants", .int(c.checkParticipants)), ("simulations", .int(c.simulations)),
      ("inside", .int(c.inside.count)), ("figures_observed", .int(c.inside.of)),
      (
        "figures",
        .array(
          c.rows.map {
            .object([
              ("figure", .string($0.figure.key)), ("unit", .string({ if case .wait = $0.figure { "minutes" } else { "share" } }($0))),
              ("observed", .finite($0.observed)), ("predicted", .finite($0.predicted)), ("low", .finite($0.low)),
              ("high", .finite($0.high)), ("inside", $0.observed.isFinite ? .bool($0.inside) : .null),
            ])
          })
      ),
      (
        "fit",
        .object([
          ("estimates", estimates(c.fit)), ("moments", moments(c.fit)), ("compliance", CalibrationText.fitted(c.fit.compliance)),
          ("not_identified", .array(c.fit.notIdentified.map { .string($0) })),
        ])
      ),
    ])
  }
}
