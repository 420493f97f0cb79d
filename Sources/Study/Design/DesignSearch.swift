import Foundation
import Measures
import Scenarios
import SimKernel
import StudyModel

/// What a design must reach (`esmsim design --target`).
public enum DesignTarget: Sendable, Equatable, CustomStringConvertible {
  /// At least this share of participants give at least `answers` answers (`answers:30@0.9`).
  case shareReaching(answers: Int, share: Double)
  /// The tenth percentile of answers per participant is at least `answers` (`p10:30`).
  case tenthPercentile(answers: Int)

  /// Reads `answers:N@S` or `p10:N`.
  public init?(_ text: String) {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2 else { return nil }
    switch parts[0] {
    case "answers":
      let ns = parts[1].split(separator: "@").map(String.init)
      guard ns.count == 2, let n = Int(ns[0]), (1...1_000_000).contains(n), let s = Double(ns[1]), s > 0, s < 1 else { return nil }
      self = .shareReaching(answers: n, share: s)
    case "p10":
      guard let n = Int(parts[1]), (1...1_000_000).contains(n) else { return nil }
      self = .tenthPercentile(answers: n)
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .shareReaching(let n, let s): "answers:\(n)@\(s)"
    case .tenthPercentile(let n): "p10:\(n)"
    }
  }

  /// The figure's name and the level it must reach.
  public var figure: String {
    switch self {
    case .shareReaching(let n, _): "share reaching \(n) answers"
    case .tenthPercentile: "10th percentile of answers"
    }
  }
  public var level: Double {
    switch self {
    case .shareReaching(_, let s): s
    case .tenthPercentile(let n): Double(n)
    }
  }

  /// The figure over the participants' answer counts, with its 95 % interval from the
  /// simulation (participants pooled over replications): for a share, Wilson's; for the
  /// tenth percentile, the distribution-free interval of order statistics whose ranks the
  /// binomial gives (``quantileRanks(n:q:)``), open below (0 answers) when too few
  /// participants for a lower rank (35 or fewer), open above (infinite) for one participant.
  public func estimate(_ answers: [Int]) -> (value: Double, low: Double, high: Double) {
    let n = Double(answers.count)
    guard n > 0 else { return (.nan, .nan, .nan) }
    switch self {
    case .shareReaching(let target, _):
      let p = AnswersDistribution(answers, target: target).shareReaching
      let (low, high) = AcrossReplications.wilson(p, n: n, z: 1.96)
      return (p, low, high)
    case .tenthPercentile:
      let sorted = answers.sorted().map(Double.init)
      let value = Estimate.quantile(sorted, 0.1)
      let (r, s) = Self.quantileRanks(n: sorted.count, q: 0.1)
      return (value, r >= 1 ? sorted[r - 1] : 0, s <= sorted.count ? sorted[s - 1] : .infinity)
    }
  }

  /// The ranks r < s (from 1) of the order statistics whose interval [x₍ᵣ₎, x₍ₛ₎] holds the
  /// q-quantile of n draws with probability at least 95 %, each tail at most 2.5 %:
  /// P(B < r) ≤ 0.025 and P(B ≥ s) ≤ 0.025 for B ~ Binomial(n, q). r is 0 where no rank
  /// does (the interval is open below), s is n + 1 where none does above.
  public static func quantileRanks(n: Int, q: Double) -> (Int, Int) {
    guard n < Int(UInt32.max) else {
      // Beyond GSL's counts the normal approximation is exact enough.
      let spread = 1.96 * (Double(n) * q * (1 - q)).squareRoot()
      return (Int((Double(n) * q - spread).rounded(.down)), Int((Double(n) * q + spread).rounded(.up)) + 1)
    }
    // The smallest k in 0...n with P(B ≤ k) ≥ level (the CDF is nondecreasing in k).
    func smallest(reaching level: Double) -> Int {
      var (lo, hi) = (0, n)
      while lo < hi {
        let mid = (lo + hi) / 2
        if GSL.binomialCDF(mid, p: q, n: n) >= level { hi = mid } else { lo = mid + 1 }
      }
      return lo
    }
    // r − 1 is the largest k with P(B ≤ k) ≤ 0.025: one below the first k past it.
    // r is the first k with P(B ≤ k) > 0.025, so that P(B ≤ r − 1) ≤ 0.025.
    let r = smallest(reaching: 0.025.nextUp)
    // s − 1 is the first k with P(B ≤ k) ≥ 0.975, so that P(B ≥ s) ≤ 0.025.
    let s = smallest(reaching: 0.975) + 1
    return (r, s)
  }
}

/// What a design costs, to choose the cheapest of those that reach the target.
public enum DesignCost: String, Sendable, CaseIterable {
  case participantDays = "participant-days"
  case prompts

  public func of(_ p: DesignPoint) -> Int {
    switch self {
    case .participantDays: p.participantDays
    case .prompts: p.prompts
    }
  }
}

/// The smallest designs that reach a target (`esmsim design`, `esm_design()` in R).
///
/// Answers per participant grow with days and with prompts a day, so the search uses that
/// order rather than trying every design: for each number of participants and each prompts
/// a day (fewest first), the fewest days that reach the target are found by bisection over
/// the days given, and a larger number of prompts a day searches only up to the days the
/// smaller one needed. A design is replicated until its interval lies wholly on one side of
/// the target or `maxReplications` ran; it reaches the target when its figure does (the
/// interval says how sure that is). Every design runs with the scenario's seed, so
/// participant i is the same person in each (common random numbers): designs differ by the
/// design, not by the draw.
public enum DesignSearch {
  /// One design tried.
  public struct Evaluation: Sendable {
    public var point: DesignPoint
    /// The figure over the simulated participants, and its 95 % interval.
    public var value: Double
    public var low: Double
    public var high: Double
    public var replications: Int
    /// The figure reaches the target.
    public var reaches: Bool
    /// The interval lies wholly on one side of the target.
    public var clear: Bool
    /// For a share: where one study of this many participants would land (95 %: the
    /// binomial spread of a share among them, around the figure). Nil for the percentile.
    public var oneStudy: ClosedRange<Double>?
  }

  /// The search's answer.
  public struct Result: Sendable {
    public var target: DesignTarget
    public var cost: DesignCost
    /// Every design tried, in the order tried.
    public var evaluations: [Evaluation]
    /// For each participants and prompts a day, the fewest days that reach the target (nil
    /// days: none within the range, then `triedUpTo`, the most days tried: a larger number of
    /// prompts a day searches only up to the days a smaller needed).
    public var frontier: [(participants: Int, perDay: Int, best: Evaluation?, triedUpTo: Int?)]
    /// The cheapest design that reaches the target; nil when none does.
    public var cheapest: Evaluation?
    /// Participant-days simulated.
    public var participantDays: Int
    /// The participants and prompts a day the scenario cannot run (a scheduler that sends
    /// at most 5 a day asked for 6, a window too short for the prompts and their gaps), with
    /// the scenario's reason: skipped, not searched.
    public var skipped: [(participants: Int, perDay: Int, reason: String)] = []
    /// What was searched: the participants, days and prompts a day given, and the most
    /// replications of a design.
    public var participants: [Int] = []
    public var days: [Int] = []
    public var perDay: [Int] = []
    public var maxReplications = 0
  }

  /// Searches `space` over `participants`, `days` and `perDay` (each sorted, distinct).
  public static func search(
    _ space: DesignSpace, target: DesignTarget, participants: [Int], days: [Int], perDay: [Int], cost: DesignCost,
    maxReplications: Int = 5, threads: Int
  ) throws(ScenarioError) -> Result {
    var evaluations: [Evaluation] = []
    var frontier: [(participants: Int, perDay: Int, best: Evaluation?, triedUpTo: Int?)] = []
    var skipped: [(participants: Int, perDay: Int, reason: String)] = []
    var simulated = 0
    var cache: [DesignPoint: Evaluation] = [:]
    func evaluate(_ point: DesignPoint) throws(ScenarioError) -> Evaluation {
      if let e = cache[point] { return e }
      let plan = try space.plan(point)
      var answers: [Int] = []
      var e = Evaluation(point: point, value: .nan, low: .nan, high: .nan, replications: 0, reaches: false, clear: false)
      for r in 0..<maxReplications {
        let options = StudySimulation.Options(threads: threads, detailParticipants: 0)
        // No observer: nothing throws, and nothing stops it.
        guard let a = try? StudySimulation.simulate(plan, seed: space.seed, replication: r, options: options) else { break }
        answers += a.participantRows.map(\.completed)
        simulated += point.participantDays
        let (value, low, high) = target.estimate(answers)
        e.value = value
        e.low = low
        e.high = high
        e.replications = r + 1
        e.reaches = value >= target.level
        e.clear = low > target.level || high < target.level
        if e.clear { break }
      }
      if case .shareReaching = target, e.value.isFinite {
        let spread = 1.96 * (e.value * (1 - e.value) / Double(point.participants)).squareRoot()
        e.oneStudy = max(e.value - spread, 0)...min(e.value + spread, 1)
      }
      cache[point] = e
      evaluations.append(e)
      return e
    }
    for n in participants {
      var upper = days.count - 1
      for k in perDay {
        // A design the scenario cannot run is skipped with its reason; the search goes on.
        let point = DesignPoint(participants: n, days: days[upper], perDay: k)
        do {
          _ = try space.plan(point)
        } catch {
          let reason = error.message.replacingOccurrences(of: "at the design \(point): ", with: "")
          skipped.append((n, k, error.key.isEmpty ? reason : "\(error.key): \(reason)"))
          continue
        }
        // The fewest days (index into `days`) up to `upper` that reach the target.
        let top = try evaluate(DesignPoint(participants: n, days: days[upper], perDay: k))
        guard top.reaches else {
          frontier.append((n, k, nil, days[upper]))
          continue
        }
        var (lo, hi) = (0, upper)
        var best = top
        while lo < hi {
          let mid = (lo + hi) / 2
          let e = try evaluate(DesignPoint(participants: n, days: days[mid], perDay: k))
          if e.reaches {
            hi = mid
            best = e
          } else {
            lo = mid + 1
          }
        }
        frontier.append((n, k, best, nil))
        upper = hi
      }
    }
    let cheapest = frontier.compactMap(\.best).min {
      (cost.of($0.point), $0.point.participants, $0.point.days) < (cost.of($1.point), $1.point.participants, $1.point.days)
    }
    return Result(
      target: target, cost: cost, evaluations: evaluations, frontier: frontier, cheapest: cheapest, participantDays: simulated,
      skipped: skipped, participants: participants, days: days, perDay: perDay, maxReplications: maxReplications)
  }
}
