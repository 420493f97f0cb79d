import Presentation
import Study
import Measures
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Reporting

/// The interval over participants from one run: its standard error is the spread that
/// replications show, and its 95 % interval covers the mean over many runs 95 % of the time.
@Suite("Intervals over participants within a run")
struct ParticipantIntervalTests {
  static let plan: StudyPlan = {
    let w = try! Window(parsing: "08:00-22:00")
    var plan = StudyPlan(
      days: 4, participants: 80, devices: [(profile: .nonControlled, share: 0.5), (profile: .heavy, share: 0.5)],
      systems: [(os: .ios, share: 1)],
      protocolPlan: ProtocolPlan(
        schedules: [SchedulePart(ScheduleChoice(.mappiness, ScheduleParameters(perDay: 5)), window: .fixed(weekday: w, weekend: w))],
        expiry: .after(30 * Tick.minute), sensors: [SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute))]))
    plan.compliance.dropoutPerDay = 0.02
    plan.protocolPlan.answersTarget = 12  // of at most 20 prompts: some reach it, some not
    return plan
  }()

  @Test("compliance, bias, answers and coverage: participant standard errors match the spread of 200 runs")
  func calibrated() throws {
    let runs = 200
    var estimates: [Metric: [Estimate]] = [:]
    let names: [Metric] = [.compliance, .responseRate, .bias, .answersPerParticipant, .coverageComp("location")]
    for r in 0..<runs {
      let acc = try #require(
        try StudySimulation.simulate(Self.plan, seed: 17, replication: r, options: StudySimulation.Options(threads: 1)))
      for (name, e) in Metrics.values(acc) where names.contains(name) { estimates[name, default: []].append(e) }
    }
    for name in names {
      let list = try #require(estimates[name])
      let values = list.map(\.value)
      let mean = values.reduce(0, +) / Double(runs)
      let spread = (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(runs - 1)).squareRoot()
      let typicalSE = (list.map { $0.standardError * $0.standardError }.reduce(0, +) / Double(runs)).squareRoot()
      // An sd from 200 runs has a relative standard error of about 5 %: 15 % is 3 of them.
      #expect(abs(typicalSE / spread - 1) < 0.15, "\(name): standard error \(typicalSE), spread \(spread)")
      // Each run's own 95 % interval covers the mean over all runs about 95 % of the time
      // (binomial sd over 200 runs: 1.5 points). 80 participants: with 40, the default
      // people's answered share, skewed to the left (most answer nearly all, a few little),
      // was covered 89.5 % of the time: a t interval needs more people for a skewed share.
      let covered = list.filter { e in
        let t = (try? GSL.studentTQuantile(0.975, degrees: Double(e.degrees))) ?? 2
        return abs(e.value - mean) <= t * e.standardError
      }.count
      #expect(Double(covered) / Double(runs) > 0.9, "\(name): covered \(covered) of \(runs)")
    }
  }

  @Test("one replication: summary rows have finite participant intervals for bias and compliance, around the mean")
  func oneReplication() throws {
    let acc = try #require(try StudySimulation.simulate(Self.plan, seed: 3, replication: 0, options: StudySimulation.Options(threads: 2)))
    let rows = SummaryRow.rows(variant: "v", replications: [Metrics.values(acc)])
    for name in [Metric.bias, .compliance, .answersPerParticipant, .shareReachingTarget] {
      let row = try #require(rows.first { $0.metric == name })
      #expect(row.participantLow < row.mean && row.mean < row.participantHigh, "\(name)")
      #expect(row.ciLow.isNaN)  // no interval across one replication
    }
    // A figure not pooled over participants has none.
    let intensity = try #require(rows.first { $0.metric == .intensityMinScheduled })
    #expect(intensity.participantLow.isNaN)
  }

  @Test("two replications give no interval across them (one degree of freedom); three do; shares' intervals stay in [0, 1]")
  func boundedShares() throws {
    let accs = try (0..<3).map { r in
      try #require(try StudySimulation.simulate(Self.plan, seed: 3, replication: r, options: StudySimulation.Options(threads: 2)))
    }
    let two = SummaryRow.rows(variant: "v", replications: accs.prefix(2).map { Metrics.values($0) })
    #expect(two.allSatisfy { $0.ciLow.isNaN && $0.ciHigh.isNaN })
    let three = SummaryRow.rows(variant: "v", replications: accs.map { Metrics.values($0) })
    let compliance = try #require(three.first { $0.metric == .compliance })
    #expect(compliance.ciLow < compliance.mean && compliance.mean < compliance.ciHigh)
    // A sensor's received share is a share too (its interval over participants passed 1: 1.02
    // for a battery's events in the AWARE-iOS case study), and a ratio a little over 1 (an hour
    // may hold a sample more than expected) keeps Wilson's interval in [0, 1].
    let received = try #require(three.first { $0.metric == .receivedShare("location") })
    #expect(received.metric.isShare && received.participantHigh <= 1, "\(received)")
    let over = AcrossReplications.wilson(1.004, n: 40)
    #expect(over.0 > 0.8 && over.0 < 1 && over.1 == 1, "\(over)")
    for rows in [two, three] {
      for row in rows where row.metric.isShare {
        for x in [row.ciLow, row.ciHigh, row.participantLow, row.participantHigh] where x.isFinite {
          #expect(x >= 0 && x <= 1, "\(row.metric): \(x)")
        }
      }
    }
  }

  @Test("a figure that cannot be negative has intervals cut at 0; the bias keeps its own; a share of 0 or 1 is its interval's end")
  func cutAtZero() {
    // Three replications near 0 with a large spread: the t interval passes below 0.
    let values = [Estimate(0.1, standardError: 2, degrees: 10), Estimate(2.0, standardError: 2, degrees: 10), Estimate(0.2, standardError: 2, degrees: 10)]
    let signed = AcrossReplications(values)
    #expect(signed.low < 0 && signed.participantLow < 0)
    let cut = AcrossReplications(values, nonNegative: true)
    #expect(cut.low == 0 && cut.participantLow == 0 && cut.high == signed.high && cut.mean == signed.mean)
    #expect(Metric.bias.isSigned && !Metric.answersPerParticipant.isSigned && !Metric.medianLatency.isSigned)
    // Wilson's interval at exactly 0 and 1, for trial counts where rounding left 1e-17.
    for n in [3.0, 18, 21, 23, 40] {
      #expect(AcrossReplications.wilson(0, n: n).0 == 0 && AcrossReplications.wilson(1, n: n).1 == 1)
    }
  }

  @Test("a share near 1 across replications: the log-odds interval lies in (0, 1) where the plain t interval passes 1")
  func shareNearOne() {
    let values = [0.99, 0.93, 1.0].map { Estimate($0) }
    let a = AcrossReplications(values, share: true)
    let plain = AcrossReplications(values, share: false)
    #expect(plain.high > 1)
    #expect(a.low > 0 && a.low < a.mean && a.mean < a.high && a.high < 1)
    // Every participant reached the target in a run of 40: Wilson's interval from the
    // participants (trials), not the degenerate [1, 1].
    var all = Estimate.mean(Array(repeating: 1.0, count: 40))
    #expect(all.standardError == 0 && all.trials == 40)
    let w = AcrossReplications([all], share: true)
    #expect(w.participantHigh == 1 && w.participantLow < 1 && w.participantLow > 0.9)
    all.trials = .nan
    #expect(AcrossReplications([all], share: true).participantLow.isNaN)
  }
}
