import Study
import SimKernel
import StudyModel

/// Beiwe's passive sensor files ([@Beiwe], its iOS data formats): the streams esmsim's sensors
/// map to by name, their headers, and a row per sample. The timing is the simulation's; the
/// values follow the participant's day (``Movement``: places, trips, exercise), the
/// magnetometer a constant field with noise.
public enum BeiweSensors {
  /// A Beiwe stream: its folder name and header.
  public struct Stream: Sendable, Equatable {
    public let name: String
    public let header: [String]
    /// Whether its rows carry the sensor's accuracy after the timestamp.
    var hasAccuracy: Bool { header.count > 1 && header[1] == "accuracy" }
  }

  static let gps = Stream(name: "gps", header: ["timestamp", "latitude", "longitude", "altitude", "accuracy"])
  static let accel = Stream(name: "accel", header: ["timestamp", "accuracy", "x", "y", "z"])
  static let gyro = Stream(name: "gyro", header: ["timestamp", "x", "y", "z"])
  static let magnetometer = Stream(name: "magnetometer", header: ["timestamp", "x", "y", "z"])
  /// Android's gyro and magnetometer keep the accuracy column iOS removed (seed 003: "Gyro:
  /// accuracy removed", from the format documented before, Android's), as its accel does.
  static let gyroAndroid = Stream(name: "gyro", header: ["timestamp", "accuracy", "x", "y", "z"])
  static let magnetometerAndroid = Stream(name: "magnetometer", header: ["timestamp", "accuracy", "x", "y", "z"])
  static let deviceMotion = Stream(
    name: "devicemotion",
    header: [
      "timestamp", "roll", "pitch", "yaw", "rotation_rate_x", "rotation_rate_y", "rotation_rate_z", "gravity_x",
      "gravity_y", "gravity_z", "user_accel_x", "user_accel_y", "user_accel_z", "magnetic_field_calibration_accuracy",
      "magnetic_field_x", "magnetic_field_y", "magnetic_field_z",
    ])

  /// The Beiwe stream of a sensor (``SensorPlan/beiweStream``; nil: Beiwe has none) on a
  /// phone of `os`: Android's gyro and magnetometer with their accuracy, and no device motion
  /// (an iOS stream: Core Motion's).
  public static func stream(of sensor: SensorPlan, os: OperatingSystem = .ios) -> Stream? {
    let streams = os == .ios ? [gps, accel, gyro, magnetometer, deviceMotion] : [gps, accel, gyroAndroid, magnetometerAndroid]
    return streams.first { $0.name == sensor.beiweStream }
  }

  /// The values after the timestamp of a sample at `t`.
  public static func values(_ stream: Stream, at t: SimTime, movement m: Movement, os: OperatingSystem) -> [String] {
    func f(_ x: Double, _ digits: Int = 4) -> String { NumberText.fixed(x, digits) }
    // The accuracy column where the stream has one: iOS writes its device type there.
    let accuracy = stream.hasAccuracy ? [os == .ios ? "iOS" : "unknown"] : []
    switch stream.name {
    case "gps":
      let p = m.fix(at: t)
      return [f(p.latitude, 6), f(p.longitude, 6), "30", f(Movement.accuracy, 0)]
    case "accel":
      let a = m.acceleration(at: t)
      return accuracy + [f(a.0), f(a.1), f(a.2)]
    case "gyro":
      let r = m.rotation(at: t)
      return accuracy + [f(r.0), f(r.1), f(r.2)]
    case "magnetometer":
      let b = m.field(at: t)
      return accuracy + [f(b.0, 2), f(b.1, 2), f(b.2, 2)]
    default:
      // Device motion: attitude 0, the rotation rate, gravity on z, the user's acceleration
      // (the accelerometer's without gravity), the field uncalibrated.
      let a = m.acceleration(at: t)
      let r = m.rotation(at: t)
      return ["0", "0", "0", f(r.0), f(r.1), f(r.2), "0", "0", "-1", f(a.0), f(a.1), f(a.2 + 1), "unknown", "0", "0", "0"]
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
