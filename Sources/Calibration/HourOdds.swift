import Foundation
import StudyModel

/// The log-odds of a share, and whether a share (of an hour's prompts) has them.
private func logit(_ p: Double) -> Double { log(p / (1 - p)) }
private func usable(_ share: Double?) -> Bool { share.map { $0 > 0 && $0 < 1 } ?? false }

extension Calibrator {
  /// The least leverage of an hour's odds on its answered share for the hour to be fitted.
  static let minimumLeverage = 0.05

  /// The hour-of-day odds matched to the pilot's answered share by hour, by Newton steps on
  /// each hour's log-odds. An hour's odds move its answered share less than one for one (the
  /// losses before a decision, and willing people, dilute them): its leverage, d logit(share)
  /// / d log(odds), is measured once by a simulation with every hour's odds raised by e
  /// (common random numbers), and each step divides the gap by it. The observed hours' log-odds average 0 (the level
  /// carries the mean). Returns the leverage of each hour fitted (0.05–1), which scales the
  /// hours' standard errors: a weak hour effect is poorly identified; and the hours whose
  /// last step pushed them to a bound of their odds (0.02 or 50 before centring): not
  /// identified, kept at the scenario's odds.
  static func fitHours(
    _ current: inout CompliancePlan, hours: [Int], pilot: ComplianceMoments,
    simulate: (CompliancePlan) -> ComplianceMoments
  ) -> (leverage: [Int: Double], atBound: [Int]) {
    let start = current
    guard var (leverage, simulated) = leverages(current, hours: hours, simulate: simulate) else { return ([:], []) }
    var pushed = Set<Int>()
    for step in 0..<hourIterations {
      var largest = 0.0
      for h in hours {
        guard let l = leverage[h], usable(simulated[h]?.share), let q = pilot.byHour[h], usable(q.share) else { continue }
        let gap = logit(q.share) - logit(simulated[h]!.share)
        let move = min(max(gap / l, -1.5), 1.5)
        largest = max(largest, abs(gap))
        let moved = current.hourOdds[h] * exp(move)
        current.hourOdds[h] = min(max(moved, 0.02), 50)
        // Centring moves the odds off the bound afterwards: the clamp is noted as it happens.
        if moved <= 0.02 || moved >= 50 { pushed.insert(h) } else { pushed.remove(h) }
      }
      let fitted = hours.filter { leverage[$0] != nil }
      guard !fitted.isEmpty else { break }
      let centre = fitted.map { log(current.hourOdds[$0]) }.reduce(0, +) / Double(fitted.count)
      for h in fitted { current.hourOdds[h] /= exp(centre) }
      if largest < 0.02 || step == hourIterations - 1 { break }
      simulated = simulate(current).byHour
    }
    // An hour pushed to a bound of its odds is not identified either: kept at the scenario's.
    let atBound = hours.filter { leverage[$0] != nil && pushed.contains($0) }
    for h in atBound {
      leverage[h] = nil
      current.hourOdds[h] = start.hourOdds[h]
    }
    return (leverage, atBound)
  }

  /// Each hour's leverage (the hours whose odds move their share enough to be fitted) and
  /// the simulation at `current`; nil when the hours' pooled share cannot be measured.
  static func leverages(
    _ current: CompliancePlan, hours: [Int], simulate: (CompliancePlan) -> ComplianceMoments
  ) -> (leverage: [Int: Double], simulated: [Int: (share: Double, count: Int)])? {
    let bump = 1.0
    let simulated = simulate(current).byHour
    var raised = current
    for h in hours { raised.hourOdds[h] *= exp(bump) }
    let up = simulate(raised).byHour
    // The leverage of all the hours together (their pooled answered share): the yardstick
    // for each hour's own, which is noisy (a few hundred prompts an hour).
    func pooled(_ m: [Int: (share: Double, count: Int)]) -> Double? {
      let n = hours.compactMap { m[$0] }.map { Double($0.count) }.reduce(0, +)
      guard n > 0 else { return nil }
      let share = hours.compactMap { m[$0] }.map { $0.share * Double($0.count) }.reduce(0, +) / n
      return usable(share) ? share : nil
    }
    var leverage: [Int: Double] = [:]
    guard let before = pooled(simulated), let after = pooled(up) else { return nil }
    let all = (logit(after) - logit(before)) / bump
    for h in hours {
      guard usable(simulated[h]?.share), usable(up[h]?.share) else { continue }
      // An hour whose odds hardly move its share (its prompts at fixed times, which the hour
      // odds spare; what is left is the clustering of answers with other hours'; or an hour of
      // few prompts, whose measured leverage is noise) is not fitted: left out, kept at the
      // scenario's odds. Under half the pooled leverage (and
      // under 0.05) counts as hardly (mpathr's evening questionnaire at 22:10: 0.37 of it; the
      // noisiest ordinary hour seen, 0.58).
      let l = (logit(up[h]!.share) - logit(simulated[h]!.share)) / bump
      if l >= max(minimumLeverage, all / 2) { leverage[h] = min(l, 1) }
    }
    return (leverage, simulated)
  }
}
