import SimKernel

/// Records the stretches during which something holds (the app runs, the phone is off…),
/// as closed, ordered, non-overlapping `[start, end)` intervals; touching stretches merge.
public struct Intervals: Sendable, Equatable {
  /// The closed stretches, in order.
  public private(set) var spans: [(start: SimTime, end: SimTime)] = []
  /// The start of the open stretch, if one is open.
  public private(set) var openSince: SimTime?

  /// Creates an empty record.
  public init() {}

  /// Creates a record from closed stretches (for tests and fixtures).
  public init(_ spans: [(SimTime, SimTime)]) {
    for (a, b) in spans {
      begin(at: a)
      end(at: b)
    }
  }

  public static func == (a: Intervals, b: Intervals) -> Bool {
    a.openSince == b.openSince && a.spans.map(\.start) == b.spans.map(\.start) && a.spans.map(\.end) == b.spans.map(\.end)
  }

  /// Makes room for `count` stretches in all.
  public mutating func reserveCapacity(_ count: Int) { spans.reserveCapacity(count) }

  /// Whether a stretch is open.
  public var isOpen: Bool { openSince != nil }

  /// Opens a stretch at `t` (no effect if one is open).
  @inline(__always)
  public mutating func begin(at t: SimTime) {
    guard openSince == nil else { return }
    if let last = spans.last, last.end == t {
      spans.removeLast()
      openSince = last.start
    } else {
      openSince = t
    }
  }

  /// Closes the open stretch at `t` (no effect if none is open).
  public mutating func end(at t: SimTime) {
    guard let s = openSince else { return }
    openSince = nil
    if t > s { spans.append((s, t)) }
  }

  /// Closes any open stretch at `t` and returns the finished record.
  public func closed(at t: SimTime) -> Intervals {
    var copy = self
    copy.end(at: t)
    return copy
  }

  /// The index of the first closed stretch that ends after `t` (binary search).
  public func startIndex(after t: SimTime) -> Int {
    var lo = 0
    var hi = spans.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if spans[mid].end <= t { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }

  /// Whether `t` lies in a closed stretch (binary search).
  public func contains(_ t: SimTime) -> Bool {
    let i = startIndex(after: t)
    return i < spans.count && spans[i].start <= t
  }

  /// The intersection with another record (both closed).
  public func intersection(_ other: Intervals) -> Intervals {
    var out = Intervals()
    out.reserveCapacity(spans.count + other.spans.count)
    var i = 0
    var j = 0
    while i < spans.count && j < other.spans.count {
      let a = max(spans[i].start, other.spans[j].start)
      let b = min(spans[i].end, other.spans[j].end)
      if a < b {
        out.begin(at: a)
        out.end(at: b)
      }
      if spans[i].end < other.spans[j].end { i += 1 } else { j += 1 }
    }
    return out
  }

  /// The union with another record (both closed): the two ordered lists merged, touching
  /// or overlapping stretches joined.
  public func union(_ other: Intervals) -> Intervals {
    var out = Intervals()
    out.reserveCapacity(spans.count + other.spans.count)
    var current: (start: SimTime, end: SimTime)?
    var i = 0
    var j = 0
    while i < spans.count || j < other.spans.count {
      let next: (start: SimTime, end: SimTime)
      if j == other.spans.count || (i < spans.count && spans[i].start <= other.spans[j].start) {
        next = spans[i]
        i += 1
      } else {
        next = other.spans[j]
        j += 1
      }
      if let c = current, next.start <= c.end {
        current = (c.start, max(c.end, next.end))
      } else {
        if let c = current {
          out.begin(at: c.start)
          out.end(at: c.end)
        }
        current = next
      }
    }
    if let c = current {
      out.begin(at: c.start)
      out.end(at: c.end)
    }
    return out
  }

  /// The complement within `[from, to)`.
  public func complement(from: SimTime, to: SimTime) -> Intervals {
    var out = Intervals()
    out.reserveCapacity(spans.count + 1)
    var t = from
    for s in spans where s.end > from && s.start < to {
      if s.start > t {
        out.begin(at: t)
        out.end(at: s.start)
      }
      t = max(t, s.end)
    }
    if t < to {
      out.begin(at: t)
      out.end(at: to)
    }
    return out
  }

  /// The last instant (exclusive end) of the record before `limit`, or nil.
  public func lastEnd(before limit: SimTime) -> SimTime? {
    for s in spans.reversed() where s.start < limit { return min(s.end, limit) }
    return nil
  }

  /// `intersection(other).lastEnd(before: limit)` without building the intersection: the
  /// two records (closed) walked back from their ends to the last overlap starting before
  /// `limit`.
  public func lastEndOfIntersection(with other: Intervals, before limit: SimTime) -> SimTime? {
    var i = spans.count - 1
    var j = other.spans.count - 1
    while i >= 0 && j >= 0 {
      let a = max(spans[i].start, other.spans[j].start)
      let b = min(spans[i].end, other.spans[j].end)
      if a < b && a < limit { return min(b, limit) }
      // The stretch that starts later overlaps nothing earlier in the other record.
      if spans[i].start > other.spans[j].start { i -= 1 } else { j -= 1 }
    }
    return nil
  }
}
