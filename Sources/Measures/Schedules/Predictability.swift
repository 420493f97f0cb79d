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
    var visits = 0
    var signals = 0
  }

  var fitted: [Int: Count] = [:]
  /// The held-out days: each day's signal slots, sorted.
  var heldOut: [[Int]] = []

  /// The states a day passes through, with the number of signals in each slot.
  static func walk(slots: [Int], slotCount: Int, _ visit: (_ key: Int, _ count: Int) -> Void) {
    var next = 0
    var sinceLast = 0  // 0: no signal yet today
    var soFar = 0
    for s in 0..<slotCount {
      var count = 0
      while next < slots.count && slots[next] == s {
        count += 1
        next += 1
      }
      visit(s | min(soFar, 0xFFFF) << 16 | min(sinceLast, 0xFFFF) << 32, count)
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
      Self.walk(slots: slots, slotCount: slotCount) { key, count in
        fitted[key, default: Count()].visits += 1
        if count > 0 { fitted[key, default: Count()].signals += 1 }
      }
    } else {
      heldOut.append(slots)
    }
  }

  mutating func merge(_ other: Predictability) {
    fitted.merge(other.fitted) { Count(visits: $0.visits + $1.visits, signals: $0.signals + $1.signals) }
    heldOut += other.heldOut
  }

  /// The fitted probability of a signal in a state.
  func probability(_ key: Int) -> Double {
    let c = fitted[key] ?? Count()
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
      Self.walk(slots: day, slotCount: slotCount) { key, count in
        let p = probability(key)
        if count > 0 {
          bits -= log2(p)
          signals += count
          if p >= 0.5 { forced += count }
        } else {
          bits -= log2(1 - p)
        }
      }
    }
    // The maximum over values does not depend on the dictionary's order.
    let hazard = fitted.values.filter { $0.visits >= 100 }
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
