/// How well a participant who knows the algorithm and today's history can anticipate the
/// next signal (no published measure exists: this is esmsim's own
/// proposal, [@SlotMeasure]).
///
/// The day is cut into slots. The state before a slot is (slot, signals so far today, slots
/// since the last signal or "none yet"); the outcome is whether the slot holds a signal.
/// P(signal | state) is fitted with add-½ smoothing, p = (signals + 0.5)/(visits + 1), on the
/// even-numbered days (0, 2, 4, …) and scored by log-loss on the odd-numbered days; a state
/// never seen in fitting gets p = 0.5. The day runs to the window's end: the slots after the
/// last signal are scored too (a day without signals is all such slots). Bits per signal divide
/// the held-out log-loss by the held-out slots that held a signal (the outcomes the model
/// predicts), so they can be recomputed from exported signal times.
struct Predictability: Sendable {
  /// A state's visits, the visits whose slot held a signal, and the signals in them.
  struct Count: Sendable, Equatable {
    var visits: Int32 = 0
    var signalSlots: Int32 = 0
    var signals: Int32 = 0
  }

  /// Signals so far today are told apart up to this many; more count as this many (no
  /// schedule in practice gives a participant that many signals in one day's slots).
  static let soFarLimit = 31

  /// Days of signal slots, stored flat: every slot in one array and where each day ends.
  struct Days: Sendable {
    var slots: [Int32] = []
    var ends: [Int] = []

    var count: Int { ends.count }

    mutating func merge(_ other: Days) {
      let base = slots.count
      slots += other.slots
      ends += other.ends.lazy.map { $0 + base }
    }

    /// The most signals any day had.
    var busiestDay: Int {
      var most = 0
      var start = 0
      for end in ends {
        most = max(most, end - start)
        start = end
      }
      return most
    }
  }

  /// The days the model is fitted on (even days) and scored on (odd days): each day's
  /// signal slots, sorted. The model is fitted once, in ``result(slotCount:)``; keeping the
  /// days rather than counts makes merging a concatenation, cheap and in order.
  var fitDays = Days()
  var heldOut = Days()

  /// Records a signal in `slot` on study day `day` (slots in order within the day).
  @inline(__always)
  mutating func record(day: Int, slot: Int) {
    if day % 2 == 0 { fitDays.slots.append(Int32(slot)) } else { heldOut.slots.append(Int32(slot)) }
  }

  /// Ends study day `day` (after its signals were recorded).
  mutating func endDay(_ day: Int) {
    if day % 2 == 0 { fitDays.ends.append(fitDays.slots.count) } else { heldOut.ends.append(heldOut.slots.count) }
  }

  mutating func merge(_ other: Predictability) {
    fitDays.merge(other.fitDays)
    heldOut.merge(other.heldOut)
  }

  /// The counts of `days`, one per state of the flat table.
  ///
  /// The state before slot `s` is (s, signals so far today capped at `soFarCap`, slots since
  /// the last signal: 0 for none yet today); it sits at
  /// `(s · (soFarCap + 1) + soFar) · (slotCount + 1) + sinceLast`, so the states keep the
  /// order (slot, so far, since last) whatever the cap. Between two signals a day moves
  /// along a diagonal of this table (the next slot, one more slot since the last signal;
  /// before the first signal, the next slot only), so each run of visits is marked at its
  /// two ends and the visits are summed along the diagonals once at the end: the cost is in
  /// signals, not in days × slots.
  static func counts(_ days: Days, slotCount: Int, soFarCap: Int) -> [Count] {
    let row = slotCount + 1
    let slotStride = (soFarCap + 1) * row
    let size = slotCount * slotStride
    var table = Array(repeating: Count(), count: size)
    // Run ends along the two diagonals: before the first signal (step slotStride) and after
    // one (step slotStride + 1). A run's end mark can lie one step past the table.
    let before = UnsafeMutableBufferPointer<Int32>.allocate(capacity: size + slotStride + 2)
    let after = UnsafeMutableBufferPointer<Int32>.allocate(capacity: size + slotStride + 2)
    before.initialize(repeating: 0)
    after.initialize(repeating: 0)
    defer {
      before.deallocate()
      after.deallocate()
    }
    table.withUnsafeMutableBufferPointer { t in
      days.slots.withUnsafeBufferPointer { slots in
        // Visits of the slots `from...to` of a run that starts at `cell`.
        func run(from: Int, to: Int, cell: Int, signalSeen: Bool) {
          if signalSeen {
            after[cell] += 1
            after[cell + (to - from + 1) * (slotStride + 1)] -= 1
          } else {
            before[cell] += 1
            before[cell + (to - from + 1) * slotStride] -= 1
          }
        }
        var start = 0
        for end in days.ends {
          var next = start
          var runStart = 0  // the first slot of the current run
          var soFar = 0
          var signalSeen = false
          while next < end {
            let s = Int(slots[next])
            var count: Int32 = 0
            while next < end && Int(slots[next]) == s {
              count += 1
              next += 1
            }
            let rowStart = min(soFar, soFarCap) * row
            let cell = runStart * slotStride + rowStart + (signalSeen ? 1 : 0)
            run(from: runStart, to: s, cell: cell, signalSeen: signalSeen)
            let here = s * slotStride + rowStart + (signalSeen ? 1 + s - runStart : 0)
            t[here].signalSlots += 1
            t[here].signals += count
            soFar += Int(count)
            runStart = s + 1
            signalSeen = true
          }
          if runStart < slotCount {
            let cell = runStart * slotStride + min(soFar, soFarCap) * row + (signalSeen ? 1 : 0)
            run(from: runStart, to: slotCount - 1, cell: cell, signalSeen: signalSeen)
          }
          start = end
        }
        // Only states with no more slots since the last signal than the slot's own index are
        // ever visited (a run after a signal starts at slot 1 or later with 1 slot since it):
        // the sums run over those, about half the table; the rest stay zero in both diagonals.
        for s in 0..<slotCount {
          for soFar in 0...soFarCap {
            let first = s * slotStride + soFar * row
            for c in first...(first + s) {
              if c >= slotStride { before[c] += before[c - slotStride] }
              if c >= slotStride + 1 { after[c] += after[c - slotStride - 1] }
              t[c].visits = before[c] + after[c]
            }
          }
        }
      }
    }
    return table
  }

  /// The fitted probability of a signal in a state: add-½ smoothing.
  static func probability(_ c: Count) -> Double {
    (Double(c.signalSlots) + 0.5) / (Double(c.visits) + 1)
  }

  struct Result: Sendable, Equatable {
    var bitsPerSignal: Double
    var bitsPerDay: Double
    var forcedShare: Double
    var maxHazard: Double
    var heldOutDays: Int
  }

  /// Fits on the even days, scores the odd ones. The log-loss is summed state by state
  /// (each state's held-out visits with and without a signal), so each state's logarithms
  /// are taken once.
  func result(slotCount: Int) -> Result {
    // The table needs no more "signals so far" than the busiest day had: states beyond it are
    // never visited. (The states keep their order, so the sums below are the same as with
    // the full table.)
    let busiest = max(fitDays.busiestDay, heldOut.busiestDay)
    let cap = min(busiest, Self.soFarLimit)
    let fitted = Self.counts(fitDays, slotCount: slotCount, soFarCap: cap)
    let held = Self.counts(heldOut, slotCount: slotCount, soFarCap: cap)
    var bits = 0.0
    var signals = 0
    var signalSlots = 0
    var forced = 0
    for (f, h) in zip(fitted, held) where h.visits > 0 {
      let p = Self.probability(f)
      // A slot with a signal costs −log2 p once, whatever its number of signals.
      if h.signalSlots > 0 { bits -= Double(h.signalSlots) * log2(p) }
      if h.visits > h.signalSlots { bits -= Double(h.visits - h.signalSlots) * log2(1 - p) }
      signals += Int(h.signals)
      signalSlots += Int(h.signalSlots)
      if p >= 0.5 { forced += Int(h.signals) }
    }
    let hazard = fitted.lazy.filter { $0.visits >= 100 }.map(Self.probability).max() ?? .nan
    // Per signal as the model sees signals: a slot holding a signal is one outcome, so two
    // signals in one slot (a per-minute coin does it; 2 % of Bernoulli's) count once, as
    // they do in the log-loss. The slots after a day's last signal, to the window's end, and
    // the whole of a day without a signal are scored as slots without one.
    return Result(
      bitsPerSignal: signalSlots == 0 ? .nan : bits / Double(signalSlots),
      bitsPerDay: heldOut.count == 0 ? .nan : bits / Double(heldOut.count),
      forcedShare: signals == 0 ? .nan : Double(forced) / Double(signals),
      maxHazard: hazard, heldOutDays: heldOut.count)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
