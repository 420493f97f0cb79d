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
  struct Count: Sendable, Equatable {
    var visits: Int32 = 0
    var signals: Int32 = 0
  }

  /// Signals so far today are told apart up to this many; more count as this many (no
  /// schedule in practice gives a participant that many signals in one day's slots).
  static let soFarLimit = 31

  /// The fitted counts, one per state, in a flat table indexed by ``index(slot:soFar:sinceLast:slotCount:)``
  /// (allocated on first use: most accumulators of a large run never fit anything).
  var fitted: [Count] = []
  /// The held-out days: each day's signal slots, sorted.
  var heldOut: [[Int]] = []

  /// The state's place in the flat table.
  @inline(__always)
  static func index(slot: Int, soFar: Int, sinceLast: Int, slotCount: Int) -> Int {
    (slot * (soFarLimit + 1) + min(soFar, soFarLimit)) * (slotCount + 1) + sinceLast
  }

  /// The states a day passes through, with the number of signals in each slot.
  @inline(__always)
  static func walk(slots: [Int], slotCount: Int, _ visit: (_ state: Int, _ count: Int) -> Void) {
    var next = 0
    var sinceLast = 0  // 0: no signal yet today
    var soFar = 0
    for s in 0..<slotCount {
      var count = 0
      while next < slots.count && slots[next] == s {
        count += 1
        next += 1
      }
      visit(index(slot: s, soFar: soFar, sinceLast: sinceLast, slotCount: slotCount), count)
      soFar += count
      if count > 0 {
        sinceLast = 1
      } else if sinceLast > 0 {
        sinceLast += 1
      }
    }
  }

  mutating func add(day: Int, slots: [Int], slotCount: Int) {
    if day % 2 == 0 {
      if fitted.isEmpty {
        fitted = Array(repeating: Count(), count: slotCount * (Self.soFarLimit + 1) * (slotCount + 1))
      }
      fitted.withUnsafeMutableBufferPointer { table in
        Self.walk(slots: slots, slotCount: slotCount) { state, count in
          table[state].visits += 1
          if count > 0 { table[state].signals += 1 }
        }
      }
    } else {
      heldOut.append(slots)
    }
  }

  mutating func merge(_ other: Predictability) {
    if fitted.isEmpty {
      fitted = other.fitted
    } else if !other.fitted.isEmpty {
      precondition(fitted.count == other.fitted.count)
      for i in fitted.indices {
        fitted[i].visits += other.fitted[i].visits
        fitted[i].signals += other.fitted[i].signals
      }
    }
    heldOut += other.heldOut
  }

  /// The fitted probability of a signal in a state.
  func probability(_ state: Int) -> Double {
    let c = fitted.isEmpty ? Count() : fitted[state]
    return (Double(c.signals) + 0.5) / (Double(c.visits) + 1)
  }

  struct Result: Sendable, Equatable {
    var bitsPerSignal: Double
    var bitsPerDay: Double
    var forcedShare: Double
    var maxHazard: Double
  }

  func result(slotCount: Int) -> Result {
    var bits = 0.0
    var signals = 0
    var forced = 0
    for day in heldOut {
      Self.walk(slots: day, slotCount: slotCount) { state, count in
        let p = probability(state)
        if count > 0 {
          bits -= log2(p)
          signals += count
          if p >= 0.5 { forced += count }
        } else {
          bits -= log2(1 - p)
        }
      }
    }
    let hazard = fitted.lazy.filter { $0.visits >= 100 }
      .map { (Double($0.signals) + 0.5) / (Double($0.visits) + 1) }.max() ?? .nan
    return Result(
      bitsPerSignal: signals == 0 ? .nan : bits / Double(signals),
      bitsPerDay: heldOut.isEmpty ? .nan : bits / Double(heldOut.count),
      forcedShare: signals == 0 ? .nan : Double(forced) / Double(signals),
      maxHazard: hazard)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
