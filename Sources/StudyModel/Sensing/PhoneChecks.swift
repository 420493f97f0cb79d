import SimKernel

/// The participant's phone checks as moments: the screen comes on and the phone is unlocked,
/// and the screen goes off ``screenOn`` later. They are the screen sensor's events (AWARE's
/// screen table, RAPIDS' rows) and Beiwe's PowerState `Unlocked`/`Locked`, so all of them
/// follow the same checks. Checks come at the person's rate while they are awake with the
/// phone at hand: per study hour a Poisson number for that time, each at a uniform moment of
/// it.
public struct PhoneChecks: Sendable {
  /// Each check's moment, in order.
  public private(set) var times: [SimTime] = []
  /// How long the screen stays on at a check (assumption, D: a glance of half a minute).
  public static let screenOn = 30 * Tick.second

  /// No checks.
  public init() {}

  /// Draws the checks of `hours` study hours: the count of each hour from `counts`, the
  /// moments from `places`.
  public init(timeline: Timeline, hours: Int, checksPerHour: Double, counts: inout RandomStream, places: inout RandomStream) {
    let atHand = timeline.spans { $0.context != .asleep && $0.phoneAtHand }
    var k = 0
    var pieces: [(start: SimTime, end: SimTime)] = []
    for h in 0..<hours {
      let lo = SimTime(h) * Tick.hour
      let hi = lo + Tick.hour
      // The hour's time awake with the phone at hand, piece by piece.
      pieces.removeAll(keepingCapacity: true)
      var exposure: SimTime = 0
      while k < atHand.spans.count && atHand.spans[k].end <= lo { k += 1 }
      var j = k
      while j < atHand.spans.count && atHand.spans[j].start < hi {
        let s = max(atHand.spans[j].start, lo)
        let e = min(atHand.spans[j].end, hi)
        if s < e {
          pieces.append((s, e))
          exposure += e - s
        }
        j += 1
      }
      guard exposure > 0 else { continue }
      let n = counts.poisson(mean: checksPerHour * Double(exposure) / Double(Tick.hour))
      guard n > 0 else { continue }
      let first = times.count
      for _ in 0..<n {
        var left = SimTime(places.uniform() * Double(exposure))
        for p in pieces {
          if left < p.end - p.start {
            times.append(p.start + left)
            break
          }
          left -= p.end - p.start
        }
      }
      times[first...].sort()
    }
  }

  /// The screen events (on at each check, off ``screenOn`` later), in time order.
  public var screenEvents: [SimTime] {
    var out: [SimTime] = []
    out.reserveCapacity(2 * times.count)
    for t in times {
      out.append(t)
      out.append(t + Self.screenOn)
    }
    out.sort()
    return out
  }
}
