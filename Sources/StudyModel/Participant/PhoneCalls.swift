import Foundation
import SimKernel

/// The participant's phone calls, for prompts triggered when a call ends (AWARE-iOS "is able
/// to send a survey to the user when a user finishes a phone call", seed 004 §4.1).
///
/// Calls start as a Poisson process over the waking hours, `perDay` a day spread over 16 waking
/// hours, and last a lognormal time (median 2 minutes, sigma 1): both assumptions (D), from a
/// stream of the participant's own, drawn only when a schedule uses the trigger.
public struct PhoneCalls: Sendable {
  /// When each call ends, in order.
  public let ends: [SimTime]
  /// Median minutes a call lasts and the lognormal sigma (assumptions, D).
  static let medianMinutes = 2.0
  static let sigma = 1.0

  public init(timeline: Timeline, until end: SimTime, perDay: Double, stream s: inout RandomStream) {
    var out: [SimTime] = []
    guard perDay > 0 else {
      ends = []
      return
    }
    let meanGap = 16 * 60 / perDay  // minutes of waking time between calls
    for e in timeline.episodes where e.context != .asleep && e.start < end {
      var t = Double(e.start) + Double(Tick.minutes(s.exponential(mean: meanGap)))
      while t < Double(min(e.end, end)) {
        let length = Double(Tick.minutes(s.lognormal(mu: log(Self.medianMinutes), sigma: Self.sigma)))
        let callEnd = SimTime(t + length)
        if callEnd < end { out.append(callEnd) }
        t += length + Double(Tick.minutes(s.exponential(mean: meanGap)))
      }
    }
    ends = out
  }
}
