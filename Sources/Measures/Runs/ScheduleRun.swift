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

  /// Draws `days` days, passing each to `body` (day index, sorted times). On a day `active`
  /// rules out (a weekday-only or every-N-days schedule) nothing is drawn and the day is
  /// passed empty, as the simulation does.
  public static func days(
    _ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64, active: (Int) -> Bool = { _ in true },
    _ body: (Int, [Double]) -> Void
  ) {
    var stream = stream(seed: seed)
    var times: [Double] = []
    for day in 0..<days {
      times.removeAll(keepingCapacity: true)
      if active(day) { scheduler.schedule(in: window, into: &times, using: &stream) }
      body(day, times)
    }
  }

  /// Every signal of `days` days.
  public static func signals(
    _ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64, active: (Int) -> Bool = { _ in true }
  ) -> [Signal] {
    var out: [Signal] = []
    Self.days(scheduler, window: window, days: days, seed: seed, active: active) { day, times in
      for (i, t) in times.enumerated() { out.append(Signal(day: day, index: i, minute: t)) }
    }
    return out
  }

  /// The measures of `days` days; only the days `active` allows count (a schedule's
  /// uniformity and predictability on the days it runs).
  public static func measure(
    _ scheduler: AnyScheduler, window: Window, days: Int, seed: UInt64,
    slotMinutes: Double = ScheduleMeasures.defaultSlotMinutes, active: (Int) -> Bool = { _ in true }
  ) -> ScheduleSummary {
    let sampling = scheduler.samplingWindow(for: window)
    var measures = ScheduleMeasures(referenceMinutes: sampling.length, slotMinutes: slotMinutes)
    // The measured days are numbered in turn (predictability holds out every other one).
    var measured = 0
    Self.days(scheduler, window: window, days: days, seed: seed, active: active) { day, times in
      guard active(day) else { return }
      measures.add(day: measured, times: times, sampling: sampling)
      measured += 1
    }
    return measures.summary()
  }
}
