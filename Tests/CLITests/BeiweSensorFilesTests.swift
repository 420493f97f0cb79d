import Foundation
import Testing

@Suite("Beiwe's passive sensor files")
struct BeiweSensorFilesTests {
  @Test("the rows of each study hour in beiwe/…/<stream>/ are coverage.csv's collected samples, sensor by sensor, participant by participant")
  func coverageFromFiles() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-beiwe-sensors-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    // Phones that lose data (heavy use, Low Power Mode, Android with Doze, "While using"), and
    // each way a sensor records: the app's runs, the location's own, the network's, the
    // coprocessor's; weather has no Beiwe stream and is not written.
    let scenario = """
      name: beiwe sensors
      seed: 41
      start_date: 2026-01-05
      duration: 3d
      population:
        size: 20
        devices: {non_controlled: 0.4, heavy: 0.3, low_power: 0.3}
        os: {ios: 0.6, android: 0.4}
        phones: {ios_location: {always: 0.5, while_using: 0.5}}
      protocol:
        window: "08:00-22:00"
        schedule: {algorithm: fixed-blocks, per_day: 4}
        silent_push: 30m
        sensors:
          location: {every: 3m}
          accelerometer: {every: 1m}
          gyroscope: {every: 5m}
          magnetometer: {every: 1m, needs_network: true}
          devicemotion: {every: 5m, coprocessor: true}
          weather: {every: 10m, needs_network: true}
      outputs: {beiwe_sensors: true, coverage: true, report: false, sqlite: false}
      """
    let file = dir.appendingPathComponent("s.yaml")
    try scenario.write(to: file, atomically: true, encoding: .utf8)
    let out = dir.appendingPathComponent("out")
    let run = try ESMSimBinary.run(["run", file.path, "--output", out.path])
    #expect(run.status == 0, "\(run.stderr)")
    // coverage.csv: collected by (participant, sensor, study hour).
    var coverage: [String: Int] = [:]
    var lost = 0
    let lines = try String(contentsOf: out.appendingPathComponent("coverage.csv"), encoding: .utf8).split(separator: "\n")
    let header = lines[0].split(separator: ",").map(String.init)
    let (p, d, h, s, c, e) = (
      header.firstIndex(of: "participant")!, header.firstIndex(of: "day")!, header.firstIndex(of: "hour")!,
      header.firstIndex(of: "sensor")!, header.firstIndex(of: "collected")!, header.firstIndex(of: "expected")!
    )
    let streams = ["location": "gps", "accelerometer": "accel", "gyroscope": "gyro", "magnetometer": "magnetometer", "devicemotion": "devicemotion"]
    for line in lines.dropFirst() {
      let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      guard let stream = streams[f[s]] else { continue }
      let hour = (Int(f[d])! - 1) * 24 + Int(f[h])!
      coverage["\(f[p])/\(stream)/\(hour)"] = Int(f[c])!
      if Int(f[c])! < Int(f[e])! { lost += 1 }
    }
    #expect(lost > 50, "phones that lose data: \(lost) participant-hours short")
    // The files: rows by (participant, stream, study hour) from their timestamps.
    let origin: Int64 = 1_767_571_200_000  // 2026-01-05T00:00:00Z
    var fromFiles: [String: Int] = [:]
    // Each participant's GPS latitudes (the places and trips of their days).
    var latitudes: [String: [Double]] = [:]
    let root = out.appendingPathComponent("beiwe/v1-r1")
    for participant in try FileManager.default.contentsOfDirectory(atPath: root.path) {
      let folder = root.appendingPathComponent(participant)
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("weather").path))
      for stream in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(stream).path) {
          let text = try String(contentsOf: folder.appendingPathComponent(stream).appendingPathComponent(name), encoding: .utf8)
          let rows = text.split(separator: "\n")
          #expect(rows[0].hasPrefix("timestamp,"))
          for row in rows.dropFirst() {
            let ms = Int64(row.prefix { $0 != "," })!
            let hour = Int((ms - origin) / 3_600_000)
            // The file is the row's UTC hour.
            #expect(name.hasSuffix(String(format: " %02d_00_00.csv", hour % 24)))
            fromFiles["\(participant.dropFirst())/\(stream)/\(hour)", default: 0] += 1
            if stream == "gps" { latitudes[participant, default: []].append(Double(row.split(separator: ",")[1])!) }
          }
        }
      }
    }
    // Each participant's system (participants.csv): Android has no device motion stream.
    let people = try String(contentsOf: out.appendingPathComponent("participants.csv"), encoding: .utf8).split(separator: "\n")
    let columns = people[0].split(separator: ",").map(String.init)
    let (who, os) = (columns.firstIndex(of: "participant")!, columns.firstIndex(of: "os")!)
    let android = Set(people.dropFirst().map { $0.split(separator: ",").map(String.init) }.filter { $0[os] == "android" }.map { $0[who] })
    #expect(!android.isEmpty && android.count < 20)
    let written = coverage.filter { $0.value > 0 && !(android.contains(String($0.key.prefix { $0 != "/" })) && $0.key.contains("/devicemotion/")) }
    #expect(written.count > 500)
    #expect(fromFiles == written)
    // Android's gyro and magnetometer keep their accuracy column; iOS's do not.
    for participant in try FileManager.default.contentsOfDirectory(atPath: root.path) {
      let isAndroid = android.contains(String(participant.dropFirst()))
      for stream in ["gyro", "magnetometer"] {
        let folder = root.appendingPathComponent(participant).appendingPathComponent(stream)
        guard let first = try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().first else { continue }
        let header = try String(contentsOf: folder.appendingPathComponent(first), encoding: .utf8).prefix { $0 != "\n" }
        #expect(header == (isAndroid ? "timestamp,accuracy,x,y,z" : "timestamp,x,y,z"), "\(participant) \(stream)")
      }
      #expect(!isAndroid || !FileManager.default.fileExists(atPath: root.appendingPathComponent(participant).appendingPathComponent("devicemotion").path))
    }
    // The phones move: a participant's fixes span more than a kilometre north to south for
    // most of them (work is 2-15 km from home in a direction of its own; 0.009° ≈ 1 km).
    let moving = latitudes.values.filter { ($0.max()! - $0.min()!) > 0.009 }
    #expect(latitudes.count > 10 && Double(moving.count) > 0.6 * Double(latitudes.count), "\(moving.count) of \(latitudes.count)")
  }
}
