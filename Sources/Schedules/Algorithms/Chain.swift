import SimKernel

/// Chained random lags: each signal follows the previous one (the first follows the window
/// start, the participant's wake time) after a fixed lag plus a uniform random lag rounded
/// to whole minutes: ExperienceSampler ([@ExperienceSampler]; `sabrinathai/ExperienceSampler`
/// `www/js/index.js`, `scheduleNotifs`: `interval = interval + round(U·randomDiaryLag) +
/// minDiaryLag`, with minDiaryLag = 90, randomDiaryLag = 30 and 6 a day).
///
/// Choice where the source is silent: ExperienceSampler does not check its signals against
/// the participant's end of day; esmsim drops any signal at or after the window's end (a
/// window is the participant's waking day), so a day may have fewer than `perDay`.
public struct Chain: SignalScheduler, Hashable {
  /// Signals per day (ExperienceSampler's example: 6).
  public var perDay: Int
  /// The fixed lag in minutes (example: 90).
  public var fixedLag: Double
  /// The largest random lag in minutes (example: 30).
  public var randomLag: Double

  /// Creates the scheduler (defaults: ExperienceSampler's example app).
  public init(perDay: Int = 6, fixedLag: Double = 90, randomLag: Double = 30) {
    self.perDay = perDay
    self.fixedLag = fixedLag
    self.randomLag = randomLag
  }

  public func validate(for window: Window) throws(ScheduleError) {
    guard perDay >= 1 else { throw ScheduleError(.perDay, "at least 1 signal a day, not \(perDay)") }
    guard fixedLag >= 0, fixedLag.isFinite else {
      throw ScheduleError(.fixedLag, "the fixed lag must be 0 or more minutes, not \(fixedLag)")
    }
    guard randomLag >= 0, randomLag.isFinite, fixedLag + randomLag > 0 else {
      throw ScheduleError(.randomLag, "the random lag must be 0 or more minutes, and the lags together more than 0")
    }
    // The random lag is drawn in whole minutes: under half a minute it is always 0.
    guard fixedLag > 0 || randomLag >= 0.5 else {
      throw ScheduleError(.randomLag, "with no fixed lag the random lag must be at least half a minute (it is rounded to whole minutes), not \(randomLag): every signal would fall at the window's start")
    }
    guard fixedLag < window.length else {
      throw ScheduleError(.fixedLag, "the fixed lag (\(fixedLag) minutes) must be shorter than the window (\(window.length) minutes): no signal would fall in it")
    }
  }

  public func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    var t = 0.0
    for _ in 0..<perDay {
      t += fixedLag + (stream.uniform() * randomLag).rounded()
      guard t < window.length else { return }
      times.append(t)
    }
  }
}
