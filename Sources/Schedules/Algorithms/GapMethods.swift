import SimKernel

/// How a fixed-block schedule keeps signals a minimum gap apart, each exactly as its
/// source does it ([@PACO], [@ESMiraNotes], [@AWAREAndroid]).
public enum GapMethod: String, Sendable, CaseIterable {
  /// The methods that keep a minimum gap (all but ``none``), by name, for messages.
  public static var keepingNames: String { allCases.filter { $0 != .none }.map(\.rawValue).joined(separator: ", ") }

  /// No gap: one uniform draw in each block.
  case none
  /// Redraw the whole day until every gap holds: the naive scheme MacKerron's thesis warns
  /// under-samples the moments either side of a block boundary (`bad_gaps.rb`, experiment 1).
  case resampleSchedule = "resample-schedule"
  /// PACO (`google/paco`, `EsmGenerator2.java`): integer minutes; a block's time is redrawn
  /// up to 1,000 times until it is at least the gap from every earlier time, and the
  /// signal is silently dropped if all 1,000 fail.
  case sequentialRejection = "sequential-rejection"
  /// ESMira (`ESMira-apps`, `Scheduler.scheduleSignalTime`): a draw closer than the gap to
  /// its block's end pushes the next block's start later by the shortfall; that block's end
  /// stays where it was.
  case truncation
  /// AWARE Android (`aware-core` `Scheduler.random_times`): draw n times uniformly in the
  /// window shortened by gap·(n − 1), sort them, add i·gap to the i-th: uniform over all
  /// configurations with every gap at least the minimum.
  case sortAndSpace = "sort-and-space"

  /// PACO's number of redraws per signal.
  public static let pacoTries = 1_000
  /// resample-schedule: redraws of one day before giving up on it (the day then has no
  /// signal). Validation refuses parameters that make this reachable in practice.
  public static let resampleLimit = 1_000_000

  func validate(_ s: FixedBlocks, in window: Window) throws(ScheduleError) {
    let blocks = s.blocks(in: window)
    switch self {
    case .none, .sortAndSpace:
      return
    case .sequentialRejection:
      // PACO draws in whole-minute blocks (`rand.nextInt(block)`): a block under a minute has
      // no minute to draw (PACO's nextInt(0) throws; the day would have no signal).
      if case .equal = s.layout {
        if Int(window.length) / Swift.max(blocks.count, 1) < 1 {
          throw ScheduleError(
            .perDay, "\(blocks.count) signals leave less than a whole minute a block in a \(Int(window.length))-minute window (PACO draws whole minutes)")
        }
      } else {
        for b in blocks where Int(b.end.rounded(.down)) - Int(b.start.rounded(.up)) < 1 {
          throw ScheduleError(.blocks, "a block holds no whole minute to draw a signal in (PACO draws whole minutes)")
        }
      }
    case .truncation:
      // ESMira's isFaulty(): a block shorter than the gap; with custom blocks, the next
      // block must still have room when the previous draw falls at its very end.
      for b in blocks where b.length < s.minGap {
        throw ScheduleError(.minGap, "each block must be at least the minimum gap long (ESMira refuses this schedule)")
      }
      for (a, b) in zip(blocks, blocks.dropFirst()) where Swift.max(b.start, a.end + s.minGap) >= b.end {
        throw ScheduleError(.minGap, "a draw at the end of one block leaves no room in the next")
      }
    case .resampleSchedule:
      // Feasible at all? Place each signal as early as its block and the gap allow.
      var earliest = -Double.infinity
      for b in blocks {
        earliest = Swift.max(b.start, earliest + s.minGap)
        guard earliest < b.end else {
          throw ScheduleError(.minGap, "no day can keep every signal \(format(s.minGap)) minutes apart in these blocks")
        }
      }
      // Feasible, but so rarely that redrawing would loop? Estimate the acceptance rate.
      var stream = RandomStream(StreamAddress(seed: 0x5eed, purpose: .general))
      var times: [Double] = []
      var accepted = 0
      for _ in 0..<100_000 where accepted < 10 {
        times.removeAll(keepingCapacity: true)
        Self.drawInBlocks(blocks, into: &times, using: &stream)
        if Self.gapsHold(times[...], s.minGap) { accepted += 1 }
      }
      guard accepted >= 10 else {
        throw ScheduleError(
          .minGap,
          "fewer than 1 in 10,000 redrawn days keep every signal \(format(s.minGap)) minutes apart; resample-schedule would loop (try truncation or sort-and-space)")
      }
    }
  }

  func draw(_ s: FixedBlocks, in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    let blocks = s.blocks(in: window)
    let first = times.count
    switch self {
    case .none:
      Self.drawInBlocks(blocks, into: &times, using: &stream)

    case .resampleSchedule:
      for _ in 0..<Self.resampleLimit {
        Self.drawInBlocks(blocks, into: &times, using: &stream)
        if Self.gapsHold(times[first...], s.minGap) { return }
        times.removeSubrange(first...)
      }

    case .sequentialRejection:
      // Integer minutes: PACO's block is `total / n` in whole minutes (equal blocks) and a
      // draw is `rand.nextInt(block)`; custom blocks use their own whole-minute lengths.
      let equal = (Int(window.length) / Swift.max(blocks.count, 1))
      for (i, b) in blocks.enumerated() {
        let start: Int
        let length: Int
        if case .equal = s.layout {
          start = i * equal
          length = equal
        } else {
          start = Int(b.start.rounded(.up))
          length = Int(b.end.rounded(.down)) - start
        }
        guard length > 0 else { continue }
        for _ in 0..<Self.pacoTries {
          let t = Double(start + Int(stream.integer(below: UInt64(length))))
          if times[first...].allSatisfy({ abs(t - $0) >= s.minGap }) {
            times.append(t)
            break
          }
        }
      }
      times.sortTail(from: first)

    case .truncation:
      var start = blocks.first?.start ?? 0
      for (i, b) in blocks.enumerated() {
        let t = start + (b.end - start) * stream.uniform()
        times.append(t)
        if i + 1 < blocks.count {
          // The next block starts at its own start, or later if this draw came closer
          // than the gap to this block's end (then exactly `gap` after the draw).
          start = Swift.max(blocks[i + 1].start, b.end - t < s.minGap ? t + s.minGap : b.end)
        }
      }

    case .sortAndSpace:
      let n = blocks.count
      let effective = window.length - s.minGap * Double(n - 1)
      for _ in 0..<n { times.append(stream.uniform() * effective) }
      times.sortTail(from: first)
      for i in 0..<n { times[first + i] += Double(i) * s.minGap }
    }
  }

  /// One uniform draw in each block, in order.
  static func drawInBlocks(_ blocks: [Block], into times: inout [Double], using stream: inout RandomStream) {
    for b in blocks { times.append(b.start + b.length * stream.uniform()) }
  }

  /// Whether consecutive times are at least `gap` apart (times sorted).
  static func gapsHold(_ times: ArraySlice<Double>, _ gap: Double) -> Bool {
    zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= gap }
  }
}
