import Presentation
import Study
import Foundation
import Scenarios
import SimKernel
import StudyModel
import Testing

@testable import Calibration
@testable import Reporting

/// The closed loop of `esmsim calibrate`: simulate a pilot with known people (every
/// parameter away from the defaults), write its records as the platform would (AWARE esms
/// rows, Beiwe iOS timings), read them back, calibrate from the model's defaults (hours
/// flat), and recover every parameter the fit moves: each within 3.5 of its standard errors
/// (on the search's scale) of the value that generated it.
@Suite("Calibration: a pilot's people recovered from its records")
struct CalibrationTests {
  static let protocolText = """
    name: pilot
    duration: 8d
    population: {size: 200, os: {ios: 1}, devices: {non_controlled: 1}COMPLIANCE}
    protocol:
      window: "08:00-22:00"
      schedule: {algorithm: fixed-blocks, per_day: 6}
      expiry: 45m
      survey: {length: 15}
    """
  /// The generating people: the default classes with a larger low class, wider and falling
  /// faster, rising over the first days, looking more often, opening at once less, busy less,
  /// deferring to earlier in the window; where the records hold every prompt sent (m-Path's
  /// export, ESMira's with invitation_missed), leaving the phone unplugged twice as many
  /// nights (`charge`, 0.9 against the profiles' 0.95: the other records hold no prompt of a
  /// dead phone); break-offs at 0.1 a minute only where the platform
  /// records them (AWARE's rows do not: there the default rate, which the fit keeps).
  /// The classes are the defaults' (whose relative levels and trends a pilot cannot tell
  /// apart), their spreads 1.3 times, the low class's share 0.2, every weekly change 0.15 lower.
  static func truth(breakOffs: Bool, charge: Double? = nil) -> String {
    let d = CompliancePlan.defaultClasses
    let classes = d.enumerated().map { i, c in
      "{name: \(c.name), share: \(i == 0 ? 0.8 : 0.2), level: \(c.level), spread: \(c.spread * 1.3), weekly_change: \(c.weeklyChange - 0.15), weekly_change_sd: \(c.weeklyChangeSD)}"
    }.joined(separator: ", ")
    return ", compliance: {answer_probability: 0.8, classes: [\(classes)], first_days_change: 0.3, miss_persistence: 0.35, looks_per_hour: 10, alert_odds: 2, at_once: 0.35, at_once_weekly_change: -0.3, at_once_seconds: 40, reaction_seconds: 25, busy: 0.08, deferral_shape: 3.5\(charge.map { ", charge_nightly: \($0)" } ?? "")\(breakOffs ? ", break_off_per_minute: 0.1" : "")}"
  }
  /// The nightly charge of the people where the records hold every prompt sent.
  static let sentCharge = 0.9
  /// What generated the pilot, by estimate (spread_scale against the defaults' spreads;
  /// charge_nightly only fitted where the records hold every prompt sent).
  static func generating(breakOffs: Bool) -> [String: Double] {
    let d = CompliancePlan.defaultClasses
    var g = [
      "answer_probability": 0.8, "spread_scale": 1.3, "low_class_share": 0.2,
      "weekly_change": 0.8 * (d[0].weeklyChange - 0.15) + 0.2 * (d[1].weeklyChange - 0.15),
      "first_days_change": 0.3, "miss_persistence": 0.35, "looks_per_hour": 10, "alert_odds": 2, "at_once": 0.35, "at_once_seconds": 40,
      "reaction_seconds": 25, "busy": 0.08, "deferral_shape": 3.5, "at_once_weekly_change": -0.3, "charge_nightly": sentCharge,
    ]
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
    start.compliance.hourOdds = Array(repeating: 1, count: 24)
    return Calibrator.calibrate(
      pilot: ComplianceMoments(pilot), plan: start, recording: pilot.recording, seed: 99, simulatedPeople: 200, draws: 6,
      maxEvaluations: 400, threads: 2)
  }

  static func check(_ r: Calibrator.Result, pilot: Pilot, breakOffs: Bool) {
    let generating = generating(breakOffs: breakOffs)
    let parameters = Calibrator.parameters(ComplianceMoments(pilot), plan: try! plan(""), recording: pilot.recording)
    for e in r.estimates {
      let truth = generating[e.key]!
      let p = parameters.first { $0.key == e.key }!
      #expect(e.standardError.isFinite && e.standardError > 0, "\(e.key)")
      // On the search's scale: 3.5 standard errors (the dozen parameters' family error under 1 %).
      let distance = abs(p.coordinate(e.value) - p.coordinate(truth)) / e.standardError
      #expect(distance <= 3.5, "\(e.key): \(e.value) [\(e.low), \(e.high)], generated \(truth)")
    }
    // The core parameters are fitted (the others only where the pilot moves them).
    var core: Set = ["answer_probability", "spread_scale", "miss_persistence", "at_once", "looks_per_hour", "deferral_shape"]
    if pilot.recording.prompts == .sent { core.insert("charge_nightly") }
    #expect(core.isSubset(of: Set(r.estimates.map(\.key))), "\(r.estimates.map(\.key))")
    #expect(Set(r.estimates.map(\.key)).isSubset(of: Set(generating.keys)))
    #expect(r.draws.count == 6)
    // The hours of the window (08–21), against the default shape that generated them: each
    // within 4 of the standard errors the fit reports (the binomial one of the hour's
    // log-odds, the pilot's and the simulation's, over the hour odds' leverage on the answered
    // share), the family's error under 0.1 % across the 14; and those errors informative
    // (a standard error under 1.5 on the log scale).
    // The hours fitted: those of the window, all but at most two (an hour's leverage is
    // measured once, by simulation, and may fall under the rule by chance: then it is kept
    // at the scenario's odds and said).
    #expect(Set(r.hours.map(\.hour)).isSubset(of: Set(8...21)) && r.hours.count >= 12, "\(r.hours.map(\.hour))")
    let unfitted = Set(8...21).subtracting(r.hours.map(\.hour))
    #expect(unfitted.isEmpty || r.notIdentified.contains { $0.hasPrefix("hour_odds at") })
    let moments = ComplianceMoments(pilot)
    for h in r.hours {
      let hour = moments.byHour[h.hour]!
      let binomial = (2 / (Double(hour.count) * hour.share * (1 - hour.share))).squareRoot()
      #expect(h.standardError >= binomial * 0.99 && h.standardError < 1.5, "hour \(h.hour): se \(h.standardError)")
      #expect(
        abs(log(h.value / CompliancePlan.defaultHourOdds[h.hour])) <= 4 * h.standardError,
        "hour \(h.hour): \(h), n \(hour.count) at \(hour.share)")
    }
    // The morning dip is found (generated 0.36 at 08:00 against 1 at 09:00–11:00), where the
    // 08:00 hour is fitted (an hour left out by the leverage rule above is said instead).
    if let morning = r.hours.first(where: { $0.hour == 8 }) {
      #expect(morning.value < 0.7, "08:00: \(morning.value)")
    } else {
      let said = r.notIdentified.contains { line in
        guard line.hasPrefix("hour_odds at "), let end = line.range(of: " h (") else { return false }
        return line[line.index(line.startIndex, offsetBy: 13)..<end.lowerBound].split(separator: ", ").contains("8")
      }
      #expect(said, "\(r.notIdentified)")
    }
  }

  static func outcomes(breakOffs: Bool) throws -> (StudyPlan, [ParticipantOutcome]) {
    let plan = try plan(truth(breakOffs: breakOffs))
    return (plan, (0..<plan.participants).map { ParticipantSimulation.outcome(plan: plan, seed: 5, replication: 0, participant: UInt32($0)) })
  }

  /// The generated study (no break-offs) as the AWARE plugin's esms rows, read back as a pilot.
  static func awarePilot() throws -> Pilot {
    let (plan, outcomes) = try Self.outcomes(breakOffs: false)
    var rows: [[String]] = []
    var next = 0
    for o in outcomes {
      let id = AWAREESMRows.deviceId(variant: 0, replication: 0, participant: o.participant)
      for p in o.prompts { rows += AWAREESMRows.rows(p, survey: plan.protocolPlan.survey, os: o.os, deviceId: id, time: PilotReadTests.time, nextId: &next) }
    }
    return try PilotReaders.aware(try PilotReadTests.csv(header: AWAREESMRows.header, rows: rows), file: "esms.csv")
  }

  @Test("AWARE esms rows: every parameter the fit moves within 3.5 standard errors of the generating value")
  func aware() throws {
    let pilot = try Self.awarePilot()
    #expect(!pilot.recording.breakOffs)
    Self.check(try Self.recover(pilot), pilot: pilot, breakOffs: false)
  }

  @Test("Beiwe iOS survey timings: every parameter the fit moves within 3.5 standard errors of the generating value")
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

  /// The generated study written by `output` (an export of esmsim's own) into a scratch
  /// folder, and the files under `path` there.
  static func exported(breakOffs: Bool, charge: Double? = nil, path: String, _ output: (RunFolder) throws -> any StudyObserver) throws
    -> [(file: String, data: Data)]
  {
    let scenario = try Readers.scenario(
      Data(protocolText.replacingOccurrences(of: "COMPLIANCE", with: truth(breakOffs: breakOffs, charge: charge)).utf8), file: "pilot.yaml")
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-roundtrip-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    _ = try StudySimulation.simulate(scenario, options: .init(threads: 2), observers: [try output(RunFolder(dir, scenario: scenario))])
    let base = dir + "/" + path + "/"
    return try FileManager.default.contentsOfDirectory(atPath: base).sorted().map { ($0, FileManager.default.contents(atPath: base + $0)!) }
  }

  @Test("ESMira's export (with invitation_missed): every parameter the fit moves within 3.5 standard errors of the generating value")
  func esmira() throws {
    let pilot = try PilotReaders.esmira(try Self.exported(breakOffs: false, charge: Self.sentCharge, path: "esmira/v1-r1") { try ESMiraExportOutput($0, missed: true) })
    // Every prompt until a participant leaves the study (the app writes nothing after): with
    // the default dropout some leave within the 8 days.
    #expect(!pilot.recording.breakOffs && pilot.prompts.count < 200 * 8 * 6 && pilot.prompts.count > 9 * 200 * 8 * 6 / 10)
    Self.check(try Self.recover(pilot), pilot: pilot, breakOffs: false)
  }

  @Test("m-Path's export: every parameter the fit moves within 3.5 standard errors of the generating value")
  func mpath() throws {
    let files = try Self.exported(breakOffs: true, charge: Self.sentCharge, path: "mpath/v1-r1") { try MPathExportOutput($0) }
    let pilot = try PilotReaders.mpath(try #require(files.first { $0.file == "basic.csv" }).data, file: "basic.csv")
    #expect(pilot.recording.breakOffs && pilot.prompts.count == 200 * 8 * 6)
    Self.check(try Self.recover(pilot), pilot: pilot, breakOffs: true)
  }

  @Test("an hour whose share its odds cannot reach is pushed to a bound: kept at the scenario's odds and said, not reported as fitted")
  func hourAtBound() throws {
    var pilot = try Self.awarePilot()
    // 14:00-15:00: every prompt but one left unanswered (about 1 % answered against about 80 %).
    func hour(_ p: PilotPrompt) -> Int { Int(((p.shown / 60_000 + Int64(p.utcOffsetMinutes)) % 1440 + 1440) % 1440 / 60) }
    var kept = false
    for i in pilot.prompts.indices where hour(pilot.prompts[i]) == 14 && pilot.prompts[i].outcome == .answered {
      if !kept {
        kept = true
        continue
      }
      pilot.prompts[i].outcome = .unanswered
      pilot.prompts[i].opened = nil
      pilot.prompts[i].submitted = nil
    }
    let moments = ComplianceMoments(pilot)
    let share = try #require(moments.byHour[14]?.share)
    #expect(share > 0 && share < 0.03, "\(share)")
    let r = try Self.recover(pilot)
    #expect(!r.hours.contains { $0.hour == 14 }, "\(r.hours)")
    #expect(r.compliance.hourOdds[14] == 1, "the start's odds kept: \(r.compliance.hourOdds[14])")
    #expect(r.notIdentified.contains { $0.hasPrefix("hour_odds at 14 h (pushed to a bound") }, "\(r.notIdentified)")
    // Every other hour fitted stays inside the bounds.
    #expect(r.hours.allSatisfy { $0.value > 0.02 && $0.value < 50 })
  }
}
