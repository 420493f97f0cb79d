/// What the study app's sensing costs the battery: the location sensor's accuracy and the local
/// storage the rows are written to (AWARE-iOS §5.2, [@Nishiyama2020]).
///
/// The paper measured battery lives on an iPhone X in flight mode with Low Power Mode on: idle
/// 35.05 h; with the location sensor at the most accurate setting (best for navigation) 16.05 h,
/// at 10 m 34.05 h and at 100 m 22.52 h ("respectively": the 10 m run lasted longer than the
/// 100 m one, as the paper says); and the accelerometer lasted "nearly 5 h" longer writing JSON
/// than writing SQLite. esmsim turns these lives into drains, percent per hour while the app
/// runs, before Low Power Mode's saving (``SensorDrain/bench`` recomputes the three lives).

/// The accuracy the app asks of the location sensor (iOS's six levels, seed 004 §4.1).
public enum LocationAccuracy: String, Sendable, Equatable, CaseIterable {
  case bestForNavigation = "best_for_navigation"
  case best
  case tenMeters = "10m"
  case hundredMeters = "100m"
  case kilometer = "1km"
  case threeKilometers = "3km"

  /// The location sensor's drain above the app's own, percent per hour (full power).
  ///
  /// 10 m is the floor: its run lasted 34.05 h against 35.05 h idle, which is the app's own cost
  /// (``SensorDrain/benchApp``), so 10 m and the coarser levels (1 and 3 km, cell and wifi
  /// positioning, not measured: assumption) add nothing. 100 m and best for navigation add what
  /// their 22.52 and 16.05 h lives need above it; `best` is taken as best for navigation (not
  /// measured: assumption).
  public var drainPerHour: Double {
    switch self {
    case .bestForNavigation, .best: return SensorDrain.extra(life: 16.05)
    case .hundredMeters: return SensorDrain.extra(life: 22.52)
    case .tenMeters, .kilometer, .threeKilometers: return 0
    }
  }
}

/// Where the app writes a sensor's rows (AWARE-iOS stores in SQLite, JSON or CSV, §4.1).
public enum SensorStorage: String, Sendable, Equatable, CaseIterable {
  case sqlite
  case json
  case csv

  /// Drain per stored row, percent (full power). SQLite's extra cost per row comes from the
  /// accelerometer at 5 Hz lasting "nearly 5 h" less than with JSON (§5.2), taking the JSON run
  /// to last as long as the app alone (34.05 h: assumption, the paper gives no absolute life);
  /// JSON and CSV (the paper: CSV inserts as cheaply as JSON, §5.1) cost nothing beyond the app.
  public var drainPerRow: Double {
    switch self {
    case .sqlite:
      let rowsPerHour = 5.0 * 3600
      return (SensorDrain.benchDrain(life: SensorDrain.appLife - 5) - SensorDrain.benchDrain(life: SensorDrain.appLife))
        / SensorDrain.lowPowerShare / rowsPerHour
    case .json, .csv: return 0
    }
  }
}

/// The battery cost of the app's sensors and the bench that recomputes the paper's lives.
public enum SensorDrain {
  /// The paper's idle battery life and the app's own (the 10 m run), hours (§5.2).
  public static let idleLife = 35.05
  public static let appLife = 34.05
  /// Low Power Mode's share of the drain (the bench ran in it): the simulation's own.
  public static let lowPowerShare = 0.7

  /// Drain on the bench for a battery life, percent per hour.
  static func benchDrain(life: Double) -> Double { 100 / life }
  /// The drain above the app's own that a run of `life` hours needs, full power.
  static func extra(life: Double) -> Double { (benchDrain(life: life) - benchDrain(life: appLife)) / lowPowerShare }

  /// The app's own drain on the bench, full power: the 10 m run above idle.
  public static let benchApp = (benchDrain(life: appLife) - benchDrain(life: idleLife)) / lowPowerShare

  /// The paper's bench phone: an iPhone X in flight mode with Low Power Mode on, drained at the
  /// idle rate awake or asleep, the app costing ``benchApp`` (§5.2).
  public static var bench: DeviceProfile {
    var p = DeviceProfile.ideal
    p.name = "bench"
    p.lowPowerMode = true
    p.drainAwake = benchDrain(life: idleLife) / lowPowerShare
    p.drainAsleep = p.drainAwake
    p.drainApp = benchApp
    return p
  }

  /// What the sensors add to the app's drain while it runs, percent per hour (full power).
  public static func perHour(_ sensors: [SensorPlan]) -> Double {
    sensors.reduce(0) { $0 + $1.drainPerHour }
  }
}

extension SensorPlan {
  /// The sensor's drain while the app runs, percent per hour: the location accuracy's and
  /// the storage's per row at the sensor's rate (event sensors: none).
  public var drainPerHour: Double {
    let rows = Double(expectedPerHour) * storage.drainPerRow
    return (usesLocation ? accuracy.drainPerHour : 0) + rows
  }
}
