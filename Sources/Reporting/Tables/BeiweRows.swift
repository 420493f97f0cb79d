import SimKernel
import StudyModel

/// Beiwe survey timings (Beiwe wiki, "iOS sensors": header `timestamp,question id,question
/// type,question text,question answer options,answer,event`; events notified, present,
/// unpresent, changed, submitted, expired). Skipped answers are `NO_ANSWER_SELECTED`, as Beiwe
/// writes them; esmsim answers only the first item (the reported state).
public enum BeiweSurveyTimings {
  public static let header = [
    "timestamp", "question id", "question type", "question text", "question answer options", "answer", "event",
  ]

  static func type(_ awareType: Int) -> String {
    switch awareType {
    case 2, 5: "radio_button"
    case 3: "checkbox"
    case 4, 6: "slider"
    default: "free_response"
    }
  }

  /// The rows of one prompt.
  public static func rows(_ p: PromptRecord, survey: SurveyPlan, time: Timestamps) -> [[String]] {
    guard p.delivered >= 0, !p.volunteered else { return [] }
    var out: [[String]] = [[String(time.unix(p.delivered)), "", "", "", "", "", "notified"]]
    if p.opened >= 0 && p.status == .answered {
      // Items are presented in turn over the time between opening and submitting.
      let span = max(p.submitted - p.opened, 1)
      let n = SimTime(survey.items.count)
      for (k, item) in survey.items.enumerated() {
        let from = p.opened + span * SimTime(k) / n
        let to = p.opened + span * SimTime(k + 1) / n
        let options = item.options.joined(separator: ";")
        let answer = k == 0 ? String(Int(min(max(p.reported, 0), 100).rounded())) : "NO_ANSWER_SELECTED"
        let base = [item.id, type(item.type), item.title, options]
        out.append([String(time.unix(from))] + base + ["", "present"])
        if k == 0 { out.append([String(time.unix(from + (to - from) / 2))] + base + [answer, "changed"]) }
        out.append([String(time.unix(to))] + base + [answer, "unpresent"])
      }
      out.append([String(time.unix(p.submitted)), "", "", "", "", "", "submitted"])
    } else if p.status == .expired {
      out.append([String(time.unix(p.closed >= 0 ? p.closed : p.delivered)), "", "", "", "", "", "expired"])
    }
    return out
  }
}

/// Beiwe's names for what the app observes of the phone (Beiwe iOS data formats, [@Beiwe]):
/// Reachability events (`wifi`, `cellular`, `unreachable`) and PowerState events (`Charging`,
/// `Unplugged`, `Full`). The model records the network and the change; the names are the
/// file format's.
enum BeiwePhoneEvents {
  static let reachabilityHeader = ["timestamp", "event"]
  static let powerStateHeader = ["timestamp", "event", "level"]

  /// The Reachability event of a network.
  static func name(_ n: Network) -> String {
    switch n {
    case .wifi: "wifi"
    case .cellular: "cellular"
    case .unreachable: "unreachable"
    }
  }

  /// The PowerState event of a change of charging.
  static func name(_ c: PhoneEvents.PowerChange) -> String {
    switch c {
    case .charging: "Charging"
    case .unplugged: "Unplugged"
    case .full: "Full"
    }
  }
}
