import Presentation
import StudyModel

/// An item's answer from the one simulated state (reported, 0–100), on the item's own scale:
/// the files of AWARE and Beiwe write it each in their way. esmsim simulates one latent state
/// per prompt, so every item of a questionnaire reflects it.
enum ItemAnswers {
  /// The option at the state's position (radio, checkbox, quick answer), nil for an item
  /// without options.
  static func option(_ item: SurveyItem, state: Double) -> String? {
    guard [2, 3, 5].contains(item.type), !item.options.isEmpty else { return nil }
    let u = min(max(state, 0), 100) / 100
    return item.options[min(Int(u * Double(item.options.count)), item.options.count - 1)]
  }

  /// The number in the item's range (likert, scale: `scale`, else 0–100).
  static func number(_ item: SurveyItem, state: Double) -> Int {
    let u = min(max(state, 0), 100) / 100
    let range = (item.type == 4 || item.type == 6 ? item.scale : nil) ?? 0...100
    return range.lowerBound + Int((u * Double(range.upperBound - range.lowerBound)).rounded())
  }
}
