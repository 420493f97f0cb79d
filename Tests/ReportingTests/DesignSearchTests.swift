import Foundation
import Presentation
import Scenarios
import Study
import Testing

/// `esmsim design`'s search: its bisection finds what trying every design finds, its
/// targets read and refuse, its intervals cover.
@Suite("Design search: the smallest designs that reach an answers target")
struct DesignSearchTests {
  static let scenario = """
    name: design
    seed: 4
    duration: 10d
    population: {size: 60, devices: {non_controlled: 1}, os: {ios: 0.5, android: 0.5}}
    protocol:
      window: "09:00-21:00"
      schedule: {algorithm: fixed-blocks, per_day: 4}
      expiry: 30m
    variants:
      - name: blocks
      - name: mappiness
        protocol: {schedule: {algorithm: mappiness, per_day: 4}}
    """

  /// The scenario in a file of its own (removed by the caller).
  static func file() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("design-\(UUID().uuidString).yaml").path
    try scenario.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  static func space(variant: String? = nil) throws -> (DesignSpace, String) {
    let path = try file()
    return (try DesignSpace.load(path: path, variant: variant), path)
  }

  @Test("targets: answers:N@S and p10:N read; anything else refused")
  func targets() {
    #expect(DesignTarget("answers:30@0.9") == .shareReaching(answers: 30, share: 0.9))
    #expect(DesignTarget("p10:25") == .tenthPercentile(answers: 25))
    for bad in ["answers:30", "answers:30@1.2", "answers:0@0.5", "p10:", "p10:-3", "power:0.8", "answers:x@0.9"] {
      #expect(DesignTarget(bad) == nil, "\(bad)")
    }
  }

  @Test("the tenth percentile's interval covers at least 95 % for every n (it covered 33 % at 5 participants, 58 % at 10), open below when no rank holds the lower tail")
  func tenthPercentileInterval() {
    // The exact binomial, summed here independently of GSL.
    func cdf(_ k: Int, _ n: Int) -> Double {
      guard k >= 0 else { return 0 }
      var (term, sum) = (pow(0.9, Double(n)), 0.0)
      for i in 0...min(k, n) {
        sum += term
        term *= Double(n - i) / Double(i + 1) * (0.1 / 0.9)
      }
      return sum
    }
    for n in [1, 2, 5, 10, 20, 30, 35, 36, 50, 100, 400] {
      let target = DesignTarget.tenthPercentile(answers: 10)
      let (r, s) = DesignTarget.quantileRanks(n: n, q: 0.1)
      // Coverage P(r ≤ B ≤ s − 1), B ~ Binomial(n, 0.1): at least 95 %, each tail at most 2.5 %.
      #expect(cdf(r - 1, n) <= 0.025 + 1e-12 && 1 - cdf(s - 1, n) <= 0.025 + 1e-12, "n \(n): ranks \(r), \(s)")
      #expect(cdf(s - 1, n) - cdf(r - 1, n) >= 0.95 - 1e-12, "n \(n)")
      // The tightest such ranks: one rank narrower breaks a tail.
      if r >= 1 { #expect(cdf(r, n) > 0.025, "n \(n): r could be \(r + 1)") }
      if s <= n { #expect(1 - cdf(s - 2, n) > 0.025, "n \(n): s could be \(s - 1)") }
      let answers = (0..<n).map { 20 + $0 }
      let e = target.estimate(answers)
      #expect((n <= 35) == (e.low == 0), "n \(n): low \(e.low)")
      #expect((n == 1) == e.high.isInfinite, "n \(n): high \(e.high)")
    }
  }

  @Test("a variant's design: its own schedule, the scenario's size, days and prompts a day")
  func variantSpace() throws {
    let (space, tmp) = try Self.space(variant: "mappiness")
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    #expect(space.base == DesignPoint(participants: 60, days: 10, perDay: 4))
    let plan = try space.plan(DesignPoint(participants: 30, days: 5, perDay: 3))
    #expect(plan.participants == 30 && plan.days == 5)
    // What the variant's scheduler cannot do is refused naming the key and the design.
    let refusal = #expect(throws: ScenarioError.self) { try space.plan(DesignPoint(participants: 30, days: 5, perDay: 6)) }
    #expect(refusal?.key == "protocol.schedule.per_day" && refusal?.message.contains("30 participants × 5 days × 6 a day") == true)
    #expect("\(plan.protocolPlan.schedules[0].choice!)".contains("appiness"))
    #expect(throws: ScenarioError.self) { try DesignSpace.load(path: tmp, variant: "none") }
  }

  /// The premise of the bisection: with common random numbers, each prompts a day's answers
  /// rise with days, so the fewest days found by bisection are the fewest days of all those
  /// tried one by one (which would fail if the figure fell with a day added).
  @Test("bisection finds the fewest days that trying every design finds", arguments: ["answers:20@0.8", "p10:15"])
  func bisectionAgreesWithEveryDesign(target text: String) throws {
    let (space, tmp) = try Self.space()
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let target = DesignTarget(text)!
    let days = Array(3...12)
    let perDay = [3, 4, 6]
    let r = try DesignSearch.search(
      space, target: target, participants: [60], days: days, perDay: perDay, cost: .prompts, maxReplications: 2, threads: 2)
    #expect(r.evaluations.count < days.count * perDay.count)
    for (k, entry) in zip(perDay, r.frontier) {
      // Every design on its own: a search of one day's value runs just that design.
      let fewest = try days.first { d throws(ScenarioError) in
        try DesignSearch.search(
          space, target: target, participants: [60], days: [d], perDay: [k], cost: .prompts, maxReplications: 2, threads: 2
        ).frontier[0].best != nil
      }
      #expect(entry.best?.point.days == fewest, "\(k) a day: bisection \(String(describing: entry.best?.point.days)), every design \(String(describing: fewest))")
    }
    // More prompts a day never need more days.
    let found = r.frontier.compactMap { $0.best?.point.days }
    #expect(found == found.sorted(by: >))
    // The cheapest is the frontier's least cost.
    if let c = r.cheapest { #expect(r.frontier.compactMap(\.best).allSatisfy { $0.point.prompts >= c.point.prompts }) }
  }

  @Test("the report says what was searched, up to which day a design without an answer was tried, and an uncertain answer")
  func reportSaysWhatWasSearched() throws {
    let (space, tmp) = try Self.space()
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    // 60 answers in at most 5 days of 3 or 4 prompts: no design can reach it.
    var r = try DesignSearch.search(
      space, target: DesignTarget("answers:60@0.5")!, participants: [60], days: [3, 4, 5], perDay: [3, 4], cost: .prompts,
      maxReplications: 2, threads: 2)
    var text = DesignText.text(r, space: space)
    #expect(text.contains("# searched: participants 60, days 3–5, 3, 4 a day; each design up to 2 replications"), "\(text)")
    #expect(text.contains("3 a day: not within the days given (tried up to 5)"), "\(text)")
    let json = DesignText.json(r, space: space).text(indent: 0)
    #expect(json.contains("\"searched\"") && json.contains("\"seed\""), "\(json)")
    // An answer whose interval straddles the target is said to be uncertain, here and as the cheapest.
    r = try DesignSearch.search(
      space, target: DesignTarget("answers:5@0.5")!, participants: [60], days: [3, 4, 5], perDay: [3], cost: .prompts,
      maxReplications: 2, threads: 2)
    let best = try #require(r.frontier[0].best)
    r.frontier[0].best?.clear = false
    r.cheapest?.clear = false
    text = DesignText.text(r, space: space)
    #expect(text.contains("3 a day: \(best.point.days) days (") && text.contains(") (interval straddles)\ncheapest"), "\(text)")
    #expect(text.contains("participant-days) (interval straddles)") || text.contains("prompts) (interval straddles)"), "\(text)")
  }

  /// The share's 95 % interval (Wilson, participants pooled) covers the share of a much larger
  /// simulation of the same design in about 95 % of designs: checked on 20 designs, at
  /// least 16 (binomial(20, 0.95): P(≤ 15) < 0.3 %; the large run's own error, a third of the
  /// small one's, lowers the coverage to about 93 %: P(≤ 15) about 1.5 %).
  @Test("the share's interval covers a large simulation's share")
  func intervalCovers() throws {
    let (space, tmp) = try Self.space()
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    var covered = 0
    var tried = 0
    for d in [6, 8, 10, 12] {
      for k in [3, 4, 5, 6, 8] {
        let target = DesignTarget.shareReaching(answers: 20, share: 0.5)
        // Each design its own people (a seed of its own), so that the 20 are independent.
        var own = space
        own.seed = space.seed &+ UInt64(tried + 1)
        let small = try DesignSearch.search(
          own, target: target, participants: [60], days: [d], perDay: [k], cost: .prompts, maxReplications: 1, threads: 2)
        // The large run: other people again, ten times as many.
        var big = space
        big.seed = space.seed &+ 1_000 &+ UInt64(tried)
        let large = try DesignSearch.search(
          big, target: target, participants: [600], days: [d], perDay: [k], cost: .prompts, maxReplications: 1, threads: 2)
        let e = small.evaluations[0]
        tried += 1
        if e.low <= large.evaluations[0].value && large.evaluations[0].value <= e.high { covered += 1 }
      }
    }
    #expect(covered >= 16, "\(covered) of \(tried)")
  }
}
