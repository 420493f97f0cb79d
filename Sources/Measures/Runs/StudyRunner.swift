import Dispatch
import SimKernel
import StudyModel

/// Runs a study's participants on several threads and pools them in participant order.
///
/// Participants are independent: each is simulated alone with its own small queue
/// (shared research `des_engines.md` §1.4). They are cut into fixed chunks of
/// ``chunkSize`` (the same whatever the thread count); chunks run in parallel in batches, and
/// their accumulators merge strictly in chunk order, so the results are byte-identical for
/// any number of threads. Participant outcomes are handed to `each` in participant order on
/// the calling thread (for the per-row writers), one batch at a time, so memory stays
/// bounded.
public enum StudyRunner {
  /// Participants per chunk.
  public static let chunkSize = 64

  /// What the runner needs besides the plan.
  public struct Options: Sendable {
    /// Master seed.
    public var seed: UInt64
    /// Worker threads.
    public var threads: Int
    /// Keep per participant-hour coverage rows in the outcomes handed to `each`.
    public var coverageRows: Bool
    /// Study hours in the heat map.
    public var heatHours: Int
    /// Participants feeding the KS sample and the predictability model.
    public var detailParticipants: Int
    /// Derive each participant's Reachability and PowerState events (Beiwe outputs).
    public var phoneEvents = false
    /// Simulate the chunks in this order (a permutation of the chunk indices) instead of
    /// 0, 1, 2…; tests use it to show that the order of work does not matter. All results
    /// are then kept until the end. nil: in order.
    public var chunkOrder: [Int]?

    /// Creates options.
    public init(
      seed: UInt64, threads: Int = 1, coverageRows: Bool = false, heatHours: Int = 168,
      detailParticipants: Int = 2_000, chunkOrder: [Int]? = nil
    ) {
      self.seed = seed
      self.threads = max(threads, 1)
      self.coverageRows = coverageRows
      self.heatHours = heatHours
      self.detailParticipants = detailParticipants
      self.chunkOrder = chunkOrder
    }
  }

  /// Runs replication `replication` of `plan`.
  ///
  /// - Parameters:
  ///   - each: receives every participant's outcome, in participant order.
  ///   - progress: receives the number of participants done after each batch.
  ///   - shouldStop: polled between batches and, by the workers, between participants; when
  ///     it returns true the run stops early (within one participant per thread) and
  ///     returns nil.
  public static func run(
    _ plan: StudyPlan, replication: UInt32, options: Options, each: (ParticipantOutcome) throws -> Void = { _ in },
    progress: (Int) -> Void = { _ in }, shouldStop: @escaping @Sendable () -> Bool = { false }
  ) rethrows -> StudyAccumulator? {
    let n = plan.participants
    let chunks = (n + chunkSize - 1) / chunkSize
    var total = StudyAccumulator(
      plan: plan, detailParticipants: options.detailParticipants, heatParticipants: 40)
    if let order = options.chunkOrder {
      precondition(order.sorted() == Array(0..<chunks), "chunkOrder must be a permutation of the chunks")
      let results = ChunkResults(count: chunks)
      DispatchQueue.concurrentPerform(iterations: min(options.threads, chunks)) { worker in
        var k = worker
        while k < chunks {
          results.store(order[k], simulate(plan, chunk: order[k], replication: replication, options: options))
          k += options.threads
        }
      }
      for c in 0..<chunks {
        let r = results.take(c)
        total.merge(r.accumulator)
        for o in r.outcomes { try each(o) }
      }
      progress(n)
      return total
    }
    let batch = max(options.threads * 8, 1)
    var next = 0
    while next < chunks {
      if shouldStop() { return nil }
      let count = min(batch, chunks - next)
      let results = ChunkResults(count: count)
      let first = next
      // Each worker takes the next chunk as it finishes one (the chunks differ in work: a
      // heavily used phone costs more than an ideal one); results are kept by chunk index.
      DispatchQueue.concurrentPerform(iterations: min(options.threads, count)) { _ in
        while let c = results.claim() {
          if shouldStop() { break }
          results.store(c, simulate(plan, chunk: first + c, replication: replication, options: options, shouldStop: shouldStop))
        }
      }
      if shouldStop() { return nil }  // some chunks were not finished (it stays true once true)
      for c in 0..<count {
        let r = results.take(c)
        total.merge(r.accumulator)
        for o in r.outcomes { try each(o) }
      }
      next += count
      progress(min(next * chunkSize, n))
    }
    return total
  }

  struct ChunkResult: Sendable {
    var accumulator: StudyAccumulator
    var outcomes: [ParticipantOutcome]
  }

  /// Results of a batch, filled by worker threads, read after all have finished.
  final class ChunkResults: @unchecked Sendable {
    private var slots: [ChunkResult?]
    private let lock = DispatchSemaphore(value: 1)

    private var claimed = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next chunk no worker has taken yet, if any.
    func claim() -> Int? {
      lock.wait()
      defer { lock.signal() }
      guard claimed < slots.count else { return nil }
      claimed += 1
      return claimed - 1
    }

    func store(_ i: Int, _ r: ChunkResult) {
      lock.wait()
      slots[i] = r
      lock.signal()
    }

    func take(_ i: Int) -> ChunkResult {
      lock.wait()
      defer { lock.signal() }
      return slots[i]!
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
        keepRows: options.coverageRows, heatHours: options.heatHours, phoneEvents: options.phoneEvents)
      acc.add(o)
      outcomes.append(o)
    }
    return ChunkResult(accumulator: acc, outcomes: outcomes)
  }
}
