import SimKernel

/// Fixed blocks, one uniform draw in each, with a minimum gap between signals enforced the
/// way a chosen real system enforces it (``GapMethod``; each method's source is in
/// `GapMethods.swift`).
///
/// Blocks are either the window cut into n equal parts or custom clock-time blocks
/// (Turk, Burwinkle & Showlund 2007: 08–12, 12–16, 16–20, no two signals closer than 2 hours;
/// cited in MacKerron's thesis).
public struct FixedBlocks: SignalScheduler, Hashable {
  /// How the window is cut into blocks.
  public enum Layout: Sendable, Hashable {
    /// n equal blocks over the window.
    case equal(Int)
    /// Blocks at given clock times, in order, inside the window.
    case custom([ClockRange])
  }

  /// The blocks.
  public var layout: Layout
  /// The minimum gap between signals in minutes (0: none).
  public var minGap: Double
  /// How the gap is enforced.
  public var method: GapMethod

  /// Creates the scheduler.
  public init(layout: Layout, minGap: Double = 0, method: GapMethod = .none) {
    self.layout = layout
    self.minGap = minGap
    self.method = method
  }

  /// The number of signals per day (one per block, before any is dropped).
  public var perDay: Int {
    switch layout {
    case .equal(let n): return n
    case .custom(let blocks): return blocks.count
    }
  }

  /// The blocks in minutes after the window's start.
  public func blocks(in window: Window) -> [Block] {
    switch layout {
    case .equal(let n):
      let b = window.length / Double(n)
      return (0..<n).map { Block(start: Double($0) * b, end: Double($0 + 1) * b) }
    case .custom(let ranges):
      return ranges.map { r in
        let s = window.offset(of: r.start)
        var e = window.offset(of: r.end)
        if e <= s { e += 1440 }
        return Block(start: s, end: e)
      }
    }
  }

  public func validate(for window: Window) throws(ScheduleError) {
    switch layout {
    case .equal(let n):
      guard n >= 1 else { throw ScheduleError(.perDay, "at least 1 signal a day, not \(n)") }
    case .custom(let ranges):
      guard !ranges.isEmpty else { throw ScheduleError(.blocks, "give at least one block") }
      let blocks = blocks(in: window)
      for (r, b) in zip(ranges, blocks) {
        guard b.start >= 0, b.end <= window.length, b.length > 0 else {
          throw ScheduleError(.blocks, "the block \(r) leaves the window \(window)")
        }
      }
      for (a, b) in zip(blocks, blocks.dropFirst()) where b.start < a.end {
        throw ScheduleError(.blocks, "blocks must follow one another without overlapping")
      }
      if method == .sortAndSpace {
        throw ScheduleError(.blocks, "sort-and-space draws over the whole window; it has no blocks")
      }
    }
    guard minGap >= 0, minGap.isFinite else {
      throw ScheduleError(.minGap, "the minimum gap must be 0 or more minutes, not \(minGap)")
    }
    let gapped = method != .none && minGap > 0 && perDay > 1
    if gapped {
      let span = window.length
      guard minGap * Double(perDay - 1) < span else {
        throw ScheduleError(
          .minGap,
          "\(perDay) signals at least \(format(minGap)) minutes apart need more than \(format(minGap * Double(perDay - 1))) minutes; the window has \(format(span))")
      }
    }
    // The method's own checks; PACO's whole-minute blocks also without a gap.
    if gapped || method == .sequentialRejection { try method.validate(self, in: window) }
  }

  public func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    method.draw(self, in: window, into: &times, using: &stream)
  }
}

/// A block given as clock times.
public struct ClockRange: Sendable, Hashable, CustomStringConvertible {
  /// The block's start.
  public var start: ClockTime
  /// The block's end.
  public var end: ClockTime

  /// Creates a range.
  public init(start: ClockTime, end: ClockTime) {
    self.start = start
    self.end = end
  }

  /// Parses `HH:MM-HH:MM`.
  public init?(_ text: some StringProtocol) {
    let parts = text.split(separator: "-")
    guard parts.count == 2, let a = ClockTime(parts[0]), let b = ClockTime(parts[1]) else { return nil }
    self.init(start: a, end: b)
  }

  public var description: String { "\(start)-\(end)" }
}

/// A number with at most two decimals, for messages.
func format(_ x: Double) -> String {
  let r = (x * 100).rounded() / 100
  return r == r.rounded() ? String(Int(r)) : String(r)
}
