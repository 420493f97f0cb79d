import SimKernel

/// Follow-up prompts, created while the study runs: a schedule whose trigger is a
/// questionnaire finished or a notification posted (``EventTrigger/Event/finished(_:)``,
/// ``EventTrigger/Event/notified(_:)``) prompts `delay` (plus up to `delaySpread`) after such
/// an event of one of its source schedules, with the trigger's chance, no sooner than `minGap`
/// after its previous prompt and at most `maxPerDay` a day; a delayed one only if the
/// schedule is active on the follow-up's day (ESMira: `EventTrigger.triggerCheck` runs a
/// trigger without delay at once, and `Scheduler.scheduleEventTrigger` a delayed one at the
/// event plus the delay if its questionnaire is active then; [@ESMiraNotes]).
struct FollowUps {
  /// What cues a follow-up.
  enum Cue { case finished, notified }

  /// A follow-up schedule: its index, trigger and its own draws.
  private struct Rule {
    let schedule: Int
    let trigger: EventTrigger
    var stream: RandomStream
    var last: SimTime?
    var day = -1
    var today = 0
  }

  /// Each source schedule's follow-up rules (indices into `rules`), by cue.
  private var rules: [Rule] = []
  private var afterFinished: [[Int]] = []
  private var afterNotified: [[Int]] = []

  /// Whether any schedule is a follow-up.
  var isEmpty: Bool { rules.isEmpty }

  /// The follow-up schedules of `schedules`, each drawing from its own schedule's stream
  /// (`streams`, untouched when the timetable was drawn), on a phone running `os`.
  init(_ schedules: [SchedulePart], streams: [RandomStream], os: OperatingSystem) {
    guard schedules.contains(where: { $0.trigger?.isFollowUp == true }) else { return }
    afterFinished = Array(repeating: [], count: schedules.count)
    afterNotified = afterFinished
    for (k, part) in schedules.enumerated() {
      guard let t = part.trigger, t.isFollowUp, t.onlyOn == nil || t.onlyOn == os else { continue }
      let r = rules.count
      rules.append(Rule(schedule: k, trigger: t, stream: streams[k]))
      let finished = if case .finished = t.event { true } else { false }
      for s in t.followUpSources.sorted() where s < schedules.count {
        if finished { afterFinished[s].append(r) } else { afterNotified[s].append(r) }
      }
    }
  }

  /// The follow-ups that an event `cue` of schedule `source` at `t` creates: each rule's time
  /// and schedule, before `end`, on a day `isActive` accepts. Each rule the event reaches takes
  /// one draw for its chance and one for its delay's spread when it has one.
  mutating func cued(
    _ cue: Cue, source: Int, at t: SimTime, before end: SimTime, isActive: (_ schedule: Int, _ day: Int) -> Bool
  ) -> [(time: SimTime, schedule: Int)] {
    let list = cue == .finished ? afterFinished : afterNotified
    guard source >= 0 && source < list.count else { return [] }
    var out: [(time: SimTime, schedule: Int)] = []
    for r in list[source] {
      let trigger = rules[r].trigger
      let chosen = trigger.probability >= 1 || rules[r].stream.uniform() < trigger.probability
      var due = t + trigger.delay
      if trigger.delaySpread > 0 { due += SimTime(rules[r].stream.uniform() * Double(trigger.delaySpread)) }
      let day = Int(due / Tick.day)
      guard chosen, due < end, trigger.delay + trigger.delaySpread == 0 || isActive(rules[r].schedule, day) else { continue }
      // Random delays can put a follow-up before the one cued earlier: apart by the gap either way.
      if let last = rules[r].last, abs(due - last) < trigger.minGap { continue }
      if rules[r].day != day { (rules[r].day, rules[r].today) = (day, 0) }
      guard rules[r].today < trigger.maxPerDay else { continue }
      rules[r].today += 1
      rules[r].last = due
      out.append((due, rules[r].schedule))
    }
    return out
  }
}
