/// What the model does when an event fires.
///
/// The handler receives the event and the simulator, through which it schedules follow-up
/// events and cancels pending ones. Dispatch on ``Event/kind`` with a `switch`.
public protocol EventHandler {
  /// Handles one event. `simulator.now` equals `event.time`.
  mutating func handle(_ event: Event, _ simulator: inout Simulator)
}

/// A discrete-event simulator: a clock, a queue and the run loop.
///
/// ```
/// var sim = Simulator()
/// sim.schedule(at: 5 * Tick.minute, kind: 1)
/// sim.run(until: Tick.day, &model)   // model: some EventHandler
/// ```
///
/// **Contracts.** Time is integer milliseconds and never moves backward: scheduling an event
/// in the past is a programming error and stops the program. Events at the same time pop by
/// priority, then first-in first-out. Cancellation is lazy: ``cancel(slot:)`` bumps the slot's
/// generation, and events scheduled under an older generation are skipped when they reach
/// the top, or swept out together when the queue has doubled. The last event a handler
/// schedules, when nothing else precedes it, is handed to the handler without the queue, in
/// the order the queue would give. One simulator is small, so each participant can be
/// simulated with its own (`esmsim bench kernel` compares per-entity queues with one global
/// queue).
public struct Simulator: ~Copyable, @unchecked Sendable {
  /// The current time.
  @inlinable public var now: SimTime { clock }
  /// The number of pending events (including cancelled ones not yet skipped, and the one
  /// held).
  @inlinable public var pendingCount: Int { pending.count + (holdsEvent ? 1 : 0) }
  @usableFromInline var clock: SimTime = 0
  @usableFromInline var pending: EventQueue
  /// Each slot's generation, in memory the simulator alone owns (it cannot be copied, so
  /// no write needs the check an array makes that its storage is not shared: a cancellation
  /// is one of the commonest writes of a participant's events). Hence `@unchecked Sendable`,
  /// as ``EventQueue``.
  @usableFromInline let generations: UnsafeMutableBufferPointer<UInt32>
  @usableFromInline var nextSequence: UInt64 = 0
  /// True while the event being handled still sits at the top of the queue: the first
  /// event scheduled by its handler then replaces it in one pass (a fused pop and push).
  @usableFromInline var handledEventAtTop = false
  /// The queue's size at which cancelled events are swept out (see ``run(until:_:)``).
  @usableFromInline var sweepAt = Simulator.smallestSweep
  @usableFromInline static let smallestSweep = 32
  /// The last event the handler scheduled, waiting for it to return (see
  /// ``schedule(at:kind:entity:payload:priority:slot:cancelledAt:)``).
  /// (Held as a plain event and a flag, not an optional: the run loop tests the flag right
  /// after the handler returns, a one-byte read of what the handler just wrote.)
  @usableFromInline var heldEvent = Event(time: 0, kind: 0)
  @usableFromInline var holdsEvent = false
  /// Reference mode: every event goes through the queue, and events scheduled to be cancelled
  /// before they fire (``schedule(at:kind:entity:payload:priority:slot:cancelledAt:)``) are
  /// queued too. The results are the same as without it (tests compare the two); it exists
  /// only for those tests.
  public var queuesEverything = false
  /// The events handed over at once, without the queue, so far (counted among the events
  /// handled too).
  public var eventsHandedOver: Int { handedOver }
  @usableFromInline var handedOver = 0

  /// Creates a simulator at time 0 with `slots` cancellation slots (slot 0 is never cancelled).
  public init(capacity: Int = 16, slots: Int = 1) {
    pending = EventQueue(capacity: capacity)
    generations = .allocate(capacity: Swift.max(slots, 1))
    generations.initialize(repeating: 0)
  }

  deinit { generations.deallocate() }

  /// Empties the queue and sets the clock back to `time`, keeping the allocated storage,
  /// so that one simulator can run many participants one after another.
  public mutating func reset(to time: SimTime = 0) {
    precondition(time >= 0, "simulated time starts at 0 or later")
    pending.removeAll()
    generations.update(repeating: 0)
    nextSequence = 0
    clock = time
    handledEventAtTop = false
    sweepAt = Self.smallestSweep
    holdsEvent = false
    handedOver = 0
  }

  /// Schedules an event: the one way a model queues what happens next.
  ///
  /// The event takes its place among simultaneous events now (ties pop first-in first-out).
  /// Two techniques keep the queue small behind this one call, neither changing any order:
  /// - the last event a handler schedules is held, not queued: when the handler returns and
  ///   nothing pending comes before it, it is the next event anyway, and ``run(until:_:)``
  ///   hands it over at once (a reply, the end of something just started); a handler's next
  ///   call queues the one held;
  /// - an event at or after `cancelledAt`, the moment by which the model will have cancelled
  ///   its slot whatever happens, could never fire, and is not queued at all.
  ///
  /// A series of events known in advance (a day's prompts) is scheduled by
  /// ``reservePlaces(_:)`` and ``schedule(at:kind:payload:place:)`` instead: each is queued only
  /// when the one before it is handled, in the place the whole series would have taken.
  ///
  /// - Parameters:
  ///   - time: when it fires; must not be earlier than ``now``.
  ///   - kind: the model's event code.
  ///   - entity: whom it concerns.
  ///   - payload: one small integer for the model.
  ///   - priority: the tie-breaker among events at the same time.
  ///   - slot: the cancellation slot (0: never cancelled).
  ///   - cancelledAt: when the model cancels `slot` at the latest (`.max`: no such promise).
  /// - Complexity: O(log *n*)
  @inlinable
  public mutating func schedule(
    at time: SimTime, kind: UInt16, entity: UInt32 = 0, payload: Int32 = 0,
    priority: Priority = .normal, slot: UInt16 = 0, cancelledAt: SimTime = .max
  ) {
    let event = prepare(at: time, kind: kind, entity: entity, payload: payload, priority: priority, slot: slot)
    guard time < cancelledAt || queuesEverything else { return }
    hold(event)
  }

  /// Takes `count` places among simultaneous events now, as scheduling that many events here
  /// would, and returns the first; ``schedule(at:kind:payload:place:)`` later queues an
  /// event in one of them. A model that knows a series of events in advance can so queue
  /// each only when the one before it is handled (a smaller queue) in the order that
  /// scheduling them all at once gives.
  @inlinable
  public mutating func reservePlaces(_ count: Int) -> UInt64 {
    precondition(count >= 0, "a negative number of places")
    defer { nextSequence += UInt64(count) }
    return nextSequence
  }

  /// Schedules an event of normal priority in a place taken by ``reservePlaces(_:)``
  /// (never cancelled: slot 0). Each place must be used once at most.
  @inlinable
  public mutating func schedule(at time: SimTime, kind: UInt16, payload: Int32, place: UInt64) {
    precondition(place < nextSequence, "a place not reserved")
    hold(event(at: time, kind: kind, entity: 0, payload: payload, priority: .normal, slot: 0, place: place))
  }

  /// Holds `event` as the one that may be handed over at once, queueing the one held before.
  @inlinable @inline(__always)
  mutating func hold(_ event: Event) {
    if holdsEvent { push(heldEvent) }
    holdsEvent = true
    heldEvent = event
  }

  /// An event as ``schedule(at:kind:entity:payload:priority:slot:cancelledAt:)`` makes it, with its
  /// place among simultaneous events taken now, but not yet queued (``push(_:)``).
  @inlinable
  mutating func prepare(
    at time: SimTime, kind: UInt16, entity: UInt32, payload: Int32, priority: Priority, slot: UInt16
  ) -> Event {
    defer { nextSequence += 1 }
    return event(
      at: time, kind: kind, entity: entity, payload: payload, priority: priority, slot: slot, place: nextSequence)
  }

  /// An event in the given place among simultaneous events (its time checked).
  @inlinable @inline(__always)
  func event(
    at time: SimTime, kind: UInt16, entity: UInt32, payload: Int32, priority: Priority, slot: UInt16, place: UInt64
  ) -> Event {
    precondition(time >= now, "time moves backward: event at \(time) scheduled at \(now)")
    return Event(
      time: time, order: UInt64(priority.rawValue) << 56 | place, entity: entity, payload: payload,
      generation: generations[index(of: slot)], kind: kind, slot: slot)
  }

  /// Queues an event made by ``prepare(at:kind:entity:payload:priority:slot:)`` (its time
  /// checked there).
  @inlinable @inline(__always)
  mutating func push(_ event: Event) {
    if handledEventAtTop {
      pending.replaceHandledMin(with: event)
      handledEventAtTop = false
    } else {
      pending.insert(event)
    }
  }

  /// When the earliest pending event other than the one being handled fires (`.max`: none;
  /// cancelled events still count here, so the answer may be early, never late).
  ///
  /// - Complexity: O(1)
  @inlinable
  public var nextPendingTime: SimTime {
    let queued = handledEventAtTop ? pending.earliestTimeBelowRoot : pending.min?.time ?? .max
    return holdsEvent ? Swift.min(queued, heldEvent.time) : queued
  }

  /// Cancels every pending event of `slot` (lazily: they are skipped when they reach the top).
  ///
  /// - Complexity: O(1)
  @inlinable
  public mutating func cancel(slot: UInt16) {
    precondition(slot != 0, "slot 0 cannot be cancelled")
    generations[index(of: slot)] &+= 1
  }

  /// Whether `event` has not been cancelled.
  @inlinable
  public func isLive(_ event: Event) -> Bool {
    event.generation == generations[index(of: event.slot)]
  }

  /// Where `slot`'s generation is: a slot beyond those the simulator was made with is the
  /// model's error (the buffer, unlike an array, checks no index).
  @inlinable @inline(__always)
  func index(of slot: UInt16) -> Int {
    precondition(Int(slot) < generations.count, "slot \(slot) beyond the simulator's \(generations.count)")
    return Int(slot)
  }

  /// Removes the cancelled events from the queue.
  @usableFromInline
  mutating func sweep() {
    let generations = self.generations
    pending.removeAll { $0.generation != generations[Int($0.slot)] }
    sweepAt = Swift.max(2 * pending.count, Self.smallestSweep)
  }

  /// Runs events in order until the next one would fire after `limit` or none is left,
  /// then sets the clock to `limit` (if it is ahead).
  ///
  /// - Returns: the number of events handled (cancelled events are not counted).
  @inlinable
  @discardableResult
  public mutating func run<H: EventHandler>(until limit: SimTime, _ handler: inout H) -> Int {
    var handled = 0
    // An event held before the run is an ordinary event.
    if holdsEvent {
      holdsEvent = false
      push(heldEvent)
    }
    while true {
      // Cancelled events far in the future would otherwise stay in the queue and deepen
      // every sift; sweeping them when the queue has doubled keeps it to the live events
      // at O(1) amortised cost, and changes no order.
      if pending.count >= sweepAt { sweep() }
      guard let event = pending.min, event.time <= limit else { break }
      precondition(event.time >= now, "time moves backward")
      clock = event.time
      handledEventAtTop = true
      if isLive(event) {
        handler.handle(event, &self)
        handled += 1
        // The held event, when nothing else comes before it, is the next event: handled at once.
        while holdsEvent {
          holdsEvent = false
          let next = heldEvent
          guard isLive(next) else { continue }
          if !queuesEverything && next.time <= limit && nextPendingTime > next.time {
            clock = next.time
            handedOver += 1
            handler.handle(next, &self)
            handled += 1
          } else {
            push(next)
          }
        }
      }
      if handledEventAtTop {
        _ = pending.popMin()
        handledEventAtTop = false
      }
    }
    if limit > clock { clock = limit }
    return handled
  }
}
