import Presentation
import SimKernel
import StudyModel

/// Beiwe's survey files as its data formats define them ([@Beiwe]): per survey, the
/// timings (`timestamp, question id, question type, question text, question answer options,
/// answer`, and on iOS only `event`: notified, present, changed, unpresent, submitted,
/// expired; Android writes no notification and its own two messages, ``androidOpened`` and
/// ``androidSubmitted``) and, for each survey submitted or expired while being answered, the answers
/// (`question id, question type, question text, question answer options, answer`). A question
/// never reached is `not_presented` on iOS, one reached but left unanswered
/// `NO_ANSWER_SELECTED`. Options are written in Beiwe's brackets, `[a;b]`. The survey's id
/// is the folder the server files it under (Beiwe adds `survey_id` itself). Items are
/// presented in turn over the answering time; a survey that expired while being answered
/// got as far as ``PromptRecord/reached`` says. An item of the scenario's own
/// (`protocol.items`, ``OwnItemAnswers``) answers as `answers.csv` has it (`own`, by name).
public enum BeiweSurveys {
  /// The timings header on iOS; Android's lacks `event`.
  public static let timingsHeader = [
    "timestamp", "question id", "question type", "question text", "question answer options", "answer", "event",
  ]
  /// The answers header.
  public static let answersHeader = ["question id", "question type", "question text", "question answer options", "answer"]

  /// The timings header for a system.
  public static func timingsHeader(_ os: OperatingSystem) -> [String] {
    os == .ios ? timingsHeader : Array(timingsHeader.dropLast())
  }

  static func type(_ awareType: Int) -> String {
    switch awareType {
    case 2, 5: "radio_button"
    case 3: "checkbox"
    case 4, 6: "slider"
    default: "free_response"
    }
  }

  /// The question columns of an item.
  static func question(_ item: SurveyItem) -> [String] {
    [item.id, type(item.type), item.title, item.options.isEmpty ? "" : "[" + item.options.joined(separator: ";") + "]"]
  }

  /// Item `k`'s answer at prompt `p` as Beiwe writes it: the scenario's own answer when it has
  /// one for the item, else from the state.
  static func answer(_ p: PromptRecord, _ item: SurveyItem, _ k: Int, own: [String: String]) -> String {
    own[item.id] ?? answer(item, state: ItemAnswers.state(p, item: item, k: k))
  }

  /// An item's answer as Beiwe writes it.
  static func answer(_ item: SurveyItem, state: Double) -> String {
    if let option = ItemAnswers.option(item, state: state) { return item.type == 3 ? "[\(option)]" : option }
    return String(ItemAnswers.number(item, state: state))
  }

  /// How many items were presented and how many answered, by how far the participant got.
  static func progress(_ p: PromptRecord, items n: Int) -> (presented: Int, answered: Int) {
    guard p.opened >= 0, p.reached.isFinite else { return (0, 0) }
    if p.reached >= 1 { return (n, n) }
    let x = p.reached * Double(n)
    return (min(Int(x) + 1, n), min(Int(x), n))
  }

  /// When a survey broken off part-way expires, and Beiwe records it expired with the answers
  /// given so far (nil: it stays available, nothing more is written): its expiry after
  /// delivery. Under "until the next signal" the next signal's time is not in the record, so
  /// none is written either.
  static func expiry(of p: PromptRecord, _ expiry: ExpiryPolicy) -> SimTime? {
    guard p.status == .partial, case .after(let w) = expiry, p.delivered >= 0 else { return nil }
    return p.delivered + w
  }

  /// Beiwe's Android app's two survey messages, written in the question id column of a
  /// two-field row (its `AnswerRecorder`; Beiwe's Forest reads them so).
  public static let androidOpened = "Survey first rendered and displayed to user"
  public static let androidSubmitted = "User hit submit"

  /// The timings rows of one prompt (iOS with the event column); `expiry` its schedule's.
  public static func timings(
    _ p: PromptRecord, survey: SurveyPlan, os: OperatingSystem, time: Timestamps, expiry: ExpiryPolicy = .never,
    own: [String: String] = [:]
  ) -> [[String]] {
    guard p.delivered >= 0, !p.volunteered else { return [] }
    if os != .ios { return androidTimings(p, survey: survey, time: time, own: own) }
    var out: [[String]] = [[String(time.unix(p.delivered)), "", "", "", "", "", "notified"]]
    let n = survey.items.count
    let (presented, answered) = progress(p, items: n)
    if presented > 0 {
      for (k, item) in survey.items.prefix(presented).enumerated() {
        let (from, to) = onScreen(p, item: k, of: n)
        let answer = k < answered ? Self.answer(p, item, k, own: own) : ""
        out.append([String(time.unix(from))] + question(item) + ["", "present"])
        if k < answered { out.append([String(time.unix(from + (to - from) / 2))] + question(item) + [answer, "changed"]) }
        out.append([String(time.unix(to))] + question(item) + [answer, "unpresent"])
      }
    }
    if p.status == .answered {
      out.append([String(time.unix(p.submitted)), "", "", "", "", "", "submitted"])
    } else if p.status == .expired && expiry != .never {
      // A survey that never expires stays available: at the study's end nothing is written
      // (seed 003: expired is written when a survey expires before its submit).
      out.append([String(time.unix(p.closed >= 0 ? p.closed : p.delivered)), "", "", "", "", "", "expired"])
    } else if let t = Self.expiry(of: p, expiry) {
      out.append([String(time.unix(t)), "", "", "", "", "", "expired"])
    }
    return out
  }

  /// When item `k` of `n` is on screen: items are presented in turn over the answering time
  /// (opened to submitted or closed; a survey broken off got as far as `reached`).
  static func onScreen(_ p: PromptRecord, item k: Int, of n: Int) -> (from: SimTime, to: SimTime) {
    let end = p.submitted >= 0 ? p.submitted : p.closed
    let span = max(p.reached >= 1 ? end - p.opened : SimTime(Double(end - p.opened) / p.reached), 1)
    return (p.opened + span * SimTime(k) / SimTime(n), min(p.opened + span * SimTime(k + 1) / SimTime(n), end))
  }

  /// Android's timings: no notification or expiry rows; the survey's first display, a row per
  /// answer given (when the participant answers it, halfway through the item's time), and the
  /// submission.
  static func androidTimings(_ p: PromptRecord, survey: SurveyPlan, time: Timestamps, own: [String: String]) -> [[String]] {
    let n = survey.items.count
    let (presented, answered) = progress(p, items: n)
    guard presented > 0 else { return [] }
    var out: [[String]] = [[String(time.unix(p.opened)), androidOpened]]
    for (k, item) in survey.items.prefix(answered).enumerated() {
      let (from, to) = onScreen(p, item: k, of: n)
      out.append([String(time.unix(from + (to - from) / 2))] + question(item) + [Self.answer(p, item, k, own: own)])
    }
    if p.status == .answered { out.append([String(time.unix(p.submitted)), androidSubmitted]) }
    return out
  }

  /// The answers rows of one prompt, nil when no answers file is written (never opened, or
  /// broken off and never expired).
  public static func answers(
    _ p: PromptRecord, survey: SurveyPlan, os: OperatingSystem, expiry: ExpiryPolicy = .never, own: [String: String] = [:]
  ) -> [[String]]? {
    guard p.delivered >= 0, !p.volunteered, p.status == .answered || p.status == .expired || Self.expiry(of: p, expiry) != nil
    else { return nil }
    let (presented, answered) = progress(p, items: survey.items.count)
    guard presented > 0 else { return nil }
    return survey.items.enumerated().map { k, item in
      let answer =
        k < answered ? Self.answer(p, item, k, own: own) : (k < presented || os != .ios ? "NO_ANSWER_SELECTED" : "not_presented")
      return question(item) + [answer]
    }
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
    case .unlocked: "Unlocked"
    case .locked: "Locked"
    }
  }
}
