import SimKernel

/// One participant's company ("with others", ``CompanyPlan``): the waking stretches spent
/// with others and the person's own slope, drawn once from a stream of their own after the
/// days are drawn, so that the truth stays the participant's whatever the protocol does
/// and switching company on changes no other draw.
public struct Company: Sendable {
  /// The person's slope: how much higher the state is with others.
  public let slope: Double
  /// The waking stretches spent with others.
  public let spans: Intervals

  /// No company (the plan's share is 0).
  init() {
    slope = 0
    spans = Intervals()
  }

  /// Draws the person's slope, then company per waking episode of `timeline`.
  init(_ plan: CompanyPlan, timeline: Timeline, stream s: inout RandomStream) {
    slope = plan.slope + s.normal(sd: plan.slopeSD)
    var spans = Intervals()
    for e in timeline.episodes {
      let with = e.context != .asleep && s.bernoulli(plan.share)
      if with && !spans.isOpen { spans.begin(at: e.start) }
      if !with && spans.isOpen { spans.end(at: e.start) }
    }
    if spans.isOpen { spans.end(at: timeline.end) }
    self.spans = spans
  }

  /// Whether the participant is with others at `t`.
  public func isWithOthers(at t: SimTime) -> Bool { spans.contains(t) }

  /// The state's rise at `t` (0 without company).
  public func effect(at t: SimTime) -> Double { spans.contains(t) ? slope : 0 }

  /// Minutes with others before `end`.
  func minutes(before end: SimTime) -> Double {
    spans.spans.reduce(0) { $0 + Tick.inMinutes(max(0, min($1.end, end) - $1.start)) }
  }
}
