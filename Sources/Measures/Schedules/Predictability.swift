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

    /// Adds a day's signal slots.
    @inline(__always)
    mutating func append(_ day: UnsafeBufferPointer<Int32>) {
      slots.append(contentsOf: day)
      ends.append(slots.count)
    }

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

  /// Records study day `day`'s signal slots (in order within the day) and ends the day.
  @inline(__always)
  mutating func record(day: Int, slots: UnsafeBufferPointer<Int32>) {
    if day % 2 == 0 { fitDays.append(slots) } else { heldOut.append(slots) }
  }

  mutating func merge(_ other: Predictability) {
    fitDays.merge(other.fitDays)
    heldOut.merge(other.heldOut)
  }

  /// Where the states of slot `s` start in the flat table of ``counts(_:slotCount:soFarCap:)``:
  /// the slots before it hold one state with no signal yet and `soFarCap` states for each
  /// number of slots since the last signal up to their own index.
  @inline(__always)
  static func slotStart(_ s: Int, soFarCap cap: Int) -> Int { s + cap * (s * (s - 1) / 2) }

  /// The index of the state before slot `s` with `soFar` signals so far today (capped) and
  /// `sinceLast` slots since the last one: `sinceLast` is 0 exactly when `soFar` is (no signal
  /// yet), and at most `s`.
  @inline(__always)
  static func state(slot s: Int, soFar: Int, sinceLast: Int, soFarCap cap: Int) -> Int {
    let start = slotStart(s, soFarCap: cap)
    return soFar == 0 ? start : stateAfterSignal(from: start, slot: s, soFar: soFar, sinceLast: sinceLast)
  }

  /// ``state(slot:soFar:sinceLast:soFarCap:)`` once a signal has come (`soFar` ≥ 1), from
  /// `start`, where slot `s`'s states start: after its state with none yet, `s` states for
  /// each number of signals so far.
  @inline(__always)
  static func stateAfterSignal(from start: Int, slot s: Int, soFar: Int, sinceLast: Int) -> Int {
    start + 1 + (soFar - 1) * s + (sinceLast - 1)
  }

  /// The counts of `days`, one per state a day can visit, in the order (slot, signals so far,
  /// slots since the last signal) (``state(slot:soFar:sinceLast:soFarCap:)``; `soFarCap` ≥ 1
  /// when a day has a signal).
  ///
  /// The state before slot `s` is (s, signals so far today capped at `soFarCap`, slots since
  /// the last signal: 0 for none yet today). Only the states a day can reach are stored:
  /// none yet (one per slot), or 1 to `soFarCap` signals with 1 to `s` slots since the last.
  /// Between two signals a day moves along a diagonal of the table (the next slot, one more
  /// slot since the last signal; before the first signal, the next slot only), and every run
  /// of visits on the diagonal after a signal in slot d starts at slot d + 1; so each run is
  /// marked where it starts and one step past its end, and the visits are summed along the
  /// diagonals once at the end: the cost is in signals, not in days × slots.
  static func counts(_ days: Days, slotCount: Int, soFarCap cap: Int) -> [Count] {
    precondition(cap >= 1 || days.slots.isEmpty, "a table of days with signals has room for one")
    let starts = (0...slotCount).map { slotStart($0, soFarCap: cap) }
    var table = Array(repeating: Count(), count: starts[slotCount])
    guard slotCount > 0 else { return table }
    // The state after a signal (`f` = signals so far − 1), from the slots' starts.
    func after(slot s: Int, _ f: Int, sinceLast k: Int) -> Int {
      stateAfterSignal(from: starts[s], slot: s, soFar: f + 1, sinceLast: k)
    }
    table.withUnsafeMutableBufferPointer { t in
      days.slots.withUnsafeBufferPointer { slots in
        // Every day starts with no signal yet in slot 0 (state 0).
        t[0].visits += Int32(days.ends.count)
        var start = 0
        for end in days.ends {
          guard start < end else { continue }  // a day without signals: none yet all day long
          // The first signal's slot ends the run of "none yet": marked one step past it.
          var last = Int(slots[start])
          var next = start
          while next < end && Int(slots[next]) == last { next += 1 }
          if last + 1 < slotCount { t[starts[last + 1]].visits -= 1 }
          t[starts[last]].signalSlots += 1
          t[starts[last]].signals += Int32(next - start)
          var soFar = next - start
          // The runs after a signal in slot `last`: from slot last + 1, one slot since it,
          // along the diagonal of `f` signals so far.
          while next < end {
            let s = Int(slots[next])
            let first = next
            while next < end && Int(slots[next]) == s { next += 1 }
            let f = min(soFar, cap) - 1
            t[after(slot: last + 1, f, sinceLast: 1)].visits += 1
            if s + 1 < slotCount { t[after(slot: s + 1, f, sinceLast: s + 1 - last)].visits -= 1 }
            let here = after(slot: s, f, sinceLast: s - last)
            t[here].signalSlots += 1
            t[here].signals += Int32(next - first)
            soFar += next - first
            last = s
          }
          // The run after the day's last signal, to the window's end.
          if last + 1 < slotCount { t[after(slot: last + 1, min(soFar, cap) - 1, sinceLast: 1)].visits += 1 }
          start = end
        }
        // The sums along the diagonals, slot by slot: before a signal, from the last slot's
        // state with none yet; after one, from the state one slot and one step since back.
        for s in 1..<slotCount {
          let (here, back) = (starts[s], starts[s - 1])
          t[here].visits += t[back].visits
          for f in 0..<cap {
            let row = here + 1 + f * s
            let backRow = back + 1 + f * (s - 1)
            for k in 1..<s { t[row + k].visits += t[backRow + k - 1].visits }
          }
        }
      }
    }
    return table
  }

  /// The largest hazard's support: a state visited at least this many times in fitting, and
  /// on at least this share of the fitting days.
  static let hazardMinVisits = 100
  static let hazardMinShare = 0.01

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
      // Forced: a state where most of its fitting visits had a signal (a state never visited
      // in fitting has the prior's one half, and is not forced).
      if f.visits > 0 && p > 0.5 { forced += Int(h.signals) }
    }
    // The largest hazard among states of the day reached often: at least 100 times and on at
    // least 1 % of the fitting days, so that it does not grow with the days drawn (rare states'
    // chances, fitted on a few visits, reach 1 as more days reach them).
    let support = max(Self.hazardMinVisits, Int((Double(fitDays.count) * Self.hazardMinShare).rounded(.up)))
    let hazard = fitted.lazy.filter { Int($0.visits) >= support }.map(Self.probability).max() ?? .nan
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
