import Study
import SimKernel
import StudyModel

/// Beiwe's passive sensor files ([@Beiwe], its iOS data formats): the streams esmsim's sensors
/// map to by name, their headers, and a row per sample. Only the timing is simulated: the
/// values are those of a phone lying still (gravity on z, no rotation) at a fixed point per
/// participant, so that a pipeline reads realistic gaps, not realistic movement.
public enum BeiweSensors {
  /// A Beiwe stream: its folder name and header.
  public struct Stream: Sendable, Equatable {
    public let name: String
    public let header: [String]
  }

  static let gps = Stream(name: "gps", header: ["timestamp", "latitude", "longitude", "altitude", "accuracy"])
  static let accel = Stream(name: "accel", header: ["timestamp", "accuracy", "x", "y", "z"])
  static let gyro = Stream(name: "gyro", header: ["timestamp", "x", "y", "z"])
  static let magnetometer = Stream(name: "magnetometer", header: ["timestamp", "x", "y", "z"])
  static let deviceMotion = Stream(
    name: "devicemotion",
    header: [
      "timestamp", "roll", "pitch", "yaw", "rotation_rate_x", "rotation_rate_y", "rotation_rate_z", "gravity_x",
      "gravity_y", "gravity_z", "user_accel_x", "user_accel_y", "user_accel_z", "magnetic_field_calibration_accuracy",
      "magnetic_field_x", "magnetic_field_y", "magnetic_field_z",
    ])

  /// The Beiwe stream of a sensor (``SensorPlan/beiweStream``; nil: Beiwe has none).
  public static func stream(of sensor: SensorPlan) -> Stream? {
    [gps, accel, gyro, magnetometer, deviceMotion].first { $0.name == sensor.beiweStream }
  }

  /// The values after the timestamp, the same for every row of a participant's stream.
  public static func values(_ stream: Stream, participant: Int, os: OperatingSystem) -> [String] {
    switch stream.name {
    case "gps":
      // A point per participant on a 0.01° grid from 51.5 N, 0.1 W (no movement simulated).
      let lat = 51.5 + Double(participant % 50) * 0.01
      let lon = -0.1 - Double(participant / 50 % 50) * 0.01
      return [NumberText.fixed(lat, 5), NumberText.fixed(lon, 5), "30", "65"]
    case "accel": return [os == .ios ? "iOS" : "unknown", "0", "0", "-1"]
    case "devicemotion": return ["0", "0", "0", "0", "0", "0", "0", "0", "-1", "0", "0", "0", "unknown", "0", "0", "0"]
    default: return ["0", "0", "0"]
    }
  }

  /// The hourly file a sample at Unix milliseconds `ms` goes to: `YYYY-MM-DD HH_00_00.csv`,
  /// the UTC hour (esmsim's layout: one file per stream and hour).
  public static func fileName(hourOf ms: Int64) -> String {
    let hours = Int(ms.quotientAndRemainder(dividingBy: 3_600_000).quotient) - (ms < 0 && ms % 3_600_000 != 0 ? 1 : 0)
    let days = hours >= 0 ? hours / 24 : (hours - 23) / 24
    let (y, m, d) = Timestamps.civil(days)
    let h = hours - days * 24
    func two(_ x: Int) -> String { x < 10 ? "0\(x)" : "\(x)" }
    return "\(y)-\(two(m))-\(two(d)) \(two(h))_00_00.csv"
  }
}
