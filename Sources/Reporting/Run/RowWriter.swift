import Foundation
import Measures
import Presentation
import Scenarios
import Study
import StudyModel

/// The per-row outputs of a run as participants finish: prompts, coverage, participants,
/// AWARE rows (each through its ``TableSink``) and Beiwe's files.
extension StudyRun {
  /// The per-row outputs of a run, open while it runs.
  final class Tables {
    var prompts: TableSink?
    /// Whether prompts.csv has the company columns (some variant records company).
    var company = false
    var coverage: TableSink?
    var participants: TableSink?
    var aware: TableSink?
    var sqlite: SQLiteDatabase?
    var beiweRoot: String?
    /// Beiwe's survey and phone files (`outputs.beiwe`), its passive sensor files
    /// (`outputs.beiwe_sensors`).
    var beiweSurveys = false
    var beiweSensors = false
    var awareId = 0

    func close() throws {
      try prompts?.close()
      try coverage?.close()
      try participants?.close()
      try aware?.close()
    }
  }

  static func writeRows(
    _ o: ParticipantOutcome, variant: String, v: Int, replication r: Int, plan: StudyPlan, tables: Tables, time study: Timestamps
  ) throws {
    // The participant's own clock.
    let time = study.in(plan.timeZones[o.zone].zone)
    if let f = tables.prompts {
      let names = plan.protocolPlan.surveyIDs
      for p in o.prompts + o.volunteered {
        // Volunteered answers without a schedule open the protocol's survey.
        let row = Rows.prompt(
          p, variant: variant, replication: r, participant: o.participant,
          questionnaire: p.schedule < names.count ? names[p.schedule] : plan.protocolPlan.survey.id, time: time,
          company: tables.company)
        try f.row(row)
      }
    }
    if let f = tables.coverage {
      let device = plan.devices[o.device].profile.name
      for c in o.coverageRows {
        let row = Rows.coverage(
          c, variant: variant, replication: r, participant: o.participant, device: device, os: o.os.rawValue,
          sensor: plan.protocolPlan.sensors[c.sensor].name)
        try f.row(row)
      }
    }
    if let f = tables.participants {
      // The participant's row, built the way the accumulator builds it.
      var single = StudyAccumulator(plan: plan, detailParticipants: 0, heatParticipants: 0)
      single.add(o)
      for pr in single.participantRows {
        let row = Rows.participant(
          pr, variant: variant, replication: r, device: plan.devices[o.device].profile.name,
          timeZone: plan.timeZones[o.zone].zone.name, person: o.engagement, classes: plan.compliance.classes)
        try f.row(row)
      }
    }
    if let f = tables.aware {
      let id = AWAREESMRows.deviceId(variant: v, replication: r, participant: o.participant)
      for p in o.prompts {
        for row in AWAREESMRows.rows(p, survey: plan.protocolPlan.survey(ofSchedule: p.schedule), os: o.os, deviceId: id, time: time, nextId: &tables.awareId) {
          try f.row(row)
        }
      }
    }
    if let root = tables.beiweRoot {
      // Beiwe's layout: a folder per participant, survey files per survey ([@Beiwe]).
      let folder = (root as NSString).appendingPathComponent("v\(v + 1)-r\(r + 1)/p\(o.participant + 1)")
      func directory(_ path: String) throws -> String {
        let full = (folder as NSString).appendingPathComponent(path)
        if !FileManager.default.fileExists(atPath: full) {
          try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        }
        return full
      }
      if let sensing = o.sensing, tables.beiweSensors {
        try writeBeiweSensors(o, sensing: sensing, plan: plan, time: time, directory: directory)
      }
      guard tables.beiweSurveys else { return }
      var timings: [String: CSVFile] = [:]
      for p in o.prompts {
        let survey = plan.protocolPlan.survey(ofSchedule: p.schedule)
        let expiry = plan.protocolPlan.expiry(ofSchedule: p.schedule)
        let rows = BeiweSurveys.timings(p, survey: survey, os: o.os, time: time, expiry: expiry)
        guard !rows.isEmpty else { continue }
        if timings[survey.id] == nil {
          timings[survey.id] = try CSVFile(
            path: (try directory("survey_timings") as NSString).appendingPathComponent("\(survey.id).csv"),
            header: BeiweSurveys.timingsHeader(o.os))
        }
        for row in rows { try timings[survey.id]!.row(row) }
        if let answers = BeiweSurveys.answers(p, survey: survey, os: o.os, expiry: expiry) {
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

  /// Beiwe's passive files of one participant: for each sensor with a Beiwe stream, a file per
  /// UTC hour with a row per sample the sensor collected (``SensingStretches``), so that the
  /// rows of a study hour are `coverage.csv`'s collected count.
  static func writeBeiweSensors(
    _ o: ParticipantOutcome, sensing: SensingStretches, plan: StudyPlan, time: Timestamps,
    directory: (String) throws -> String
  ) throws {
    for sensor in plan.protocolPlan.sensors {
      guard let stream = BeiweSensors.stream(of: sensor) else { continue }
      let values = BeiweSensors.values(stream, participant: o.participant, os: o.os)
      let folder = try directory(stream.name)
      var file: CSVFile?
      var name = ""
      try sensing.samples(of: sensor) { t in
        let ms = time.unix(t)
        let hourFile = BeiweSensors.fileName(hourOf: ms)
        if hourFile != name {
          try file?.close()
          name = hourFile
          let path = (folder as NSString).appendingPathComponent(hourFile)
          // A stretch may come back to an hour already written (samples are in order per
          // stretch): append to it.
          file = FileManager.default.fileExists(atPath: path)
            ? try CSVFile(appendingTo: path) : try CSVFile(path: path, header: stream.header)
        }
        try file!.row([String(ms)] + values)
      }
      try file?.close()
    }
  }
}
