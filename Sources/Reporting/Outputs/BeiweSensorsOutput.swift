import Foundation
import Scenarios
import Study
import StudyModel

/// Beiwe's passive sensor files (`outputs.beiwe_sensors`): for each sensor with a Beiwe
/// stream, a file per UTC hour with a row per sample the sensor collected
/// (``SensingStretches``), so that the rows of a study hour are `coverage.csv`'s collected
/// count.
final class BeiweSensorsOutput: RunOutput {
  let folder: RunFolder
  var detail: OutcomeDetail { .sensorSamples }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    try BeiweFolder.create(folder)
  }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.beiweSensors }

  /// Each sensor's hourly files, a row per sample collected.
  static func size(_ work: PlanWork) -> OutputSize {
    var size = OutputSize()
    for sensor in work.plan.protocolPlan.sensors {
      guard let stream = sensor.beiweStream else { continue }
      let samples = work.participantDays * Double(sensor.expectedPerHour) * 24 * collected(work.plan)
      size.fileBytes += samples * (rowBytes[stream] ?? 40) + work.participantDays * 24 * BeiweFolder.fileHeaderBytes
      size.files += work.participantDays * 24
    }
    return size
  }

  /// Bytes a Beiwe stream's row takes (measured on written files: `docs/outputs.md`).
  static let rowBytes: [String: Double] = ["gps": 40, "accel": 41, "gyro": 37, "magnetometer": 33, "devicemotion": 86]
  /// The share of a day's expected samples collected on each default kind of phone
  /// (`coverage_summary.csv` of a 14-day study on the four: ideal 1.00, ordinary 0.95, heavy
  /// 0.15, Low Power Mode 0.80 since it is suspended only when left unattended), 0.93 for a
  /// kind of the scenario's own.
  static let collectedShare: [String: Double] = ["ideal": 1.0, "non_controlled": 0.95, "heavy": 0.15, "low_power": 0.80]
  static func collected(_ plan: StudyPlan) -> Double {
    plan.devicesMean { collectedShare[$0.name] ?? 0.93 } ?? 0.93
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    guard let sensing = o.sensing else { return }
    let plan = folder.variant(v).plan
    let time = folder.clock(o, plan: plan)
    for sensor in plan.protocolPlan.sensors {
      guard let stream = BeiweSensors.stream(of: sensor, os: o.os) else { continue }
      let directory = try BeiweFolder.directory(folder, o, variant: v, replication: r, stream.name)
      var file: CSVFile?
      var name = ""
      try sensing.samples(of: sensor) { t in
        let ms = time.unix(t)
        let hourFile = BeiweSensors.fileName(hourOf: ms)
        if hourFile != name {
          try file?.close()
          name = hourFile
          let path = (directory as NSString).appendingPathComponent(hourFile)
          // A stretch may come back to an hour already written (samples are in order per
          // stretch): append to it.
          file = FileManager.default.fileExists(atPath: path)
            ? try CSVFile(appendingTo: path) : try CSVFile(path: path, header: stream.header)
        }
        try file!.row([String(ms)] + BeiweSensors.values(stream, at: t, movement: sensing.movement, os: o.os))
      }
      try file?.close()
    }
  }
}
