import Schedules
import SimKernel

// Noticing: an alert heard, or the next look at the phone; lookups on the timeline.
extension ParticipantSimulation {
  /// When the participant would notice something that appears on the phone at `t`: at once
  /// if an alert is heard, otherwise at the next look at the phone (checks come at
  /// `checksPerHour` while awake with the phone at hand); after sleep, shortly after waking.
  mutating func noticeTime(after t: SimTime, alert: Bool) -> SimTime? {
    var k = life.timeline.index(at: t, from: timelineCursor)
    timelineCursor = k
    let episodes = life.timeline.episodes
    let first = episodes[k]
    if alert && first.context != .asleep {
      // A phone not at hand is usually in the same room (Dey et al. 2011: within arm's reach
      // about half the time, in the same room about 90 %): its alert is heard half as often.
      let reach = first.phoneAtHand ? 1.0 : Self.alertAwayFromHand
      let hear = person.alertHeard * plan.dailyLife.conditions[first.context.rawValue].hearing * reach
      if responseStream.uniform() < hear {
        return t + Tick.seconds(responseStream.exponential(mean: Self.reactionSeconds))
      }
    }
    // Next phone check: an exponential amount of "checking time" spent only where the
    // participant is awake with the phone at hand; the first look after waking is quick.
    var need = responseStream.exponential(mean: 1)  // in units of 1/rate
    let rate = checks.perTick
    var cursor = t
    let limit = t + 3 * Tick.day
    while k < episodes.count && cursor < limit {
      let e = episodes[k]
      if e.context == .asleep {
        // Waking: look at the phone within minutes.
        if k + 1 < episodes.count {
          let wake = episodes[k].end
          let look = wake + Tick.minutes(responseStream.exponential(mean: Self.firstLookMinutes))
          if look < limit { return look }
        }
        return nil
      }
      if e.phoneAtHand {
        let available = Double(e.end - cursor) * rate
        if need <= available { return cursor + SimTime(need * checks.ticksEach) }
        need -= available
      }
      cursor = e.end
      k += 1
    }
    return nil
  }

  /// How much less often an alert is heard when the phone is not at hand (assumption).
  static let alertAwayFromHand = 0.5

  /// Seconds from an alert to noticing it (assumption).
  static let reactionSeconds = 15.0

  /// Minutes from waking to the first look at the phone (assumption).
  static let firstLookMinutes = 10.0

  // Lookups on the timeline at the participant's cursor. Always inlined: a method of the
  // whole simulation that a mutating handler calls out of line gets a copy of all its 2 KB
  // (Swift copies `self` for the call), once per call.

  /// The first moment from `t` at which the participant can safely answer (not driving or
  /// exercising, awake).
  @inline(__always)
  func answerableFrom(_ t: SimTime) -> SimTime {
    let conditions = plan.dailyLife.conditions
    return life.timeline.first(from: t, hint: timelineCursor) { Timeline.canAnswer(in: $0, conditions) } ?? .max
  }

  @inline(__always)
  func canAnswer(at t: SimTime) -> Bool { Timeline.canAnswer(in: episode(at: t), plan.dailyLife.conditions) }

  @inline(__always)
  func episode(at t: SimTime) -> Episode { life.timeline.episode(at: t, from: timelineCursor) }

  @inline(__always)
  func context(at t: SimTime) -> Context { episode(at: t).context }

  @inline(__always)
  func network(at t: SimTime) -> Network { episode(at: t).network }

  /// The first moment after `t` when the network reaches the phone.
  @inline(__always)
  func nextReachable(after t: SimTime) -> SimTime? {
    life.timeline.first(from: t, hint: timelineCursor) { $0.network != .unreachable }
  }
}
