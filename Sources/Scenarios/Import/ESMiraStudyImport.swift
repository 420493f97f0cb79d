import Schedules
import SimKernel
import StudyModel

/// Reads the schedules of an ESMira study file (`ESMira-apps` `Study.kt`, `Schedule.kt`,
/// `SignalTime.kt`, `ActionTrigger.kt`; [@ESMiraNotes]):
/// `questionnaires[].actionTriggers[]` with `schedules[]` (`dailyRepeatRate`, `weekdays`
/// bitmask Sun = 1 … Sat = 64, 0 = every day, `signalTimes[]`) and `actions[]` (`type` 1 =
/// invitation, `timeout` minutes, `reminder_count`, `reminder_delay_minu`, default 5).
///
/// Each signal time becomes one schedule part: `random` with `frequency` n and
/// `minutesBetween` g is ESMira's own algorithm (fixed blocks, truncation gap method) in its
/// window `startTimeOfDay`–`endTimeOfDay` (milliseconds after midnight; an end before the
/// start crosses midnight); a fixed one fires at `startTimeOfDay`. `randomFixed` (a time
/// drawn once and kept) is refused: esmsim draws every day. The first invitation action sets
/// the timeout and reminders (ESMira counts a prompt missed after timeout + reminders ×
/// delay). Other fields of the study are not read. Delivered through ESMira's iOS planner.
enum ESMiraStudyImport {
  static func load(path: String, key: String) throws(ScenarioError) -> ImportedProtocol {
    try read(ScenarioLoader.load(path: path), file: path)
  }

  /// Reads a study file's tree (`file` names it in errors).
  static func read(_ root: ScenarioValue, file path: String) throws(ScenarioError) -> ImportedProtocol {
    func fail(_ k: String, _ at: ScenarioValue.Location?, _ message: String) -> ScenarioError {
      ScenarioError(file: path, key: k, at: at, message)
    }
    func list(_ v: ScenarioValue?, _ k: String) throws(ScenarioError) -> [ScenarioValue] {
      guard let v else { return [] }
      guard case .sequence(let items, _) = v else { throw fail(k, v.location, "expected a list") }
      return items
    }
    func number(_ v: ScenarioValue?, _ k: String, default d: Double, range: ClosedRange<Double>) throws(ScenarioError) -> Double {
      guard let v else { return d }
      guard case .scalar(let text, let l) = v, let x = Units.number(text), range.contains(x) else {
        throw fail(k, v.location, "expected a number from \(Units.format(range.lowerBound)) to \(Units.format(range.upperBound))")
      }
      _ = l
      return x
    }
    func flag(_ v: ScenarioValue?) -> Bool {
      if case .scalar(let t, _)? = v { return t == "true" || t == "1" }
      return false
    }
    guard case .mapping = root else { throw fail("", root.location, "an ESMira study is a JSON object") }
    var parts: [SchedulePart] = []
    var expiry: ExpiryPolicy = .never
    var reminders = Reminders()
    var sawAction = false
    var items: [SurveyItem] = []
    for (qi, q) in try list(root["questionnaires"], "questionnaires").enumerated() {
      let qk = "questionnaires[\(qi)]"
      for (pi, page) in try list(q["pages"], "\(qk).pages").enumerated() {
        for (ii, input) in try list(page["inputs"], "\(qk).pages[\(pi)].inputs").enumerated() {
          var name = "q\(qi)_\(pi)_\(ii)"
          var text = ""
          if case .scalar(let n, _)? = input["name"] { name = n }
          if case .scalar(let t, _)? = input["text"] { text = t }
          items.append(SurveyItem(id: name, type: 6, title: text, instructions: "", options: []))
        }
      }
      for (ti, trigger) in try list(q["actionTriggers"], "\(qk).actionTriggers").enumerated() {
        let tk = "\(qk).actionTriggers[\(ti)]"
        for (ai, action) in try list(trigger["actions"], "\(tk).actions").enumerated() where !sawAction {
          let ak = "\(tk).actions[\(ai)]"
          let type = try number(action["type"], ak + ".type", default: 1, range: 1...3)
          guard type == 1 else { continue }
          sawAction = true
          let timeout = try number(action["timeout"], ak + ".timeout", default: 0, range: 0...(60 * 24 * 30))
          let count = try number(action["reminder_count"], ak + ".reminder_count", default: 0, range: 0...20)
          let delay = try number(action["reminder_delay_minu"], ak + ".reminder_delay_minu", default: 5, range: 1...(60 * 24))
          reminders = Reminders(count: Int(count), interval: Tick.minutes(delay))
          expiry = timeout == 0 ? .never : .after(Tick.minutes(timeout + count * delay))
        }
        for (si, schedule) in try list(trigger["schedules"], "\(tk).schedules").enumerated() {
          let sk = "\(tk).schedules[\(si)]"
          let every = try number(schedule["dailyRepeatRate"], sk + ".dailyRepeatRate", default: 1, range: 1...365)
          let mask = Int(try number(schedule["weekdays"], sk + ".weekdays", default: 0, range: 0...127))
          // ESMira: Sunday = 1, Monday = 2, … Saturday = 64; esmsim: Monday = 0 … Sunday = 6.
          let weekdays: Set<Int>? = mask == 0 ? nil : Set((0..<7).filter { mask & (1 << (($0 + 1) % 7)) != 0 })
          for (ti2, signal) in try list(schedule["signalTimes"], sk + ".signalTimes").enumerated() {
            let k = "\(sk).signalTimes[\(ti2)]"
            if flag(signal["randomFixed"]) {
              throw fail(k + ".randomFixed", signal["randomFixed"]?.location, "randomFixed (a time drawn once and kept) is not simulated; esmsim draws a new time every day")
            }
            let startMs = try number(signal["startTimeOfDay"], k + ".startTimeOfDay", default: 0, range: 0...86_400_000)
            let endMs = try number(signal["endTimeOfDay"], k + ".endTimeOfDay", default: startMs + 60_000, range: 0...86_400_000)
            let start = ClockTime(minutes: startMs / 60_000)
            let part: SchedulePart
            if flag(signal["random"]) {
              let frequency = try number(signal["frequency"], k + ".frequency", default: 1, range: 1...100)
              let gap = try number(signal["minutesBetween"], k + ".minutesBetween", default: 60, range: 0...1440)
              guard frequency == frequency.rounded() else { throw fail(k + ".frequency", signal["frequency"]?.location, "a whole number") }
              let window: Window
              do { window = try Window(start: start, end: ClockTime(minutes: endMs / 60_000)) } catch {
                throw fail(k + ".endTimeOfDay", signal["endTimeOfDay"]?.location, error.message)
              }
              let p = ScheduleParameters(perDay: frequency, minGap: frequency > 1 ? gap : 0, gapMethod: .truncation)
              do { _ = try AnyScheduler(.fixedBlocks, p, window: window) } catch {
                throw fail(k + ".minutesBetween", signal["minutesBetween"]?.location, error.message)
              }
              part = SchedulePart(
                ScheduleChoice(.fixedBlocks, p), window: .fixed(weekday: window, weekend: window), everyDays: Int(every),
                weekdays: weekdays)
            } else {
              let window = try! Window(start: start, length: 1)
              part = SchedulePart(
                ScheduleChoice(.fixedTimes, ScheduleParameters(times: [start])), window: .fixed(weekday: window, weekend: window),
                everyDays: Int(every), weekdays: weekdays)
            }
            parts.append(part)
          }
        }
      }
    }
    guard !parts.isEmpty else { throw fail("questionnaires", root.location, "the study has no signal times to simulate") }
    if items.isEmpty { items = SurveyPlan().items }
    var title = "ESMira"
    if case .scalar(let t, _)? = root["title"] { title = t }
    return ImportedProtocol(
      parts: parts, survey: SurveyPlan(id: "esmira", title: title, items: items), channelPreset: "esmira", expiry: expiry,
      reminders: reminders)
  }
}
