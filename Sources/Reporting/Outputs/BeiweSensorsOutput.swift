import Foundation
import Study
import StudyModel

/// Beiwe's passive sensor files (`outputs.beiwe_sensors`): for each sensor with a Beiwe
/// stream, a file per UTC hour with a row per sample the sensor collected
/// (``SensingStretches``), so that the rows of a study hour are `coverage.csv`'s collected
/// count.
final class BeiweSensorsOutput: StudyObserver {
  let folder: RunFolder
  var detail: OutcomeDetail { .sensorSamples }

  init(_ folder: RunFolder) { self.folder = folder }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    guard let sensing = o.sensing else { return }
    let plan = folder.variant(v).plan
    let time = folder.clock(o, plan: plan)
    for sensor in plan.protocolPlan.sensors {
      guard let stream = BeiweSensors.stream(of: sensor) else { continue }
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
