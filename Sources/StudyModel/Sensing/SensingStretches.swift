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
  /// Where the phone is and how it moves (``Movement``), from the participant's contexts.
  public let movement: Movement

  public init(
    runs: Intervals, locationRuns: Intervals?, phoneOn: Intervals, networkUsable: Intervals, enrolledUntil: SimTime,
    movement: Movement
  ) {
    self.movement = movement
    self.runs = runs
    self.locationRuns = locationRuns
    self.phoneOn = phoneOn
    self.networkUsable = networkUsable
    end = SimTime(Int(enrolledUntil / Tick.hour)) * Tick.hour
  }

  /// Calls `body` with every sample time of a periodic sensor, in order (event sensors: none):
  /// the grid of each stretch ``SensorPlan/sampledStretches(runs:locationRuns:phoneOn:networkUsable:end:_:)``
  /// gives, before ``end``.
  public func samples(of sensor: SensorPlan, _ body: (SimTime) throws -> Void) rethrows {
    guard case .periodic(let period) = sensor.kind else { return }
    try sensor.sampledStretches(runs: runs, locationRuns: locationRuns, phoneOn: phoneOn, networkUsable: networkUsable, end: end) {
      origin, a, b in
      var t = a <= origin ? origin : origin + (a - origin + period - 1) / period * period
      while t < b {
        try body(t)
        t += period
      }
    }
  }
}

extension SensorPlan {
  /// The stretches a periodic sensor samples in, in order, each as the origin of its grid
  /// (samples at origin + k·period) and the part `[from, to)` of it that counts (possibly
  /// empty), before `end`: the app's runs, each restarting the grid (a location sensor: the
  /// runs it may record the location in, `locationRuns` when given); a sensor that needs the
  /// network, the runs' parts where it is usable; a coprocessor's, the phone's on-stretches on
  /// one grid from time 0. What ``CoverageCalculator`` counts and ``SensingStretches`` writes.
  @inline(__always)
  public func sampledStretches(
    runs: Intervals, locationRuns: Intervals?, phoneOn: Intervals, networkUsable usable: Intervals, end: SimTime,
    _ body: (_ origin: SimTime, _ from: SimTime, _ to: SimTime) throws -> Void
  ) rethrows {
    if coprocessor {
      for r in phoneOn.spans where r.start < end { try body(0, r.start, min(r.end, end)) }
    } else if needsNetwork {
      var u = 0
      for r in runs.spans where r.start < end {
        while u < usable.spans.count && usable.spans[u].end <= r.start { u += 1 }
        var v = u
        while v < usable.spans.count && usable.spans[v].start < r.end {
          try body(r.start, max(r.start, usable.spans[v].start), min(r.end, usable.spans[v].end, end))
          v += 1
        }
      }
    } else {
      for r in (usesLocation ? locationRuns ?? runs : runs).spans where r.start < end {
        try body(r.start, r.start, min(r.end, end))
      }
    }
  }

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
