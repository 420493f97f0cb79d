import Presentation
import Scenarios
import SimKernel
import StudyModel

/// AWARE ESM rows (`awareframework/com.awareframework.ios.sensor.esm`, "ESM Data",
/// [@AWAREiOSESM]): the plugin stores a row per item when a prompt is answered, dismissed or
/// expired (`esmStatus` 1, 2, 3; it writes no row for a prompt never acted on, so neither does
/// esmsim), each item's answer as the plugin stores it for its type. esmsim simulates one
/// latent state per prompt: every item's answer is the reported state (0–100) on the item's
/// own scale: a radio, checkbox or quick-answer item the option at that position (a checkbox
/// as a JSON list), a likert or scale item the number in its range, any other item the
/// number as text; an item of the scenario's own (`protocol.items`, ``OwnItemAnswers``) its
/// answer as `answers.csv` has it. The plugin is iOS's: only iPhone participants have rows.
public enum AWAREESMRows {
  public static let header = [
    "id", "deviceId", "timestamp", "timezone", "os", "jsonVersion", "label", "scheduleId", "esmTrigger", "esmType",
    "esmTitle", "esmInstructions", "esmAnswer", "esmAnswerTime", "esmStatus", "esmNotificationTime",
  ]

  /// The device id of a simulated participant: stable for the variant, replication and index.
  public static func deviceId(variant: Int, replication: Int, participant: Int) -> String {
    "esmsim-v\(variant + 1)-r\(replication + 1)-p\(participant + 1)"
  }

  /// The rows of one prompt; `nextId` numbers them; `own`: the scenario's own items' answers
  /// by name.
  public static func rows(
    _ p: PromptRecord, survey: SurveyPlan, os: OperatingSystem, deviceId: String, time: Timestamps, nextId: inout Int,
    own: [String: String] = [:]
  ) -> [[String]] {
    guard os == .ios, p.delivered >= 0, !p.volunteered else { return [] }
    let status = p.status.awareStatus
    guard status != 0 else { return [] }
    let record: SimTime = p.closed >= 0 ? p.closed : p.delivered
    var out: [[String]] = []
    for (k, item) in survey.items.enumerated() {
      nextId += 1
      let answer = p.status == .answered ? own[item.id] ?? Self.answer(item, state: ItemAnswers.state(p, item: item, k: k)) : ""
      out.append([
        String(nextId), deviceId, String(time.unix(record)), String(time.offsetHours(record)), "iOS", "1", "esmsim",
        survey.id, item.id, String(item.type), item.title, item.instructions, answer,
        p.status == .answered ? String(time.unix(p.submitted)) : "0", String(status), String(time.unix(p.delivered)),
      ])
    }
    return out
  }

  /// An item's answer as the plugin stores it, from a state on 0–100.
  static func answer(_ item: SurveyItem, state: Double) -> String {
    if let option = ItemAnswers.option(item, state: state) {
      return item.type == 3 ? JSONValue.array([.string(option)]).text(indent: 0) : option
    }
    return String(ItemAnswers.number(item, state: state))
  }
}

extension PromptStatus {
  /// AWARE's `esmStatus` for this status: 0 new, 1 answered, 2 dismissed, 3 expired (the
  /// file format's codes: [@AWAREiOSESM]; the model records only what happened). A survey
  /// broken off part-way is the form dismissed: the plugin's form stores every item as
  /// dismissed and keeps no answer (seed 000: `onDismissed`).
  var awareStatus: Int {
    switch self {
    case .answered: 1
    case .dismissed, .partial: 2
    case .expired: 3
    default: 0
    }
  }
}
