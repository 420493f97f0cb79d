import SimKernel

// Where the participant is at a moment: lookups on their timeline from the cursor of the
// last one (time moves forward, so the search starts near the answer).
extension ParticipantSimulation {
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
