import Foundation
import Presentation
import StudyModel
import SimKernel

/// An item's answer from the one simulated state (reported, 0–100), on the item's own scale:
/// the files of AWARE and Beiwe write it each in their way. esmsim simulates one latent state
/// per prompt, so every item of a questionnaire reflects it.
enum ItemAnswers {
  /// The state item `k` of a questionnaire answers at prompt `p`: the answered state plus the
  /// item's own error (``SurveyItem/noise``), a normal draw fixed by the prompt's answer, its
  /// time and the item (a hash: the same in every file and whatever the threads).
  static func state(_ p: PromptRecord, item: SurveyItem, k: Int) -> Double {
    guard item.noise > 0, p.reported.isFinite else { return p.reported }
    let mix = SplitMix.mix
    let a = mix(p.reported.bitPattern ^ mix(UInt64(bitPattern: Int64(p.scheduled)) ^ mix(UInt64(k) &+ 1)))
    let b = mix(a)
    // Box–Muller from two uniforms in (0, 1).
    let u1 = (Double(a >> 11) + 0.5) / 9_007_199_254_740_992
    let u2 = SplitMix.unit(b)
    return p.reported + item.noise * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// The option at the state's position (radio, checkbox, quick answer), nil for an item
  /// without options.
  static func option(_ item: SurveyItem, state: Double) -> String? {
    guard hasOptions(item) else { return nil }
    let u = min(max(state, 0), 100) / 100
    return item.options[min(Int(u * Double(item.options.count)), item.options.count - 1)]
  }

  /// Whether the item is answered by one of its options (radio, checkbox, quick answer).
  static func hasOptions(_ item: SurveyItem) -> Bool { [2, 3, 5].contains(item.type) && !item.options.isEmpty }

  /// The number in the item's range (likert, scale: `scale`, else 0–100).
  static func number(_ item: SurveyItem, state: Double) -> Int {
    let u = min(max(state, 0), 100) / 100
    let range = (item.type == 4 || item.type == 6 ? item.scale : nil) ?? 0...100
    let step = item.type == 4 || item.type == 6 ? max(item.step, 1) : 1
    // The points lo, lo + step, … up to hi: the state's position among them.
    let last = (range.upperBound - range.lowerBound) / step
    return range.lowerBound + Int((u * Double(last)).rounded()) * step
  }
}

/// The scenario's own items (`protocol.items`) in a platform's survey files: at each prompt,
/// each item's answer as `answers.csv` writes it (``AnswersOutput``), by the item's name. An
/// item named as one of the questionnaire's items answers in that item's place; the others
/// follow the questionnaire's items (``surveyItems(_:)``).
struct OwnItemAnswers {
  let plan: AnswersPlan
  let drawn: ParticipantAnswers?

  /// Participant `o`'s own items' answers (none without items; the outcome carries them
  /// when its observer asks for ``OutcomeDetail/answers``).
  init(_ o: ParticipantOutcome, plan: StudyPlan) {
    self.plan = plan.answers
    drawn = plan.answers.items.isEmpty ? nil : o.answers
  }

  /// The answers at prompt `i` of the outcome's prompts, by item name (empty without items,
  /// and for a volunteered answer, which has none).
  func at(_ i: Int) -> [String: String] {
    guard let drawn, i < drawn.items.count else { return [:] }
    var out: [String: String] = [:]
    for (k, item) in plan.items.enumerated() { out[item.name] = AnswersOutput.text(drawn.items[i][k], item) }
    return out
  }

  /// The own items not named as one of `survey`'s items (their indices in `plan.items`).
  static func extra(_ plan: AnswersPlan, _ survey: SurveyPlan) -> [Int] {
    plan.items.indices.filter { k in !survey.items.contains { $0.id == plan.items[k].name } }
  }

  /// `survey`'s items, then the own items not named among them, each a number question
  /// (AWARE's type 9) named as the item: the questions a platform that writes a row per item
  /// records.
  func surveyItems(_ survey: SurveyPlan) -> SurveyPlan {
    guard drawn != nil else { return survey }
    var out = survey
    for k in Self.extra(plan, survey) { out.items.append(SurveyItem(id: plan.items[k].name, type: 9, title: "", instructions: "")) }
    return out
  }
}
