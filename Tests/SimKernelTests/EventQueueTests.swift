import Testing

@testable import SimKernel

/// Records the order in which events are handled.
private struct Recorder: EventHandler {
  var seen: [Event] = []
  mutating func handle(_ event: Event, _ sim: inout Simulator) { seen.append(event) }
}

@Suite("Event queue and run loop")
struct EventQueueTests {
  @Test("events with equal time and priority pop first-in first-out")
  func fifoTies() {
    var sim = Simulator()
    for i in 0..<50 { sim.schedule(at: 1_000, kind: 1, payload: Int32(i)) }
    var rec = Recorder()
    sim.run(until: .max, &rec)
    #expect(rec.seen.map(\.payload) == Array(0..<50).map(Int32.init))
  }

  @Test("priority orders before sequence, time before both")
  func priorityBeforeSequence() {
    var sim = Simulator()
    sim.schedule(at: 10, kind: 1, payload: 0, priority: .late)
    sim.schedule(at: 10, kind: 1, payload: 1, priority: .normal)
    sim.schedule(at: 10, kind: 1, payload: 2, priority: .urgent)
    sim.schedule(at: 5, kind: 1, payload: 3, priority: .late)
    sim.schedule(at: 10, kind: 1, payload: 4, priority: .urgent)
    var rec = Recorder()
    sim.run(until: .max, &rec)
    #expect(rec.seen.map(\.payload) == [3, 2, 4, 1, 0])
  }

  @Test("cancelling a slot removes exactly its pending events")
  func cancellation() {
    var sim = Simulator(slots: 3)
    sim.schedule(at: 10, kind: 1, payload: 0, slot: 1)
    sim.schedule(at: 20, kind: 1, payload: 1, slot: 2)
    sim.schedule(at: 30, kind: 1, payload: 2, slot: 1)
    sim.schedule(at: 40, kind: 1, payload: 3)
    sim.cancel(slot: 1)
    sim.schedule(at: 50, kind: 1, payload: 4, slot: 1)  // scheduled after the cancel: live
    var rec = Recorder()
    let handled = sim.run(until: .max, &rec)
    #expect(rec.seen.map(\.payload) == [1, 3, 4])
    #expect(handled == 3)
    #expect(sim.pendingCount == 0)
  }

  @Test("cancelled events far ahead are swept out of the queue without changing the order of the rest")
  func sweepKeepsOrder() {
    // Every event re-arms a timer far ahead in slot 1 (cancelling the last one) and keeps
    // a few live events in slot 0: the model of an app whose kill timer is redrawn often.
    struct Model: EventHandler {
      var stream = RandomStream(StreamAddress(seed: 11, purpose: .general))
      var seen: [(SimTime, Int32)] = []
      var largest = 0
      mutating func handle(_ event: Event, _ sim: inout Simulator) {
        seen.append((sim.now, event.payload))
        largest = max(largest, sim.pendingCount)
        guard seen.count < 20_000 else { return }
        sim.cancel(slot: 1)
        sim.schedule(at: sim.now + 1_000_000 + SimTime(stream.integer(below: 1_000)), kind: 2, payload: -1, slot: 1)
        sim.schedule(at: sim.now + SimTime(stream.integer(below: 3)), kind: 1, payload: Int32(seen.count))
      }
    }
    var sim = Simulator(slots: 2)
    for i in 0..<5 { sim.schedule(at: SimTime(i), kind: 1, payload: Int32(i)) }
    var model = Model()
    sim.run(until: .max, &model)
    // The same run by a reference: a list searched for its earliest event, a cancelled
    // event removed at once.
    var pending: [(time: SimTime, seq: Int, payload: Int32, slot: Int)] = (0..<5).map { (SimTime($0), $0, Int32($0), 0) }
    var seq = 5
    var stream = RandomStream(StreamAddress(seed: 11, purpose: .general))
    var seen: [(SimTime, Int32)] = []
    while let k = pending.indices.min(by: { (pending[$0].time, pending[$0].seq) < (pending[$1].time, pending[$1].seq) }) {
      let e = pending.remove(at: k)
      seen.append((e.time, e.payload))
      guard seen.count < 20_000 else { continue }
      pending.removeAll { $0.slot == 1 }
      pending.append((e.time + 1_000_000 + SimTime(stream.integer(below: 1_000)), seq, -1, 1))
      pending.append((e.time + SimTime(stream.integer(below: 3)), seq + 1, Int32(seen.count), 0))
      seq += 2
    }
    #expect(model.seen.count == seen.count)
    #expect(zip(model.seen, seen).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 })
    // Without the sweep the queue would hold ~20,000 cancelled timers.
    #expect(model.largest < 2 * Simulator.smallestSweep)
  }

  @Test("run(until:) stops before later events and moves the clock to the limit")
  func runUntil() {
    var sim = Simulator()
    sim.schedule(at: 10, kind: 1, payload: 0)
    sim.schedule(at: 100, kind: 1, payload: 1)
    var rec = Recorder()
    #expect(sim.run(until: 50, &rec) == 1)
    #expect(sim.now == 50)
    #expect(sim.pendingCount == 1)
    #expect(sim.run(until: 100, &rec) == 1)
    #expect(rec.seen.map(\.time) == [10, 100])
  }

  @Test("the clock never moves backward while events are handled")
  func monotoneClock() {
    struct Reschedule: EventHandler {
      var stream = RandomStream(StreamAddress(seed: 7, purpose: .general))
      var times: [SimTime] = []
      mutating func handle(_ event: Event, _ sim: inout Simulator) {
        times.append(sim.now)
        if times.count < 5_000 {
          // Zero delays included: ties must still be handled in order.
          sim.schedule(at: sim.now + SimTime(stream.integer(below: 3)), kind: 1)
          sim.schedule(at: sim.now + SimTime(stream.integer(below: 1_000)), kind: 2)
        }
      }
    }
    var sim = Simulator()
    sim.schedule(at: 0, kind: 1)
    var model = Reschedule()
    sim.run(until: .max, &model)
    #expect(model.times.count > 5_000)
    #expect(zip(model.times, model.times.dropFirst()).allSatisfy { $0 <= $1 })
  }

  @Test("a handler sees when the next other event fires, before and after it schedules, in queues of every size")
  func nextPendingTime() {
    // Each handler compares nextPendingTime with the earliest of the events still pending
    // (kept aside), before and after scheduling one or two more.
    struct Model: EventHandler {
      var stream = RandomStream(StreamAddress(seed: 13, purpose: .general))
      var pending: [SimTime] = []
      var checked = 0
      var wrong = 0
      mutating func handle(_ event: Event, _ sim: inout Simulator) {
        pending.remove(at: pending.firstIndex(of: event.time)!)
        if sim.nextPendingTime != (pending.min() ?? .max) { wrong += 1 }
        for _ in 0..<(checked < 3_000 ? Int(stream.integer(below: 4)) : 0) {
          let t = sim.now + SimTime(stream.integer(below: 500))
          sim.schedule(at: t, kind: 1)
          pending.append(t)
          if sim.nextPendingTime != (pending.min() ?? .max) { wrong += 1 }
        }
        checked += 1
      }
    }
    var sim = Simulator()
    var model = Model()
    for _ in 0..<40 {
      let t = SimTime(model.stream.integer(below: 100))
      sim.schedule(at: t, kind: 1)
      model.pending.append(t)
    }
    #expect(sim.nextPendingTime == model.pending.min())
    sim.run(until: .max, &model)
    #expect(model.checked > 3_000)
    #expect(model.wrong == 0)
    #expect(sim.nextPendingTime == .max)
  }

  @Test("a prepared event keeps the place it took among simultaneous events, however late it is queued")
  func preparedKeepsPlace() {
    var sim = Simulator(slots: 2)
    sim.schedule(at: 10, kind: 1, payload: 0)  // held: its place is taken first
    sim.schedule(at: 10, kind: 1, payload: 1)  // queues the first, is held itself
    sim.schedule(at: 5, kind: 1, payload: 2, slot: 1)  // queues the second, is held itself
    sim.cancel(slot: 1)
    var rec = Recorder()
    #expect(sim.run(until: .max, &rec) == 2)
    #expect(rec.seen.map(\.payload) == [0, 1])
  }

  @Test("a series queued one event at a time in reserved places runs in the order of queueing it all at once")
  func reservedPlacesKeepOrder() {
    // At time 0 a series of events (kind 1) at non-decreasing times is known, then other
    // events (kind 2) are scheduled at the same times; the series is queued whole, or each
    // event when the one before it is handled (in its reserved place, or, to show that the
    // test can fail, in a place taken then).
    enum Mode { case whole, reserved, late }
    struct Model: EventHandler {
      let mode: Mode
      let series: [SimTime]
      let others: [SimTime]
      var first: UInt64 = 0
      var seen: [String] = []
      mutating func handle(_ event: Event, _ sim: inout Simulator) {
        seen.append("\(event.kind):\(event.payload)@\(event.time)")
        switch event.kind {
        case 0:
          switch mode {
          case .whole:
            for (j, t) in series.enumerated() { sim.schedule(at: t, kind: 1, payload: Int32(j)) }
          case .reserved:
            first = sim.reservePlaces(series.count)
            sim.schedule(at: series[0], kind: 1, payload: 0, place: first)
          case .late:
            sim.schedule(at: series[0], kind: 1, payload: 0)
          }
          for (k, t) in others.enumerated() { sim.schedule(at: t, kind: 2, payload: Int32(k)) }
        case 1:
          let j = Int(event.payload) + 1
          guard j < series.count, mode != .whole else { return }
          if mode == .reserved {
            sim.schedule(at: series[j], kind: 1, payload: Int32(j), place: first + UInt64(j))
          } else {
            sim.schedule(at: series[j], kind: 1, payload: Int32(j))
          }
        default: break
        }
      }
    }
    func order(_ mode: Mode, _ series: [SimTime], _ others: [SimTime]) -> [String] {
      var sim = Simulator()
      sim.schedule(at: 0, kind: 0)
      var model = Model(mode: mode, series: series, others: others)
      sim.run(until: .max, &model)
      return model.seen
    }
    var stream = RandomStream(StreamAddress(seed: 17, purpose: .general))
    for round in 0..<200 {
      // Few distinct times, so that ties are common.
      let series = (0..<(1 + round % 9)).map { _ in SimTime(stream.integer(below: 6)) * 10 }.sorted()
      let others = (0..<(round % 7)).map { _ in SimTime(stream.integer(below: 6)) * 10 }
      let whole = order(.whole, series, others)
      #expect(order(.reserved, series, others) == whole, "series \(series), others \(others)")
      if round == 0 { #expect(whole.count == 1 + series.count + others.count) }
    }
    // The late places differ where the series ties with an event scheduled after it.
    #expect(order(.reserved, [10, 20, 20], [20]) == order(.whole, [10, 20, 20], [20]))
    #expect(order(.late, [10, 20, 20], [20]) != order(.whole, [10, 20, 20], [20]))
  }

  @Test("scheduling in the past stops the program")
  func pastEventTraps() async {
    await #expect(processExitsWith: .failure) {
      var sim = Simulator()
      var rec = Recorder()
      sim.schedule(at: 100, kind: 1)
      sim.run(until: .max, &rec)
      sim.schedule(at: 99, kind: 1)
    }
  }

  @Test("heap order holds and pops sort, under random inserts, pops and replaces")
  func heapAgainstSortedReference() {
    var stream = RandomStream(StreamAddress(seed: 11, purpose: .general))
    var queue = EventQueue()
    var reference: [Event] = []
    var sequence: UInt64 = 0
    for _ in 0..<20_000 {
      let op = stream.integer(below: 10)
      let e = Event(time: SimTime(stream.integer(below: 200)), order: sequence, kind: 0)
      sequence += 1
      if op < 5 || queue.isEmpty {
        queue.insert(e)
        reference.append(e)
      } else if op < 8 {
        let popped = queue.popMin()
        let expected = reference.min { $0.precedes($1) }
        #expect(popped == expected)
        reference.removeAll { $0 == expected }
      } else {
        let expected = reference.min { $0.precedes($1) }!
        #expect(queue.replaceMin(with: e) == expected)
        reference.removeAll { $0 == expected }
        reference.append(e)
      }
      #expect(queue.count == reference.count)
    }
    let ordered = queue.isHeapOrdered
    #expect(ordered)
    var drained: [Event] = []
    while let e = queue.popMin() { drained.append(e) }
    #expect(drained == reference.sorted { $0.precedes($1) })
  }

  @Test("a simulator can be reset and reused with the same results")
  func resetReuses() {
    func runOnce(_ sim: inout Simulator) -> [SimTime] {
      sim.schedule(at: 30, kind: 1)
      sim.schedule(at: 10, kind: 1)
      var rec = Recorder()
      sim.run(until: .max, &rec)
      return rec.seen.map(\.time)
    }
    var sim = Simulator()
    let first = runOnce(&sim)
    sim.reset()
    #expect(sim.now == 0)
    #expect(runOnce(&sim) == first)
  }
}

@Suite("Event layout")
struct EventLayoutTests {
  @Test("an event is 32 bytes, so four siblings fill two cache lines")
  func eventIs32Bytes() {
    #expect(MemoryLayout<Event>.stride == 32)
  }

  @Test("a growing queue keeps every event and its order")
  func growth() {
    var queue = EventQueue(capacity: 4)
    var stream = RandomStream(StreamAddress(seed: 5, purpose: .general))
    var times: [SimTime] = []
    for i in 0..<1_000 {
      let t = SimTime(stream.integer(below: 10_000))
      times.append(t)
      queue.insert(Event(time: t, order: UInt64(i), kind: 0))
    }
    var popped: [SimTime] = []
    while let e = queue.popMin() { popped.append(e.time) }
    #expect(popped == times.sorted())
  }
}
