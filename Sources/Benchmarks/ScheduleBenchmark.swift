import Schedules
import SimKernel

/// Times `days` participant-days of schedule generation for each algorithm of
/// `esmsim schedule compare` (window 08:00–22:00, 5 a day, a 30-minute gap for fixed
/// blocks). Target: under 1 s per 10^6 days each.
public enum ScheduleBenchmark {
  /// One algorithm's figures.
  public struct Line: Sendable {
    /// The algorithm (and gap method).
    public var name: String
    /// Wall seconds for all days.
    public var seconds: Double
    /// Signals drawn (printed so the work cannot be optimised away).
    public var signals: Int
  }

  /// Runs the benchmark.
  public static func run(days: Int, seed: UInt64) throws -> [Line] {
    let window = try Window(parsing: "08:00-22:00")
    let p = ScheduleParameters(
      perDay: 5, minGap: 30, times: ["09:00", "12:00", "15:00", "18:00", "21:00"].map { ClockTime($0)! },
      jitter: 15)
    var lines: [Line] = []
    for (name, method) in AnyScheduler.comparisonLineUp {
      var q = p
      q.gapMethod = method
      let s = try AnyScheduler(name, q, window: window)
      var stream = RandomStream(StreamAddress(seed: seed, purpose: .schedule))
      var times: [Double] = []
      times.reserveCapacity(16)
      var signals = 0
      let watch = Stopwatch()
      for _ in 0..<days {
        times.removeAll(keepingCapacity: true)
        s.schedule(in: window, into: &times, using: &stream)
        signals += times.count
      }
      lines.append(
        Line(name: name.rawValue + (method.map { " (\($0.rawValue))" } ?? ""), seconds: watch.seconds, signals: signals))
    }
    return lines
  }
}
