import Schedules
import SimKernel

/// Runs one scheduler over many days and measures it: what `esmsim schedule` and
/// `esmsim schedule compare` print.
public enum ScheduleRun {
  /// One signal: its day, its index within the day, minutes after the window start.
  public struct Signal: Sendable, Equatable {
    public var day: Int
    public var index: Int
    public var minute: Double
  }

  /// The stream a schedule of `seed` draws from. Every algorithm run with the same seed
  /// starts from the same stream, so a comparison shares its random numbers.
  public static func stream(seed: UInt64) -> RandomStream {
    RandomStream(StreamAddress(seed: seed, purpose: .schedule))
  }

  /// Draws `days` days, passing each to `body` (day index, sorted times).
  public static func days(
    _ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64, _ body: (Int, [Double]) -> Void
  ) {
    var stream = stream(seed: seed)
    var times: [Double] = []
    for day in 0..<days {
      times.removeAll(keepingCapacity: true)
      scheduler.schedule(in: window, into: &times, using: &stream)
      body(day, times)
    }
  }

  /// Every signal of `days` days.
  public static func signals(_ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64) -> [Signal] {
    var out: [Signal] = []
    Self.days(scheduler, window: window, days: days, seed: seed) { day, times in
      for (i, t) in times.enumerated() { out.append(Signal(day: day, index: i, minute: t)) }
    }
    return out
  }

  /// The measures of `days` days.
  public static func measure(
    _ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64,
    slotMinutes: Double = ScheduleMeasures.defaultSlotMinutes
  ) -> ScheduleSummary {
    let sampling = scheduler.samplingWindow(for: window)
    var measures = ScheduleMeasures(referenceMinutes: sampling.length, slotMinutes: slotMinutes)
    Self.days(scheduler, window: window, days: days, seed: seed) { day, times in
      measures.add(day: day, times: times, sampling: sampling)
    }
    return measures.summary()
  }
}
