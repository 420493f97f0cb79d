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
    population: {size: 100, os: {ios: 1}, devices: {non_controlled: 1}COMPLIANCE}
    protocol:
      window: "08:00-22:00"
      schedule: {algorithm: fixed-blocks, per_day: 6}
      expiry: 30m
    """
  static let truth = ", compliance: {answer_probability: 0.8, person_sd: 0.12, decline_per_day: 0.03, miss_persistence: 0.3, open_delay: 60s}"
  static let generating: [String: Double] = [
    "answer_probability": 0.8, "person_sd": 0.12, "decline_per_day": 0.03, "miss_persistence": 0.3, "open_delay": 60,
  ]

  static func plan(_ compliance: String) throws -> StudyPlan {
    let text = protocolText.replacingOccurrences(of: "COMPLIANCE", with: compliance)
    return try Readers.scenario(Data(text.utf8), file: "pilot.yaml").variants[0].plan
  }

  static func recover(_ pilot: Pilot, aware: Bool) throws -> Calibrator.Result {
    // From the defaults, but flat hours: the hour shape has to be found, not kept.
    var start = try plan("")
    start.compliance.hourMultipliers = Array(repeating: 1, count: 24)
    return Calibrator.calibrate(
      pilot: ComplianceMoments(pilot), plan: start, awareRows: aware, seed: 99, simulatedPeople: 100, bootstrap: 6,
      rounds: 2, iterations: 12)
  }

  static func check(_ r: Calibrator.Result) {
    for e in r.estimates {
      let truth = generating[e.key]!
      #expect(e.standardError.isFinite && e.standardError > 0, "\(e.key)")
      // Six refits: the se has 5 degrees of freedom, t(0.995, 5) = 4.03.
      #expect(abs(e.value - truth) <= 4.03 * e.standardError, "\(e.key): \(e.value) ± \(e.standardError), generated \(truth)")
    }
    #expect(Set(r.estimates.map(\.key)) == Set(generating.keys))
    // The hours of the window (08–21), against the default shape that generated them.
    #expect(r.hours.map(\.hour) == Array(8...21))
    // Jointly: the mean squared standardised deviation over the 14 hours. Each is t with 5
    // degrees of freedom (mean 5/3, variance 22.2), so the mean of 14 has sd 1.26: at most
    // 5/3 + 3 × 1.26 = 5.5.
    let z2 = r.hours.map { h -> Double in
      let d = (h.value - CompliancePlan.defaultHourMultipliers[h.hour]) / h.standardError
      return d * d
    }
    #expect(z2.reduce(0, +) / Double(z2.count) <= 5.5, "\(r.hours)")
    // The morning dip is found (generated 0.74 at 08:00 against 1.02 at 09:00–11:00).
    #expect(r.hours[0].value < 0.9, "08:00: \(r.hours[0].value)")
  }

  static func outcomes() throws -> (StudyPlan, [ParticipantOutcome]) {
    let plan = try plan(truth)
    return (plan, (0..<plan.participants).map { ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: UInt32($0)) })
  }

  @Test("AWARE esms rows: every identifiable parameter within 4 bootstrap se (t, 5 df) of the generating value")
  func aware() throws {
    let (plan, outcomes) = try Self.outcomes()
    var rows: [[String]] = []
    var next = 0
    for o in outcomes {
      let id = AWAREESMRows.deviceId(variant: 0, replication: 0, participant: o.participant)
      for p in o.prompts { rows += AWAREESMRows.rows(p, survey: plan.protocolPlan.survey, os: o.os, deviceId: id, time: PilotReadTests.time, nextId: &next) }
    }
    let pilot = try PilotReaders.aware(try PilotReadTests.csv(header: AWAREESMRows.header, rows: rows), file: "esms.csv")
    Self.check(try Self.recover(pilot, aware: true))
  }

  @Test("Beiwe iOS survey timings: every identifiable parameter within 4 bootstrap se (t, 5 df) of the generating value")
  func beiwe() throws {
    let (plan, outcomes) = try Self.outcomes()
    var pilot = Pilot()
    for o in outcomes {
      let rows = o.prompts.flatMap { BeiweSurveys.timings($0, survey: plan.protocolPlan.survey, os: .ios, time: PilotReadTests.time) }
      let data = try PilotReadTests.csv(header: BeiweSurveys.timingsHeader(.ios), rows: rows)
      pilot.prompts += try PilotReaders.beiweTimings(data, file: "p\(o.participant).csv", participant: "p\(o.participant)").prompts
    }
    Self.check(try Self.recover(pilot, aware: false))
  }
}
