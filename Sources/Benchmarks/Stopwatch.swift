/// Wall-clock timing for benchmarks (never for tests: performance lives in benchmarks).
public struct Stopwatch {
  private let start = ContinuousClock.now

  /// Starts timing.
  public init() {}

  /// Seconds since the stopwatch was created.
  public var seconds: Double {
    let d = ContinuousClock.now - start
    return Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
  }
}
