import SimKernel

/// The events that trigger an event-contingent schedule's prompts, and the trigger's rule
/// choosing among them (``EventTrigger``): a prompt `delay` after an event in the window,
/// with the trigger's chance, no sooner than `minGap` after the schedule's previous prompt,
/// at most `maxPerDay` a day.
struct EventPrompts {
  let trigger: EventTrigger
  /// The events' moments, in order.
  let moments: [SimTime]
  /// The first event not yet looked at.
  private var cursor = 0
  /// The schedule's last prompt (nil: none yet).
  private var last: SimTime?

  /// The events of `trigger` in the participant's `timeline` (context changes), among their
  /// phone `checks` (unlocks) or their `calls` (a call's end), or the moment they `joined`.
  init(_ trigger: EventTrigger, timeline: Timeline, checks: PhoneChecks, calls: PhoneCalls?, joined: SimTime) {
    self.trigger = trigger
    let episodes = timeline.episodes
    switch trigger.event {
    case .phoneUnlock:
      moments = checks.times
    case .callEnd:
      moments = calls?.ends ?? []
    case .joined:
      moments = [joined]
    case .finished, .notified:
      moments = []  // follow-ups: created while the study runs (``FollowUps``)
    case .leaving(let c):
      moments = episodes.indices.dropFirst().filter { episodes[$0 - 1].context == c && episodes[$0].context != c }
        .map { episodes[$0].start }
    case .entering(let c):
      moments = episodes.indices.dropFirst().filter { episodes[$0 - 1].context != c && episodes[$0].context == c }
        .map { episodes[$0].start }
    }
  }

  /// The prompts of the events in `from..<to` that fall before `end`. Each event in the
  /// window takes one draw from `s` (so that changing the gap or the day's limit leaves
  /// the other events' draws alone).
  mutating func prompts(from: SimTime, to: SimTime, before end: SimTime, using s: inout RandomStream) -> [SimTime] {
    var out: [SimTime] = []
    while cursor < moments.count && moments[cursor] < from { cursor += 1 }
    while cursor < moments.count && moments[cursor] < to {
      var t = moments[cursor] + trigger.delay
      cursor += 1
      let chosen = trigger.probability >= 1 || s.uniform() < trigger.probability
      if trigger.delaySpread > 0 { t += SimTime(s.uniform() * Double(trigger.delaySpread)) }
      guard chosen, t < end, out.count < trigger.maxPerDay else { continue }
      if let last, t - last < trigger.minGap { continue }
      out.append(t)
      last = t
    }
    return out
  }
}
