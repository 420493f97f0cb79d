import SimKernel

/// A stretch of one context: where the participant is, whether the phone is at hand, and
/// how the network reaches it.
public struct Episode: Sendable, Equatable {
  /// When it starts.
  public var start: SimTime
  /// When it ends.
  public var end: SimTime
  /// The context.
  public var context: Context
  /// Whether the phone is with the participant.
  public var phoneAtHand: Bool
  /// The network.
  public var network: Network
}

/// The participant's whole study as a sequence of episodes, asleep ones included, in time
/// order without gaps; with a cursor for the forward walks the simulation does.
public struct Timeline: Sendable {
  /// Every episode so far, in order.
  public private(set) var episodes: [Episode] = []

  /// Creates an empty timeline.
  public init() {}

  /// The timeline of `episodes`, which follow one another without gaps (``TimelineBuilder``).
  init(episodes: [Episode]) {
    self.episodes = episodes
    end = episodes.last?.end ?? 0
  }

  /// Appends an episode; a zero-length one is skipped. (Daily life writes its episodes
  /// through a ``TimelineBuilder``.)
  mutating func append(_ e: Episode) {
    guard e.end > e.start else { return }
    precondition(Self.follows(e, after: episodes.last), "episodes must follow one another")
    episodes.append(e)
    end = e.end
  }

  /// The rule of every timeline: an episode starts where the one before it (if any) ended.
  @inline(__always)
  static func follows(_ e: Episode, after last: Episode?) -> Bool { last.map { $0.end == e.start } ?? true }

  /// The end of the last episode.
  private(set) var end: SimTime = 0

  /// The stretches where `condition` holds, closed at the timeline's end.
  func spans(where condition: (Episode) -> Bool) -> Intervals {
    var out = Intervals()
    out.reserveCapacity(episodes.count / 2 + 1)
    for e in episodes {
      if condition(e) {
        out.begin(at: e.start)
      } else {
        out.end(at: e.start)
      }
    }
    out.end(at: end)  // in place: `closed(at:)` would copy the record
    return out
  }

  /// The index of the episode containing `t` (the last one if `t` is past the end),
  /// searching forward from `hint`. The usual case, inlined: `t` in the hint's episode or
  /// the next one (half a million lookups in the city benchmark's workload).
  @inline(__always)
  func index(at t: SimTime, from hint: Int = 0) -> Int {
    if hint >= 0 && hint < episodes.count && episodes[hint].start <= t {
      if t < episodes[hint].end { return hint }
      if hint + 1 < episodes.count && t < episodes[hint + 1].end { return hint + 1 }
    }
    return search(at: t, from: hint)
  }

  /// ``index(at:from:)`` beyond the hint's episode and the next.
  @inline(never)
  private func search(at t: SimTime, from hint: Int) -> Int {
    var i = min(max(hint, 0), max(episodes.count - 1, 0))
    if i < episodes.count && episodes[i].start > t {
      // Binary search when the hint is ahead of `t`.
      var lo = 0
      var hi = i
      while lo < hi {
        let mid = (lo + hi) / 2
        if episodes[mid].end <= t { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
    // A few steps forward (the hint a little behind `t`), then strides that double
    // (the cost grows with the log of the distance, not of the whole study), then binary search.
    var steps = 0
    while i + 1 < episodes.count && episodes[i].end <= t {
      i += 1
      steps += 1
      if steps == 4 {
        var stride = 8
        while i + stride < episodes.count && episodes[i + stride].end <= t {
          i += stride
          stride *= 2
        }
        // The episode sought is in (i, i + stride], or the last one.
        var lo = i
        var hi = min(i + stride, episodes.count - 1)
        while lo < hi {
          let mid = (lo + hi) / 2
          if episodes[mid].end <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo
      }
    }
    return i
  }

  /// The first moment from `t` on in an episode where `condition` holds, searching from
  /// `hint`; nil if never. (The timeline has no gaps, so that moment is `t` or an episode's
  /// start.)
  func first(from t: SimTime, hint: Int, where condition: (Episode) -> Bool) -> SimTime? {
    var k = index(at: t, from: hint)
    while k < episodes.count {
      if condition(episodes[k]) { return max(t, episodes[k].start) }
      k += 1
    }
    return nil
  }

  /// Whether the participant can answer in `e`: awake, in a context whose `conditions`
  /// allow it.
  static func canAnswer(in e: Episode, _ conditions: [ContextConditions]) -> Bool {
    e.context != .asleep && conditions[e.context.rawValue].canAnswer
  }

  /// The episode containing `t`.
  func episode(at t: SimTime, from hint: Int = 0) -> Episode { episodes[index(at: t, from: hint)] }
}
