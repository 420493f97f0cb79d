import SimKernel

/// Participants who prompt at times of their own: each of a share of the participants moves
/// the whole schedule (its window, blocks, fixed times and the window of event-contingent
/// prompts) by an amount of their own, drawn once, uniform between `earlier` before and
/// `later` after the protocol's times, to the minute. A study that lets each participant
/// start their day's prompts when it suits them (the Fisher lab's studies: four one-hour
/// windows four hours apart, the first starting between about 07 and 10 h; ESMira's
/// `userEditable` times, moved as a whole) is this. The amount is drawn apart from the
/// person's sleep (an assumption, D: the participant's own choice is not modelled).
public struct OwnTimes: Sendable, Equatable {
  /// The share of participants who move their times.
  public var share: Double
  /// The most a participant moves them earlier and later.
  public var earlier: SimTime
  public var later: SimTime

  /// Creates the rule.
  public init(share: Double = 1, earlier: SimTime = 0, later: SimTime = 0) {
    self.share = share
    self.earlier = earlier
    self.later = later
  }

  /// A participant's move in minutes (0 when they keep the protocol's times), from `stream`.
  public func draw(_ stream: inout RandomStream) -> Double {
    guard stream.bernoulli(share) else { return 0 }
    let low = -Tick.inMinutes(earlier)
    let high = Tick.inMinutes(later)
    return (low + stream.uniform() * (high - low)).rounded(.down)
  }
}
