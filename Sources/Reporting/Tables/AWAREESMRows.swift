import Scenarios
import SimKernel
import StudyModel

/// AWARE ESM rows (`awareframework/com.awareframework.ios.sensor.esm`, "ESM Data"): one row
/// per delivered prompt and item, with `esmStatus` 0 new, 1 answered, 2 dismissed,
/// 3 expired. The first item's answer is the reported state (0–100, rounded); esmsim does not
/// simulate answers to further items, which stay empty.
public enum AWAREESMRows {
  public static let header = [
    "id", "deviceId", "timestamp", "timezone", "os", "jsonVersion", "label", "scheduleId", "esmTrigger", "esmType",
    "esmTitle", "esmInstructions", "esmAnswer", "esmAnswerTime", "esmStatus", "esmNotificationTime",
  ]

  /// The device id of a simulated participant: stable for the variant, replication and index.
  public static func deviceId(variant: Int, replication: Int, participant: Int) -> String {
    "esmsim-v\(variant)-r\(replication)-p\(participant)"
  }

  /// The rows of one prompt; `nextId` numbers them.
  public static func rows(
    _ p: PromptRecord, survey: SurveyPlan, os: OperatingSystem, deviceId: String, time: Timestamps, nextId: inout Int
  ) -> [[String]] {
    guard p.delivered >= 0, !p.volunteered else { return [] }
    let status = p.status.awareStatus
    let record: SimTime = p.closed >= 0 ? p.closed : p.delivered
    var out: [[String]] = []
    for (k, item) in survey.items.enumerated() {
      nextId += 1
      let answer = p.status == .answered && k == 0 ? String(Int(min(max(p.reported, 0), 100).rounded())) : ""
      out.append([
        String(nextId), deviceId, String(time.unix(record)), "0", os == .ios ? "iOS" : "Android", "1", "esmsim",
        survey.id, item.id, String(item.type), item.title, item.instructions, answer,
        p.status == .answered ? String(time.unix(p.submitted)) : "0", String(status), String(time.unix(p.delivered)),
      ])
    }
    return out
  }
}

extension PromptStatus {
  /// AWARE's `esmStatus` for this status: 0 new, 1 answered, 2 dismissed, 3 expired (the
  /// file format's codes: [@AWAREiOSESM]; the model records only what happened).
  var awareStatus: Int {
    switch self {
    case .answered: 1
    case .dismissed: 2
    case .expired: 3
    default: 0
    }
  }
}
