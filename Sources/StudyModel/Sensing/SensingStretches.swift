import SimKernel

/// The stretches a participant's sensors recorded in, kept after the run when the samples
/// themselves are written (`outputs.beiwe_sensors`): ``samples(of:_:)`` gives each periodic
/// sensor's sample times by the rule ``CoverageCalculator`` counts them with, so that files
/// written from them hold, hour by hour, what `coverage.csv` counts as collected.
public struct SensingStretches: Sendable {
  /// When the app ran and recorded; when it could record the location (nil: whenever it ran).
  public let runs: Intervals
  public let locationRuns: Intervals?
  /// When the phone was on (a coprocessor sensor records then), and when the app could use
  /// the network in the background (a sensor that needs it records then).
  public let phoneOn: Intervals
  public let networkUsable: Intervals
  /// The end of the participant's whole hours in the study (coverage counts no later hour).
  public let end: SimTime

  public init(runs: Intervals, locationRuns: Intervals?, phoneOn: Intervals, networkUsable: Intervals, enrolledUntil: SimTime) {
    self.runs = runs
    self.locationRuns = locationRuns
    self.phoneOn = phoneOn
    self.networkUsable = networkUsable
    end = SimTime(Int(enrolledUntil / Tick.hour)) * Tick.hour
  }

  /// Calls `body` with every sample time of a periodic sensor, in order (event sensors: none):
  /// a grid restarted at each run stretch's start (a coprocessor's at midnight of day 0, over
  /// the phone's on-stretches), within the stretches, before ``end``.
  public func samples(of sensor: SensorPlan, _ body: (SimTime) throws -> Void) rethrows {
    guard case .periodic(let period) = sensor.kind else { return }
    func grid(origin: SimTime, from a: SimTime, to b: SimTime) throws {
      guard a < b else { return }
      var t = a <= origin ? origin : origin + (a - origin + period - 1) / period * period
      while t < b {
        try body(t)
        t += period
      }
    }
    if sensor.coprocessor {
      for r in phoneOn.spans where r.start < end { try grid(origin: 0, from: r.start, to: min(r.end, end)) }
    } else if sensor.needsNetwork {
      for r in runs.spans where r.start < end {
        for u in networkUsable.spans where u.end > r.start && u.start < r.end {
          try grid(origin: r.start, from: max(r.start, u.start), to: min(r.end, u.end, end))
        }
      }
    } else {
      let own = sensor.usesLocation ? (locationRuns ?? runs) : runs
      for r in own.spans where r.start < end { try grid(origin: r.start, from: r.start, to: min(r.end, end)) }
    }
  }
}

extension SensorPlan {
  /// The Beiwe data stream a periodic sensor's samples are written to, by its name (`location`
  /// or `gps`: gps; `accelerometer`: accel; `gyroscope`: gyro; `magnetometer`;
  /// `devicemotion`), nil where Beiwe has none ([@Beiwe]).
  public var beiweStream: String? {
    guard case .periodic = kind else { return nil }
    switch name {
    case "location", "gps": return "gps"
    case "accelerometer", "accel": return "accel"
    case "gyroscope", "gyro": return "gyro"
    case "magnetometer": return "magnetometer"
    case "devicemotion", "device_motion": return "devicemotion"
    default: return nil
    }
  }
}
