import Schedules
import SimKernel
import StudyModel

/// What an ESMira event trigger listens to (`cueCode`): joining, or an event of a
/// questionnaire (`questionnaire`: one finished; `invitation`, `notification`: its
/// notification posted) with the trigger's condition on which questionnaire
/// (`EventTrigger.triggerCheck`; [@ESMiraNotes]).
enum ESMiraCue: Equatable {
  /// Which questionnaires' events fire the trigger: any (its own included), any other
  /// (`skipThisQuestionnaire`), or the one of an `internalId` (`specificQuestionnaireInternalId`).
  enum Condition: Equatable {
    case any
    case others
    case specific(Double)
  }

  case joined
  case followUp(finished: Bool, Condition)

  /// Whether a questionnaire finished (rather than a notification posted) fires it.
  var finished: Bool {
    if case .followUp(let f, _) = self { return f }
    return false
  }
}

extension ESMiraStudyImport {
  /// The cues esmsim simulates: joining, a questionnaire finished, a notification posted.
  static let simulatedCues: Set<String> = ["joined", "questionnaire", "invitation", "notification"]

  /// An event trigger (`cueCode`, `delaySec`, `randomDelay`, `delayMinimumSec`,
  /// `skipThisQuestionnaire`, `specificQuestionnaireInternalId`) as the app runs it
  /// (`EventTrigger.triggerCheck`, `Scheduler.scheduleEventTrigger`): a prompt `delaySec` after
  /// the event (with `randomDelay`, uniformly between `delayMinimumSec` and `delaySec`), a
  /// delayed one only if the questionnaire is active then (the join day + `activeFrom` through
  /// `through`). A trigger without delay runs only on a questionnaire's event, so on joining it
  /// sends nothing, nor does one on joining limited to a questionnaire. A questionnaire's event
  /// (`questionnaire`: finished; `invitation`, `notification`: posted, which ESMira's Android
  /// app alone logs as it posts them) makes a follow-up (``FollowUps``) whose sources are set
  /// once every questionnaire is read (``link(_:_:partsOf:internalIds:_:)``). Other cues are
  /// not simulated. Each is said by key.
  static func eventPart(_ e: ScenarioValue, _ k: String, activeFrom: Int, through last: Int?, _ json: inout JSONFields)
    throws(ScenarioError) -> (SchedulePart, ESMiraCue)?
  {
    var code = "joined"
    if case .scalar(let c, _)? = e["cueCode"] { code = c }
    guard simulatedCues.contains(code) else {
      json.warn(
        k + ".cueCode",
        "a questionnaire sent on the app's '\(code)' event is not simulated (esmsim simulates joining, a questionnaire finished and a notification posted)")
      return nil
    }
    let specific = try json.number(e["specificQuestionnaireInternalId"], k + ".specificQuestionnaireInternalId", default: -1, range: -1...9e15)
    let cue: ESMiraCue
    if code == "joined" {
      guard specific == -1 else {
        json.warn(k + ".specificQuestionnaireInternalId", "a trigger on joining limited to a questionnaire's event never fires in the app: nothing is sent")
        return nil
      }
      cue = .joined
    } else if specific != -1 {
      cue = .followUp(finished: code == "questionnaire", .specific(specific))
    } else {
      cue = .followUp(finished: code == "questionnaire", json.flag(e["skipThisQuestionnaire"]) ? .others : .any)
    }
    let longest = 365.0 * 86_400
    let delay = try json.number(e["delaySec"], k + ".delaySec", default: 0, range: 0...longest)
    if cue == .joined && delay == 0 {
      json.warn(k + ".delaySec", "0: the app runs a trigger without delay only on a questionnaire's event, so on joining it sends nothing")
      return nil
    }
    var (low, high) = (delay, delay)
    if json.flag(e["randomDelay"]) && delay > 0 {
      let minimum = try json.number(e["delayMinimumSec"], k + ".delayMinimumSec", default: 0, range: 0...longest)
      (low, high) = (min(minimum, delay), max(minimum, delay))
    }
    if let last, last < activeFrom {
      json.warn(k, "the questionnaire is active on no day (durationStartingAfterDays after durationPeriodDays): nothing is sent")
      return nil
    }
    var onlyOn: OperatingSystem?
    if code == "invitation" || code == "notification" {
      onlyOn = .android
      json.warn(
        k + ".cueCode",
        "'\(code)' fires on Android phones only: ESMira's iOS app plans its notifications ahead and logs none as it is posted")
    }
    // A follow-up's sources are set by link(…) once every questionnaire's parts are known;
    // ESMira sets no limit a day (200: esmsim's most).
    let trigger = EventTrigger(
      event: cue == .joined ? .joined : .finished([]), delay: Tick.seconds(low), delaySpread: Tick.seconds(high - low),
      maxPerDay: cue == .joined ? 1 : 200, onlyOn: onlyOn)
    let allDay = try! Window(start: ClockTime(minutes: 0), length: 1440)
    var part = SchedulePart(.events(trigger), window: .fixed(weekday: allDay, weekend: allDay))
    part.days = activeFrom...(last ?? Int.max / 2)
    return (part, cue)
  }

  /// Sets each follow-up's sources (the parts of the questionnaires whose events fire it:
  /// `partsOf` each questionnaire's parts, `internalIds` their ids); one limited to a
  /// questionnaire that does not exist never fires and is left out, said by key.
  static func link(
    _ followUps: [(part: Int, cue: ESMiraCue, questionnaire: Int, key: String)], _ parts: inout [SchedulePart],
    partsOf: [[Int]], internalIds: [Double?], _ json: inout JSONFields
  ) {
    var dropped = Set<Int>()
    var sources: [Int: Set<Int>] = [:]
    for (p, cue, qi, key) in followUps {
      guard case .followUp(_, let condition) = cue else { continue }
      let questionnaires = partsOf.indices.filter {
        switch condition {
        case .any: true
        case .others: $0 != qi
        case .specific(let id): internalIds[$0] == id
        }
      }
      if case .specific = condition, questionnaires.isEmpty {
        json.warn(key + ".specificQuestionnaireInternalId", "no questionnaire has this internalId: the trigger never fires, nothing is sent")
        dropped.insert(p)
        continue
      }
      sources[p] = Set(questionnaires.flatMap { partsOf[$0] })
      if questionnaires.contains(qi) {
        json.warn(
          key + ".cueCode",
          "fires on its own questionnaire's events too (no skipThisQuestionnaire): each one cues the next, a chain that esmsim, like the app, follows (at most 200 a day)")
      }
    }
    // The parts kept, numbered again.
    var number: [Int: Int] = [:]
    for p in parts.indices where !dropped.contains(p) { number[p] = number.count }
    for (p, cue, _, _) in followUps {
      guard let s = sources[p], var trigger = parts[p].trigger else { continue }
      let renumbered = Set(s.compactMap { number[$0] })
      trigger.event = cue.finished ? .finished(renumbered) : .notified(renumbered)
      parts[p].rule = .events(trigger)
    }
    parts = parts.indices.filter { !dropped.contains($0) }.map { parts[$0] }
  }
}
