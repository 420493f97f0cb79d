import Presentation
import Study
import Foundation
import Scenarios
import SimKernel
import StudyModel
import Testing

@testable import Calibration
@testable import Reporting

/// The closed loop of `esmsim calibrate`: simulate a pilot with known compliance, write its
/// records as the platform would (AWARE esms rows, Beiwe iOS timings), read them back,
/// calibrate from the model's defaults (hours flat), and recover every identifiable parameter within its
/// bootstrap standard error times t(0.995) for the refits' degrees of freedom.
@Suite("Calibration: a pilot's compliance recovered from its records")
struct CalibrationTests {
  static let protocolText = """
    name: pilot
    duration: 8d
    population: {size: 200, os: {ios: 1}, devices: {non_controlled: 1}COMPLIANCE}
    protocol:
      window: "08:00-22:00"
      schedule: {algorithm: fixed-blocks, per_day: 6}
      expiry: 30m
      survey: {length: 15}
    """
  /// The generating compliance; break-offs at 0.1 a minute only where the platform records
  /// them (AWARE's rows do not: there the default rate, which the fit keeps, generates them).
  static func truth(breakOffs: Bool) -> String {
    ", compliance: {answer_probability: 0.8, person_sd: 0.12, decline_per_week: 0.3, miss_persistence: 0.3, open_delay: 60s\(breakOffs ? ", break_off_per_minute: 0.1" : "")}"
  }
  /// What generated the pilot; the break-off rate only where the platform records break-offs.
  static func generating(breakOffs: Bool) -> [String: Double] {
    var g = ["answer_probability": 0.8, "person_sd": 0.12, "decline_per_week": 0.3, "miss_persistence": 0.3, "open_delay": 60]
    if breakOffs { g["break_off_per_minute"] = 0.1 }
    return g
  }

  static func plan(_ compliance: String) throws -> StudyPlan {
    let text = protocolText.replacingOccurrences(of: "COMPLIANCE", with: compliance)
    return try Readers.scenario(Data(text.utf8), file: "pilot.yaml").variants[0].plan
  }

  static func recover(_ pilot: Pilot) throws -> Calibrator.Result {
    // From the defaults, but flat hours: the hour shape has to be found, not kept.
    var start = try plan("")
    start.compliance.hourMultipliers = Array(repeating: 1, count: 24)
    return Calibrator.calibrate(
      pilot: ComplianceMoments(pilot), plan: start, recording: pilot.recording, seed: 99, simulatedPeople: 200, bootstrap: 6,
      rounds: 6, iterations: 12)
  }

  static func check(_ r: Calibrator.Result, pilot: Pilot, breakOffs: Bool) {
    let generating = generating(breakOffs: breakOffs)
    for e in r.estimates {
      let truth = generating[e.key]!
      #expect(e.standardError.isFinite && e.standardError > 0, "\(e.key)")
      // Six refits: the se has 5 degrees of freedom, t(0.995, 5) = 4.03.
      #expect(abs(e.value - truth) <= 4.03 * e.standardError, "\(e.key): \(e.value) ± \(e.standardError), generated \(truth)")
    }
    #expect(Set(r.estimates.map(\.key)) == Set(generating.keys))
    #expect(r.refits.count == 6)
    // The hours of the window (08–21), against the default shape that generated them.
    #expect(r.hours.map(\.hour) == Array(8...21))
    // Each hour within 4 standard errors of the default shape that generated it, the error
    // the binomial one of an hour's share in the pilot and in the simulation (as many
    // people): relative sd √(2 (1 − p) / (p n)) for n prompts answered at p. (The refits are
    // one round from the estimate: their se is too small a yardstick for 14 hours at once;
    // z = 4 keeps the family's error under 0.1 % across the 14.)
    let moments = ComplianceMoments(pilot)
    for h in r.hours {
      let hour = moments.byHour[h.hour]!
      let se = (2 * (1 - hour.share) / (hour.share * Double(hour.count))).squareRoot()
      #expect(abs(h.value / CompliancePlan.defaultHourMultipliers[h.hour] - 1) <= 4 * se, "hour \(h.hour): \(h), n \(hour.count) at \(hour.share)")
    }
    // The morning dip is found (generated 0.74 at 08:00 against 1.02 at 09:00–11:00).
    #expect(r.hours[0].value < 0.9, "08:00: \(r.hours[0].value)")
  }

  static func outcomes(breakOffs: Bool) throws -> (StudyPlan, [ParticipantOutcome]) {
    let plan = try plan(truth(breakOffs: breakOffs))
    return (plan, (0..<plan.participants).map { ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: UInt32($0)) })
  }

  @Test("AWARE esms rows: every identifiable parameter within 4 bootstrap se (t, 5 df) of the generating value")
  func aware() throws {
    let (plan, outcomes) = try Self.outcomes(breakOffs: false)
    var rows: [[String]] = []
    var next = 0
    for o in outcomes {
      let id = AWAREESMRows.deviceId(variant: 0, replication: 0, participant: o.participant)
      for p in o.prompts { rows += AWAREESMRows.rows(p, survey: plan.protocolPlan.survey, os: o.os, deviceId: id, time: PilotReadTests.time, nextId: &next) }
    }
    let pilot = try PilotReaders.aware(try PilotReadTests.csv(header: AWAREESMRows.header, rows: rows), file: "esms.csv")
    #expect(!pilot.recording.breakOffs)
    Self.check(try Self.recover(pilot), pilot: pilot, breakOffs: false)
  }

  @Test("Beiwe iOS survey timings: every identifiable parameter within 4 bootstrap se (t, 5 df) of the generating value")
  func beiwe() throws {
    let (plan, outcomes) = try Self.outcomes(breakOffs: true)
    var parts: [Pilot] = []
    for o in outcomes {
      let rows = o.prompts.flatMap { BeiweSurveys.timings($0, survey: plan.protocolPlan.survey, os: .ios, time: PilotReadTests.time) }
      let data = try PilotReadTests.csv(header: BeiweSurveys.timingsHeader(.ios), rows: rows)
      parts.append(try PilotReaders.beiweTimings(data, file: "p\(o.participant).csv", participant: "p\(o.participant)"))
    }
    let pilot = Pilot(merging: parts)
    #expect(pilot.recording.breakOffs && pilot.prompts.contains { $0.opened != nil && $0.outcome != .answered })
    Self.check(try Self.recover(pilot), pilot: pilot, breakOffs: true)
  }
}
