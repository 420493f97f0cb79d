/// Answers per participant against an answers target: what planners size a study by. One
/// place for the share reaching the target and the percentiles, used by the metrics, the
/// results by operating system and the design search.
public struct AnswersDistribution: Sendable {
  /// Each participant's answers, in participant order.
  public let answers: [Int]
  /// The answers each participant should give (`protocol.answers_target`).
  public let target: Int

  public init(_ answers: [Int], target: Int) {
    self.answers = answers
    self.target = target
  }

  /// How many participants reach the target.
  public var reaching: Int { answers.reduce(0) { $0 + ($1 >= target ? 1 : 0) } }
  /// The share of participants reaching the target (nan without participants).
  public var shareReaching: Double { answers.isEmpty ? .nan : Double(reaching) / Double(answers.count) }
  /// Whether each reaches it, 1 or 0, in participant order (for a mean with its standard error).
  public var reachingIndicators: [Double] { answers.map { $0 >= target ? 1 : 0 } }
  /// The `q` quantile of answers, interpolated (``Estimate/quantile(_:_:)``).
  public func quantile(_ q: Double) -> Double { Estimate.quantile(answers.map(Double.init), q) }
}
