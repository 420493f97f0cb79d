import Schedules
import SimKernel
import StudyModel
import Foundation
import Testing

@testable import Study
import Measures

/// Everything an accumulator holds that reaches the outputs, as text with every digit (two
/// accumulators print the same exactly when their results are identical).
func fingerprint(_ a: StudyAccumulator) -> String {
  let s = a.scheduledTimes.summary()
  let t = a.answeredTimes.summary()
  var out = "\(a.participants) \(a.droppedOut) \(a.enrolledMilliseconds) \(a.events) \(a.scheduled) \(a.delivered) "
  out += "\(a.answered) \(a.answersReceived) \(a.volunteered) \(a.statusCounts) \(a.reasonCounts)\n"
  out += "\(a.deliveredByHour) \(a.answeredByHour) \(a.deliveredByDay) \(a.answeredByDay) \(a.latency.quantile(0.5))\n"
  out += "\(a.bias.mean) \(a.bias.sd) \(a.bias.rootMeanSquare) \(a.reportedMeans.mean) \(a.trueMeans.mean)\n"
  out += "\(a.tallies) \(a.yield) \(a.heat)\n"
  for m in [s, t] {
    out += "\(m.intensity) \(m.ksD) \(m.ksP) \(m.minGap) \(m.maxGap) \(m.bitsPerSignal) \(m.bitsPerDay) \(m.forcedShare) \(m.maxHazard)\n"
  }
  for r in a.participantRows { out += "\(r)\n" }
  return out
}

@Suite("The study runner: results do not depend on threads, order of work or grouping")
struct StudyRunnerTests {
  /// A small study with everything on: two device kinds, both systems, a push channel,
  /// silent pushes, sensors, dropout, state-dependent answering.
  static let plan: StudyPlan = {
    let w = try! Window(parsing: "08:00-22:00")
    var plan = StudyPlan(
      days: 6, participants: 300, devices: [(profile: .nonControlled, share: 0.6), (profile: .heavy, share: 0.4)],
      systems: [(os: .ios, share: 0.6), (os: .android, share: 0.4)],
      protocolPlan: ProtocolPlan(
        schedules: [SchedulePart(ScheduleChoice(.mappiness, ScheduleParameters(perDay: 5)), window: .fixed(weekday: w, weekend: w))],
        channel: .push, expiry: .after(30 * Tick.minute),
        sensors: [
          SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute)),
          SensorPlan(name: "weather", kind: .periodic(period: 10 * Tick.minute), needsNetwork: true),
        ]))
    plan.protocolPlan.silentPushEvery = 30 * Tick.minute
    plan.compliance.dropoutPerDay = 0.05
    plan.compliance.stateDependence = 0.5
    return plan
  }()

  func run(threads: Int, chunkOrder: [Int]? = nil) -> StudyAccumulator {
    try! StudyRunner.run(
      Self.plan, replication: 0, options: StudyRunner.Options(seed: 3, threads: threads, detailParticipants: 100, chunkOrder: chunkOrder))!
  }

  @Test("the median found by selection is the sorted values' median, on random, tied and ordered values")
  func medianBySelection() {
    var s = RandomStream(StreamAddress(seed: 23, purpose: .general))
    var inputs: [[Double]] = [[], [1], [2, 1], Array(repeating: 3, count: 101), (0..<200).map(Double.init)]
    inputs.append((0..<201).map { Double(200 - $0) })
    for _ in 0..<2_000 {
      let n = Int(s.integer(below: 400)) + 1
      // Few distinct values half of the time (ties around the middle), else continuous ones.
      let tied = s.bernoulli(0.5)
      inputs.append((0..<n).map { _ in tied ? Double(s.integer(below: 5)) : s.exponential(mean: 60) })
    }
    var wrong = 0
    for v in inputs {
      var w = v
      let got = Moments.median(selecting: &w)
      let expected = Moments.median(sorted: v.sorted())
      if !(got == expected || (got.isNaN && expected.isNaN)) { wrong += 1 }
      if w.sorted() != v.sorted() { wrong += 1 }  // reordered, nothing lost
    }
    #expect(wrong == 0)
  }

  /// participants.csv's response rate is Mappiness': signalled responses over signals sent
  /// (the prompts due, not ignored, before a dropout), not over those delivered.
  @Test("a participant's response rate is answered over signals sent, as Mappiness shows it")
  func mappinessResponseRate() {
    let rows = run(threads: 2).participantRows
    #expect(rows.contains { $0.delivered < $0.counted })  // some prompts never reached the phone
    for r in rows where r.counted > 0 {
      #expect(r.responseRate == Double(r.completed) / Double(r.counted), "\(r.participant)")
    }
  }

  @Test("threads 1, 2 and 4 and a shuffled order of chunks give identical results")
  func threadsAndOrder() {
    let one = fingerprint(run(threads: 1))
    #expect(one.contains("\n"))
    #expect(fingerprint(run(threads: 2)) == one)
    #expect(fingerprint(run(threads: 4)) == one)
    let chunks = (Self.plan.participants + StudyRunner.chunkSize - 1) / StudyRunner.chunkSize
    var s = RandomStream(StreamAddress(seed: 9, purpose: .general))
    var order = Array(0..<chunks)
    for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, Int(s.integer(below: UInt64(i + 1)))) }
    #expect(order != Array(0..<chunks))
    #expect(fingerprint(run(threads: 2, chunkOrder: order)) == one)
  }

  @Test("accumulators merged in different groupings give identical results")
  func groupings() {
    let outcomes = (0..<120).map {
      ParticipantSimulation.outcome(plan: Self.plan, seed: 4, replication: 0, participant: UInt32($0), heatHours: 48)
    }
    func grouped(_ size: Int) -> StudyAccumulator {
      var total = StudyAccumulator(plan: Self.plan, detailParticipants: 50, heatParticipants: 10)
      for start in stride(from: 0, to: outcomes.count, by: size) {
        var part = StudyAccumulator(plan: Self.plan, detailParticipants: 50, heatParticipants: 10)
        for o in outcomes[start..<min(start + size, outcomes.count)] { part.add(o) }
        total.merge(part)
      }
      return total
    }
    let whole = fingerprint(grouped(outcomes.count))
    for size in [1, 7, 64] { #expect(fingerprint(grouped(size)) == whole, "groups of \(size)") }
    // A tree of merges ((a + b) + (c + d)) too.
    var left = StudyAccumulator(plan: Self.plan, detailParticipants: 50, heatParticipants: 10)
    var right = left
    for o in outcomes[..<60] { left.add(o) }
    for o in outcomes[60...] { right.add(o) }
    left.merge(right)
    #expect(fingerprint(left) == whole)
  }

  @Test("participants reach `each` in order; a stop or a throwing `each` ends the run without waiting for the rest")
  func stopsAndErrors() {
    // In order, every participant once, whatever the threads.
    var seen: [Int] = []
    let done = StudyRunner.run(
      Self.plan, replication: 0, options: StudyRunner.Options(seed: 3, threads: 2, detailParticipants: 100),
      each: { seen.append($0.participant) })
    #expect(done != nil)
    #expect(seen == Array(0..<Self.plan.participants))

    // A stop requested after the first outcomes: nil, and not all participants simulated.
    let count = Counter()
    var handed = 0
    let stopped = StudyRunner.run(
      Self.plan, replication: 0, options: StudyRunner.Options(seed: 3, threads: 2, detailParticipants: 100),
      each: { _ in
        handed += 1
        count.add()
      }, shouldStop: { count.value >= 40 })
    #expect(stopped == nil)
    #expect(handed >= 40 && handed < Self.plan.participants)

    // `each` throws at participant 50: the error comes out, and the run returns.
    struct Full: Error {}
    var reached = 0
    #expect(throws: Full.self) {
      _ = try StudyRunner.run(
        Self.plan, replication: 0, options: StudyRunner.Options(seed: 3, threads: 2, detailParticipants: 100),
        each: { o in
          reached = o.participant
          if o.participant == 50 { throw Full() }
        })
    }
    #expect(reached == 50)
  }
}

/// A count shared with a `@Sendable` closure.
final class Counter: @unchecked Sendable {
  private var n = 0
  private let lock = NSLock()
  func add() { lock.withLock { n += 1 } }
  var value: Int { lock.withLock { n } }
}
