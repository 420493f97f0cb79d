import Presentation
import Study
import SimKernel
import StudyModel

/// The teaching page's chart: the true state by hour of the day over everyone's waking
/// moments beside the mean of the answers given in each hour, with both means.
enum TruthChart {
  /// Participants whose true day is drawn (enough for a smooth line, quick to simulate).
  static let participants = 100

  static func svg(_ v: VariantResults, plan: StudyPlan, seed: UInt64, answered: [(sum: Double, n: Int)]) -> String {
    var sum = [Double](repeating: 0, count: 24)
    var count = [Int](repeating: 0, count: 24)
    for p in 0..<min(participants, plan.participants) {
      let day = ParticipantSimulation.trueDay(plan: plan, seed: seed, participant: UInt32(p))
      for h in 0..<24 {
        sum[h] += day.sum[h]
        count[h] += day.count[h]
      }
    }
    // The waking day: hours in which at least a tenth as many are awake as in the busiest
    // (a few people awake at 03:00 would otherwise set the axis, and the gap the lesson is
    // about would be a pixel). The means are over every waking moment all the same.
    let busiest = count.max() ?? 0
    let trueHours = (0..<24).map { count[$0] > 0 && 10 * count[$0] >= busiest ? sum[$0] / Double(count[$0]) : .nan }
    let answeredHours = answered.map { $0.n >= 5 ? $0.sum / Double($0.n) : .nan }
    // The two means and their gap are the run's sampling bias (summary.csv's `esm_mean`,
    // `true_mean` and `bias`: per participant, averaged over the participants with answers),
    // the one estimate the page states, with its interval; the hours' lines are the picture.
    let trueMean = v.mean(.trueMean)
    let esmMean = v.mean(.esmMean)
    let answers = answered.reduce(0) { $0 + $1.n }
    let interval = v.biasLow.isFinite ? " (95 % interval \(NumberText.fixed(v.biasLow, 2)) to \(NumberText.fixed(v.biasHigh, 2)))" : ""
    let caption = answers > 0 && v.bias.isFinite
      ? "the answers' mean \(NumberText.fixed(esmMean, 1)) against the true \(NumberText.fixed(trueMean, 1)): a gap of \(NumberText.fixed(v.bias, 2)) points\(interval), the sampling bias (each participant's answers against their own waking day, averaged over participants)"
      : "no answers"
    return "<p class='note'>\(caption)</p>"
      + Report.hourLines(
        v.name, series: [("truth", "true mood (waking)", trueHours), ("answered", "mean of the answers", answeredHours)],
        means: [("truth", trueMean), ("answered", answers > 0 ? esmMean : .nan)], yLabel: "mood")
  }
}
