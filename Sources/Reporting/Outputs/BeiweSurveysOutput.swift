import Foundation
import Presentation
import Scenarios
import Study
import StudyModel

/// Beiwe's folder of a run (`beiwe/`): a folder per variant, replication and participant
/// ([@Beiwe]).
enum BeiweFolder {
  static let name = "beiwe"
  /// The bytes of a file's header (for the size estimate).
  static let fileHeaderBytes = 45.0

  /// Creates `beiwe/` in the results folder, once for both Beiwe outputs.
  static func create(_ folder: RunFolder) throws {
    guard !FileManager.default.fileExists(atPath: (folder.directory as NSString).appendingPathComponent(name)) else { return }
    try FileManager.default.createDirectory(atPath: folder.path(name), withIntermediateDirectories: false)
  }

  /// The folder `path` of participant `o` in variant `v` and replication `r`, created if new.
  static func directory(_ folder: RunFolder, _ o: ParticipantOutcome, variant v: Int, replication r: Int, _ path: String) throws
    -> String
  {
    let root = (folder.directory as NSString).appendingPathComponent(name)
    let participant = (root as NSString).appendingPathComponent("v\(v + 1)-r\(r + 1)/p\(o.participant + 1)")
    let full = (participant as NSString).appendingPathComponent(path)
    if !FileManager.default.fileExists(atPath: full) {
      try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
    }
    return full
  }
}

/// Beiwe's survey files (`outputs.beiwe`): each survey's timings and answers, and on iPhones
/// the app's Reachability and PowerState files.
final class BeiweSurveysOutput: RunOutput {
  let folder: RunFolder
  var detail: OutcomeDetail { [.phoneEvents, .answers] }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    try BeiweFolder.create(folder)
  }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.beiwe }

  /// Per participant two timings files and a file of answers per prompt answered.
  static func size(_ work: PlanWork) -> OutputSize {
    let people = Double(work.plan.participants)
    return OutputSize(
      fileBytes: work.prompts * (work.items * 2 * 50 + 120) + people * 3 * BeiweFolder.fileHeaderBytes,
      files: work.prompts * 0.7 + people * 3)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let plan = folder.variant(v).plan
    let time = folder.clock(o, plan: plan)
    func directory(_ path: String) throws -> String { try BeiweFolder.directory(folder, o, variant: v, replication: r, path) }
    var timings: [String: CSVFile] = [:]
    let own = OwnItemAnswers(o, plan: plan)
    for (i, p) in o.prompts.enumerated() {
      let survey = own.surveyItems(plan.protocolPlan.survey(ofSchedule: p.schedule))
      let expiry = plan.protocolPlan.expiry(ofSchedule: p.schedule)
      let answersNow = own.at(i)
      let rows = BeiweSurveys.timings(p, survey: survey, os: o.os, time: time, expiry: expiry, own: answersNow)
      guard !rows.isEmpty else { continue }
      if timings[survey.id] == nil {
        timings[survey.id] = try CSVFile(
          path: (try directory("survey_timings") as NSString).appendingPathComponent("\(survey.id).csv"),
          header: BeiweSurveys.timingsHeader(o.os))
      }
      for row in rows { try timings[survey.id]!.row(row) }
      if let answers = BeiweSurveys.answers(p, survey: survey, os: o.os, expiry: expiry, own: answersNow) {
        let stamp = time.unix(p.submitted >= 0 ? p.submitted : BeiweSurveys.expiry(of: p, expiry) ?? p.closed)
        let file = try CSVFile(
          path: (try directory("survey_answers/\(survey.id)") as NSString).appendingPathComponent("\(stamp).csv"),
          header: BeiweSurveys.answersHeader)
        for row in answers { try file.row(row) }
        try file.close()
      }
    }
    for file in timings.values { try file.close() }
    if let events = o.phoneEvents, o.os == .ios {
      let reach = try CSVFile(
        path: (try directory("") as NSString).appendingPathComponent("reachability.csv"),
        header: BeiwePhoneEvents.reachabilityHeader)
      for e in events.reachability { try reach.row([String(time.unix(e.time)), BeiwePhoneEvents.name(e.network)]) }
      try reach.close()
      let power = try CSVFile(
        path: (try directory("") as NSString).appendingPathComponent("power_state.csv"),
        header: BeiwePhoneEvents.powerStateHeader)
      for e in events.power {
        try power.row([String(time.unix(e.time)), BeiwePhoneEvents.name(e.event), e.level.isFinite ? NumberText.fixed(e.level, 0) : ""])
      }
      try power.close()
    }
  }
}
