/// How well a participant who knows the algorithm and today's history can anticipate the
/// next signal (shared research `scheduling.md` §4.3; no published measure exists, this is
/// the proposal of that note).
///
/// The day is cut into slots. The state before a slot is (slot, signals so far today, slots
/// since the last signal or "none yet"); the outcome is whether the slot holds a signal.
/// P(signal | state) is fitted with add-½ smoothing, p = (signals + 0.5)/(visits + 1), on the
/// even-numbered days (0, 2, 4, …) and scored by log-loss on the odd-numbered days; a state
/// never seen in fitting gets p = 0.5.
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

    func forEach(_ body: (ArraySlice<Int32>) -> Void) {
      var start = 0
      for end in ends {
        body(slots[start..<end])
        start = end
      }
    }
  }

  /// The days the model is fitted on (even days) and scored on (odd days): each day's
  /// signal slots, sorted. The model is fitted once, in ``result(slotCount:)``; keeping the
  /// days rather than counts makes merging a concatenation, cheap and in order.
  var fitDays = Days()
  var heldOut = Days()

  /// The state's place in the flat table of counts.
  @inline(__always)
  static func index(slot: Int, soFar: Int, sinceLast: Int, slotCount: Int, soFarCap: Int) -> Int {
    (slot * (soFarCap + 1) + min(soFar, soFarCap)) * (slotCount + 1) + sinceLast
  }

  /// The states a day passes through, with the number of signals in each slot.
  @inline(__always)
  static func walk(slots: ArraySlice<Int32>, slotCount: Int, soFarCap: Int, _ visit: (_ state: Int, _ count: Int) -> Void) {
    var next = slots.startIndex
    var sinceLast = 0  // 0: no signal yet today
    var soFar = 0
    for s in 0..<slotCount {
      var count = 0
      while next < slots.endIndex && Int(slots[next]) == s {
        count += 1
        next += 1
      }
      visit(index(slot: s, soFar: soFar, sinceLast: sinceLast, slotCount: slotCount, soFarCap: soFarCap), count)
      soFar += count
      if count > 0 {
        sinceLast = 1
      } else if sinceLast > 0 {
        sinceLast += 1
      }
    }
  }

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
  static func counts(_ days: Days, slotCount: Int, soFarCap: Int) -> [Count] {
    var table = Array(repeating: Count(), count: slotCount * (soFarCap + 1) * (slotCount + 1))
    table.withUnsafeMutableBufferPointer { t in
      days.forEach { day in
        walk(slots: day, slotCount: slotCount, soFarCap: soFarCap) { state, count in
          t[state].visits += 1
          if count > 0 {
            t[state].signalSlots += 1
            t[state].signals += Int32(count)
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
    var forced = 0
    for (f, h) in zip(fitted, held) where h.visits > 0 {
      let p = Self.probability(f)
      // A slot with a signal costs −log2 p once, whatever its number of signals.
      if h.signalSlots > 0 { bits -= Double(h.signalSlots) * log2(p) }
      if h.visits > h.signalSlots { bits -= Double(h.visits - h.signalSlots) * log2(1 - p) }
      signals += Int(h.signals)
      if p >= 0.5 { forced += Int(h.signals) }
    }
    let hazard = fitted.lazy.filter { $0.visits >= 100 }.map(Self.probability).max() ?? .nan
    return Result(
      bitsPerSignal: signals == 0 ? .nan : bits / Double(signals),
      bitsPerDay: heldOut.count == 0 ? .nan : bits / Double(heldOut.count),
      forcedShare: signals == 0 ? .nan : Double(forced) / Double(signals),
      maxHazard: hazard)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
