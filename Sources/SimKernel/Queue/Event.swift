/// A pending event: a small value type with no references, 32 bytes.
///
/// Events are ordered by `(time, priority, sequence)`. The sequence number is assigned by the
/// ``Simulator`` when the event is scheduled, so events with equal time and priority pop
/// first-in first-out and a run never depends on the heap's internals.
///
/// The kernel does not know what an event means: `kind` is the model's own code (dispatch on
/// it with a `switch`), `entity` says whom it concerns (in a per-participant queue usually 0),
/// and `payload` carries one small integer (an index into the model's own arrays).
public struct Event: Sendable, Equatable {
  /// When the event fires.
  public var time: SimTime
  /// Priority (top 8 bits) and sequence number (low 56 bits): the tie-breakers after `time`.
  public var order: UInt64
  /// The entity the event concerns.
  public var entity: UInt32
  /// One small integer for the model (for example a prompt's index).
  public var payload: Int32
  /// The generation of `slot` when the event was scheduled (see ``Simulator/cancel(slot:)``).
  public var generation: UInt32
  /// The model's event code.
  public var kind: UInt16
  /// The cancellation slot; slot 0 is never cancelled.
  public var slot: UInt16

  /// Creates an event. The ``Simulator`` fills `order` and `generation` when scheduling.
  @inlinable
  public init(
    time: SimTime, order: UInt64 = 0, entity: UInt32 = 0, payload: Int32 = 0,
    generation: UInt32 = 0, kind: UInt16, slot: UInt16 = 0
  ) {
    self.time = time
    self.order = order
    self.entity = entity
    self.payload = payload
    self.generation = generation
    self.kind = kind
    self.slot = slot
  }

  /// The event's priority (lower pops first among events at the same time).
  @inlinable
  public var priority: Priority { Priority(rawValue: UInt8(truncatingIfNeeded: order >> 56)) }

  /// The event's sequence number (the order in which it was scheduled).
  @inlinable
  public var sequence: UInt64 { order & Priority.sequenceMask }

  /// Whether `self` fires before `other`: by time, then priority, then sequence.
  ///
  /// One 128-bit comparison of `(time, order)`, which compiles without branches (the
  /// choice between two children in the heap is a coin flip that a branch predictor
  /// cannot learn). Times are never negative (the clock starts at 0 and never moves
  /// backward), so the unsigned comparison is exact.
  @inlinable @inline(__always)
  public func precedes(_ other: Event) -> Bool {
    UInt128(UInt64(bitPattern: time)) << 64 | UInt128(order)
      < UInt128(UInt64(bitPattern: other.time)) << 64 | UInt128(other.order)
  }
}

/// Priority among events at the same time; lower values pop first.
///
/// The named constants are the only priorities the model uses, kept here in one place so
/// that the order of simultaneous events can be read off one table.
public struct Priority: Sendable, Hashable, Comparable {
  /// The raw value (0 pops first).
  public let rawValue: UInt8

  /// Creates a priority from its raw value.
  @inlinable
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// State changes that must be seen by everything else at the same instant
  /// (a phone switching off, a day starting).
  @inlinable public static var urgent: Priority { Priority(rawValue: 0) }
  /// Ordinary events.
  @inlinable public static var normal: Priority { Priority(rawValue: 128) }
  /// Bookkeeping that should see every other event of the same instant first (hour marks).
  @inlinable public static var late: Priority { Priority(rawValue: 255) }

  @inlinable
  public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

  @inlinable
  static var sequenceMask: UInt64 { (1 << 56) - 1 }
}
