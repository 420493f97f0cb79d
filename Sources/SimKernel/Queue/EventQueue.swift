/// An array-backed binary min-heap of ``Event`` values.
///
/// The heap is ordered by ``Event/precedes(_:)``: `(time, priority, sequence)`. It holds plain
/// values in one contiguous buffer (no closures, no references), which keeps it cache
/// friendly; see shared research `des_engines.md` §2.3 for the measurements behind this choice.
///
/// The queue is noncopyable: it owns its buffer outright, so the hot path pays for no
/// copy-on-write uniqueness checks. The heap is 1-based in a 64-byte-aligned buffer, so the
/// two children of a node (indices 2i and 2i + 1, 32 bytes each) share one cache line. Cancellation is lazy and lives one level up, in
/// ``Simulator``: the queue itself only stores and orders events.
public struct EventQueue: ~Copyable, @unchecked Sendable {
  @usableFromInline var base: UnsafeMutablePointer<Event>
  @usableFromInline var capacity: Int
  @usableFromInline var size = 0

  /// Creates an empty queue with room for `capacity` events (it grows as needed).
  public init(capacity: Int = 16) {
    self.capacity = Swift.max(capacity, 4)
    base = Self.allocate(self.capacity)
  }

  deinit { base.deallocate() }

  /// Room for `capacity` events at indices 1…capacity, 64-byte aligned.
  static func allocate(_ capacity: Int) -> UnsafeMutablePointer<Event> {
    UnsafeMutableRawPointer.allocate(
      byteCount: (capacity + 1) * MemoryLayout<Event>.stride, alignment: 64
    ).bindMemory(to: Event.self, capacity: capacity + 1)
  }

  /// The number of pending events.
  @inlinable
  public var count: Int { size }

  /// Whether no event is pending.
  @inlinable
  public var isEmpty: Bool { size == 0 }

  /// The earliest event, if any.
  ///
  /// - Complexity: O(1)
  @inlinable
  public var min: Event? { size == 0 ? nil : base[1] }

  /// Removes every event, keeping the allocated capacity.
  @inlinable
  public mutating func removeAll() { size = 0 }

  /// Inserts an event.
  ///
  /// - Complexity: O(log *n*)
  @inlinable
  public mutating func insert(_ event: Event) {
    if size == capacity { grow() }
    size += 1
    var child = size
    while child > 1 {
      let parent = child >> 1
      if !event.precedes(base[parent]) { break }
      base[child] = base[parent]
      child = parent
    }
    base[child] = event
    checkInvariants()
  }

  /// Removes and returns the earliest event.
  ///
  /// - Complexity: O(log *n*)
  @inlinable
  public mutating func popMin() -> Event? {
    guard size > 0 else { return nil }
    let top = base[1]
    size -= 1
    if size > 0 { siftDown(base[size + 1]) }
    return top
  }

  /// Replaces the earliest event with `event` in one pass: the fused "pop, then push the
  /// next event of the same entity" that a hold loop does on every step.
  ///
  /// - Precondition: the queue is not empty.
  /// - Returns: the event that was the earliest.
  /// - Complexity: O(log *n*)
  @inlinable
  @discardableResult
  public mutating func replaceMin(with event: Event) -> Event {
    precondition(size > 0, "replaceMin on an empty queue")
    let top = base[1]
    siftDown(event)
    return top
  }

  /// Puts `event` at the root and moves it down to its place.
  ///
  /// Bottom-up (Wegener): the hole first travels down the path of smaller children to a
  /// leaf, one comparison per level, and `event` then climbs back up. A new event usually
  /// belongs near the bottom, so this saves about half the comparisons of the textbook
  /// two-comparisons-per-level descent.
  @inlinable
  mutating func siftDown(_ event: Event) {
    let n = size
    var hole = 1
    var child = 2
    while child <= n {
      if child < n { child += base[child + 1].precedes(base[child]) ? 1 : 0 }
      base[hole] = base[child]
      hole = child
      child = 2 * hole
    }
    while hole > 1 {
      let parent = hole >> 1
      if !event.precedes(base[parent]) { break }
      base[hole] = base[parent]
      hole = parent
    }
    base[hole] = event
    checkInvariants()
  }

  @usableFromInline
  mutating func grow() {
    let bigger = Self.allocate(capacity * 2)
    (bigger + 1).moveInitialize(from: base + 1, count: size)
    base.deallocate()
    base = bigger
    capacity *= 2
  }

  /// Checks the heap property after every mutation when built with
  /// `-Xswiftc -DESMSIM_INTERNAL_CHECKS`; compiles to nothing otherwise.
  @inlinable @inline(__always)
  func checkInvariants() {
    #if ESMSIM_INTERNAL_CHECKS
      precondition(isHeapOrdered, "event queue: heap property broken")
    #endif
  }

  /// Whether every event is ordered after its parent (the heap property).
  ///
  /// - Complexity: O(*n*)
  public var isHeapOrdered: Bool {
    (2..<Swift.max(size + 1, 2)).allSatisfy { !base[$0].precedes(base[$0 >> 1]) }
  }
}
