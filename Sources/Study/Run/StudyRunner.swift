import Measures
import Dispatch
import Foundation
import SimKernel
import StudyModel

/// Runs a study's participants on several threads and pools them in participant order.
///
/// Participants are independent: each is simulated alone with its own small queue
/// (`esmsim bench kernel` measures the per-entity queues against one global queue). They are cut into fixed chunks of
/// ``chunkSize`` (the same whatever the thread count); worker threads take the next chunk as
/// they finish one, and the calling thread merges the chunks' accumulators strictly in chunk
/// order as they come in, so the results are byte-identical for any number of threads.
/// Participant outcomes are handed to `each` in participant order on the calling thread (for
/// the per-row writers); at most a fixed window of chunks is simulated ahead of the merge,
/// so memory stays bounded.
enum StudyRunner {
  /// Participants per chunk.
  static let chunkSize = 16

  /// What the runner needs besides the plan.
  struct Options: Sendable {
    /// Master seed.
    var seed: UInt64
    /// Worker threads.
    var threads: Int
    /// What the outcomes handed to `each` carry (``OutcomeDetail``).
    var detail: OutcomeDetail
    /// Study hours in the heat map.
    var heatHours: Int
    /// Participants feeding the KS sample and the predictability model.
    var detailParticipants: Int
    /// Simulate the chunks in this order (a permutation of the chunk indices) instead of
    /// 0, 1, 2…; tests use it to show that the order of work does not matter. All results
    /// are then kept until the end. nil: in order.
    var chunkOrder: [Int]?

    /// Creates options.
    init(
      seed: UInt64, threads: Int = 1, detail: OutcomeDetail = [], heatHours: Int = 168,
      detailParticipants: Int = 2_000, chunkOrder: [Int]? = nil
    ) {
      self.seed = seed
      self.threads = max(threads, 1)
      self.detail = detail
      self.heatHours = heatHours
      self.detailParticipants = detailParticipants
      self.chunkOrder = chunkOrder
    }
  }

  /// Runs replication `replication` of `plan`.
  ///
  /// - Parameters:
  ///   - each: receives every participant's outcome, in participant order.
  ///   - progress: receives the number of participants merged so far, every few chunks.
  ///   - shouldStop: polled between chunks and, by the workers, between participants; when
  ///     it returns true the run stops early (within one participant per thread) and
  ///     returns nil.
  static func run(
    _ plan: StudyPlan, replication: UInt32, options: Options, each: (ParticipantOutcome) throws -> Void = { _ in },
    progress: (Int) -> Void = { _ in }, shouldStop: @escaping @Sendable () -> Bool = { false }
  ) rethrows -> StudyAccumulator? {
    let n = plan.participants
    let chunks = (n + chunkSize - 1) / chunkSize
    var total = StudyAccumulator(
      plan: plan, detailParticipants: options.detailParticipants, heatParticipants: 40)
    if let order = options.chunkOrder {
      precondition(order.sorted() == Array(0..<chunks), "chunkOrder must be a permutation of the chunks")
    }
    // Workers take the next chunk as they finish one (chunks differ in work: a heavily used
    // phone costs more than an ideal one) while this thread merges the finished ones in
    // chunk order. At most `window` chunks are claimed and not yet merged, so memory stays
    // bounded whatever the study's size; in a given order of work, every chunk may be.
    let window = options.chunkOrder == nil ? max(options.threads * 16, 2) : max(chunks, 1)
    let pipeline = Pipeline(chunks: chunks, window: window, order: options.chunkOrder)
    // Threads of their own rather than the dispatch pool: this thread waits on them, and a
    // pool already busy (a caller on it, tests run in parallel) would have to grow first.
    let group = DispatchGroup()
    for _ in 0..<min(options.threads, chunks) {
      group.enter()
      let worker = Thread {
        defer { group.leave() }
        while let c = pipeline.claim() {
          if shouldStop() {
            pipeline.store(c, nil)
            continue
          }
          let r = simulate(plan, chunk: c, replication: replication, options: options, shouldStop: shouldStop)
          pipeline.store(c, r)
        }
      }
      worker.stackSize = 8 << 20
      worker.start()
    }
    // However this ends (done, stopped, or `each` threw), the workers claim nothing more
    // and are waited for.
    defer {
      pipeline.abort()
      group.wait()
    }
    for c in 0..<chunks {
      guard let r = pipeline.take(c), !shouldStop() else { return nil }
      total.merge(r.accumulator)
      for o in r.outcomes { try each(o) }
      if (c + 1) % 8 == 0 || c + 1 == chunks { progress(min((c + 1) * chunkSize, n)) }
    }
    return total
  }

  struct ChunkResult: Sendable {
    var accumulator: StudyAccumulator
    var outcomes: [ParticipantOutcome]
  }

  /// The chunks of a run in flight between the workers and the merging thread.
  ///
  /// A worker claims the next chunk (in `order` if given; waiting while `window` chunks are
  /// claimed and not yet taken) and stores its result; the merging thread takes the chunks in order, waiting for
  /// each. `abort()` lets the workers run out: they claim nothing more.
  final class Pipeline: @unchecked Sendable {
    private let chunks: Int
    private let window: Int
    private let order: [Int]?
    private var slots: [ChunkResult?]
    private let ready: [DispatchSemaphore]
    private let room: DispatchSemaphore
    private let lock = DispatchSemaphore(value: 1)
    private var claimed = 0
    private var aborted = false

    init(chunks: Int, window: Int, order: [Int]? = nil) {
      self.chunks = chunks
      self.window = window
      self.order = order
      slots = Array(repeating: nil, count: window)
      ready = (0..<window).map { _ in DispatchSemaphore(value: 0) }
      // Created at 0 and raised, since libdispatch traps when a semaphore is freed below its
      // initial value (as it is when a stopped run leaves chunks untaken).
      room = DispatchSemaphore(value: 0)
      for _ in 0..<window { room.signal() }
    }

    /// The next chunk to simulate, or nil when all are claimed or the run was aborted.
    func claim() -> Int? {
      room.wait()
      lock.wait()
      defer { lock.signal() }
      guard !aborted, claimed < chunks else {
        room.signal()  // let the next waiting worker see it too
        return nil
      }
      claimed += 1
      return order?[claimed - 1] ?? claimed - 1
    }

    /// A claimed chunk's result (nil: stopped before it was simulated).
    func store(_ c: Int, _ r: ChunkResult?) {
      lock.wait()
      slots[c % window] = r
      lock.signal()
      ready[c % window].signal()
    }

    /// Chunk `c`'s result, waiting until it is stored (nil: stopped before it was simulated).
    /// Chunks are taken in order, and not after ``abort()``.
    func take(_ c: Int) -> ChunkResult? {
      ready[c % window].wait()
      lock.wait()
      defer { lock.signal() }
      let r = slots[c % window]
      slots[c % window] = nil
      room.signal()
      return r
    }

    /// Claims nothing more; chunks already claimed are still stored.
    func abort() {
      lock.wait()
      aborted = true
      lock.signal()
      room.signal()  // a worker waiting for room wakes and sees it
    }
  }

  static func simulate(
    _ plan: StudyPlan, chunk: Int, replication: UInt32, options: Options, shouldStop: @Sendable () -> Bool = { false }
  ) -> ChunkResult {
    var acc = StudyAccumulator(plan: plan, detailParticipants: options.detailParticipants, heatParticipants: 40)
    var outcomes: [ParticipantOutcome] = []
    let lo = chunk * chunkSize
    let hi = min(lo + chunkSize, plan.participants)
    outcomes.reserveCapacity(hi - lo)
    for p in lo..<hi {
      if shouldStop() { break }
      let o = ParticipantSimulation.outcome(
        plan: plan, seed: options.seed, replication: replication, participant: UInt32(p),
        detail: options.detail, heatHours: options.heatHours)
      acc.add(o)
      outcomes.append(o)
    }
    return ChunkResult(accumulator: acc, outcomes: outcomes)
  }
}
