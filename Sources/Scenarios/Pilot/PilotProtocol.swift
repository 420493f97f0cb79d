import Foundation
import SimKernel
import StudyModel

/// The protocol a pilot ran, as its records show it (`esmsim calibrate` without
/// `--scenario`): per questionnaire the prompts a day (the commonest count on a day with
/// any), the weekdays with prompts, the schedule (the same clock time every day: fixed
/// times; the day's k-th prompts in separate ranges: blocks, tiling the window or with a
/// gap between them; otherwise fixed blocks over the window), the window, and the expiry
/// (the longest time from a prompt to its opening, or its submission where openings are not
/// recorded, rounded up to 5 minutes); the study's days (the median participant's span),
/// participants and first date. Written as a scenario whose phones are
/// in ordinary use (`devices: {non_controlled: 1}`, the study app's notifications arriving as
/// on a study phone): the records do not say which phones they were.
public struct PilotProtocol: Sendable {
  /// The scenario, YAML.
  public var yaml: String
  /// What the records showed, a line each, for the reader to check.
  public var notes: [String]

  /// A questionnaire's prompts seen on a participant-day: local minutes of the day, sorted.
  typealias Day = [Double]

  public init(_ pilot: Pilot) {
    var notes: [String] = []
    // Local dates and minutes of each prompt; each participant's first date.
    let ms = 86_400_000 as Int64
    func local(_ p: PilotPrompt) -> Int64 { p.planned + Int64(p.utcOffsetMinutes) * 60_000 }
    let (first, spans, spanDays) = Self.spans(pilot)
    let days = spans.isEmpty ? 1 : spans[spans.count / 2]
    let start = first.values.min() ?? 0
    let names = Array(Set(pilot.prompts.map(\.questionnaire))).sorted()
    let scenarioNames = Self.scenarioNames(names)
    var entries: [String] = []
    var windowFrom = 24 * 60.0
    var windowTo = 0.0
    for name in names {
      let mine = pilot.prompts.filter { $0.questionnaire == name }
      var byDay: [String: Day] = [:]
      var weekdays = [Int](repeating: 0, count: 7)
      for p in mine {
        let l = local(p)
        let d = Self.floorDiv(l, ms)
        byDay[p.participant + "\u{1F}" + String(d), default: []].append(Double(l - d * ms) / 60_000)
        weekdays[Int(((d + 3) % 7 + 7) % 7)] += 1  // 1970-01-01 was a Thursday: Monday is 0
      }
      let dayList = byDay.keys.sorted().map { byDay[$0]!.sorted() }
      let counts = Dictionary(grouping: dayList.map(\.count), by: { $0 }).mapValues(\.count)
      let perDay = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 1
      let full = dayList.filter { $0.count == perDay }
      let shownName = Self.printable(name)
      let label =
        name.isEmpty
        ? "the prompts" : "questionnaire \(shownName)\(scenarioNames[name] == name ? "" : " (\(scenarioNames[name]!) in the scenario)")"
      let inferred = Self.schedule(full, perDay: perDay, label: label)
      var (schedule, from, to) = (inferred.schedule, inferred.from, inferred.to)
      notes.append(inferred.note)
      from = min(max(from, 0), 23 * 60)
      to = min(max(to, from + 5), 24 * 60)  // to midnight at the latest ("24:00": a prompt at 23:59 inside)
      // Weekdays with hardly any prompts (under a tenth of the average a day) are left out;
      // a weekday no participant's span holds says nothing.
      let mean = Double(weekdays.reduce(0, +)) / Double(max(spanDays.reduce(0, +), 1))
      let on = (0..<7).filter { spanDays[$0] == 0 || Double(weekdays[$0]) >= 0.1 * mean * Double(spanDays[$0]) }
      if on.count < 7 {
        let names = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        schedule.removeLast()
        schedule += ", weekdays: [\(on.map { names[$0] }.joined(separator: ", "))]}"
        notes.append("\(label): only on \(on.map { names[$0] }.joined(separator: ", "))")
      }
      let (expiry, survey, answerNotes) = Self.expiryAndLength(mine, recording: pilot.recording, label: label)
      notes += answerNotes
      let window = "\(Self.clock(from))-\(Self.clock(to))"
      // Prompts at times of day the proposed window leaves out (on any day, full or not): the
      // fit's figures count them, the simulated protocol cannot prompt then.
      let outside = dayList.reduce(0) { n, day in n + day.filter { $0 < from - 1 || $0 > to + 1 }.count }
      if outside > 0 {
        notes.append(
          "\(label): \(outside) of \(mine.count) prompts (\(String(format: "%.1f", 100 * Double(outside) / Double(max(mine.count, 1)))) %) fall outside \(window): the fit counts them, though the simulated protocol cannot prompt then (another time zone, or extra prompts: check --time-zone, or give --scenario)")
      }
      windowFrom = min(windowFrom, from)
      windowTo = max(windowTo, to)
      entries.append(
        "    - {name: \(Self.quoted(scenarioNames[name]!)), schedule: \(schedule), window: \"\(window)\", expiry: \(expiry)m\(survey)}")
    }
    let date = Self.date(start)
    notes.append(
      "\(first.count) participants, \(days) days (the median participant's span), from \(date); phones in ordinary use (the records do not say which: give --scenario with population.preset own_phones when the app must run to prompt)")
    yaml = Self.yaml(date: date, days: days, participants: first.count, window: (windowFrom, windowTo), entries: entries)
    self.notes = notes
  }

  /// The protocol proposed from `pilot`'s records, resolved as a scenario; refused naming
  /// `file` (the pilot's first) when it cannot be simulated (more questionnaires than a
  /// protocol holds, more prompts a day than a schedule draws).
  public static func scenario(_ pilot: Pilot, file: String) throws(ScenarioError) -> (PilotProtocol, StudyPlan) {
    let questionnaires = Set(pilot.prompts.map(\.questionnaire)).count
    guard questionnaires <= ScenarioLimits.questionnaires else {
      throw ScenarioError(
        file: file, key: "questionnaire", at: nil,
        "the records hold \(questionnaires) questionnaires; a protocol has at most \(ScenarioLimits.questionnaires): give --scenario")
    }
    let p = PilotProtocol(pilot)
    do {
      return (p, try Readers.scenario(Data(p.yaml.utf8), file: "proposed").variants[0].plan)
    } catch {
      throw ScenarioError(
        file: file, key: error.key, at: nil,
        "the protocol the records show cannot be simulated (\(error.message)); give --scenario (--propose prints the proposal)")
    }
  }

  /// The proposed scenario: the study's dates and participants, the window over every
  /// questionnaire's, and the questionnaires' entries.
  static func yaml(date: String, days: Int, participants: Int, window: (from: Double, to: Double), entries: [String]) -> String {
    let (windowFrom, windowTo) = window
    var y = "name: \(Self.quoted("pilot as its records show it"))\n"
    y += "start_date: \"\(date)\"\nduration: \(days)d\n"
    y += "population: {devices: {non_controlled: 1}, size: \(max(participants, 1))}\n"
    y += "protocol:\n  window: \"\(Self.clock(min(windowFrom, 23 * 60)))-\(Self.clock(max(windowTo, min(windowFrom, 23 * 60) + 5)))\"\n"
    y += "  questionnaires:\n" + entries.joined(separator: "\n") + "\n"
    return y
  }

  /// Each participant's first local date (days since 1970), the participants' spans in days
  /// (sorted), and the participant-days on each weekday (Monday 0) within their spans.
  static func spans(_ pilot: Pilot) -> (first: [String: Int64], spans: [Int], spanDays: [Int]) {
    let ms = 86_400_000 as Int64
    var first: [String: Int64] = [:]
    var last: [String: Int64] = [:]
    for p in pilot.prompts {
      let d = floorDiv(p.planned + Int64(p.utcOffsetMinutes) * 60_000, ms)
      first[p.participant] = min(first[p.participant] ?? d, d)
      last[p.participant] = max(last[p.participant] ?? d, d)
    }
    let spans = first.keys.sorted().map { Int(last[$0]! - first[$0]!) + 1 }.sorted()
    var spanDays = [Int](repeating: 0, count: 7)
    for (who, a) in first {
      for d in a...max(a, min(last[who]!, a + Int64(Pilot.maxSpanDays))) { spanDays[Int(((d + 3) % 7 + 7) % 7)] += 1 }
    }
    return (first, spans, spanDays)
  }

  /// A questionnaire's expiry (the longest time to open, or to submit where openings are not
  /// recorded, rounded up to 5 minutes) and its survey's length from its answering time, with
  /// their notes.
  static func expiryAndLength(
    _ mine: [PilotPrompt], recording: PilotRecording, label: String
  ) -> (expiry: Int, survey: String, notes: [String]) {
    var notes: [String] = []
    // The expiry: the longest time to open (or to submit where openings are not recorded).
    let waits = mine.compactMap { p -> Int64? in
      guard let t = recording.openings ? (p.opened ?? p.submitted) : p.submitted else { return nil }
      return t - p.shown
    }
    let longest = Double(waits.max() ?? 30 * 60_000) / 60_000
    let expiry = Int(min(max(Self.ceil5(longest), 5), 24 * 60))
    notes.append(
      waits.isEmpty
        ? "\(label): answerable for \(expiry) minutes (an assumption: no prompt was \(recording.openings ? "opened" : "answered"), so the records show no time to \(recording.openings ? "open" : "submit"))"
        : "\(label): answerable for \(expiry) minutes (the longest time to \(recording.openings ? "open" : "submit"): \(String(format: "%.1f", longest)) minutes)"
    )
    // The survey's length from its answering time (opened to submitted), at the defaults'
    // seconds: the first item's and each further one's.
    var survey = ""
    let answering = mine.compactMap { p -> Double? in
      guard recording.openings, let o = p.opened, let s = p.submitted else { return nil }
      return Double(s - o) / 1000
    }
    if !answering.isEmpty {
      let c = CompliancePlan()
      let median = Self.median(answering)
      let items = max(1, min(Int((1 + (median - Tick.inSeconds(c.completion)) / c.secondsPerItem).rounded()), 200))
      if items > 1 { survey = ", survey: {length: \(items)}" }
      notes.append(
        "\(label): a median \(Int(median.rounded())) s from opening to submitting: \(items) item\(items == 1 ? "" : "s") at the defaults' pace")
    }
    return (expiry, survey, notes)
  }

  /// A questionnaire's schedule as its full days show it (each with `perDay` prompts, local
  /// minutes, sorted): fixed times, blocks (tiling the window or with a gap), or fixed blocks
  /// over the window; its window's start and end, minutes; the note for the reader.
  static func schedule(_ full: [Day], perDay: Int, label: String) -> (schedule: String, from: Double, to: Double, note: String) {
    let schedule: String
    let from: Double
    let to: Double
    let note: String
    let k = (0..<perDay).map { i in full.map { $0[i] }.sorted() }
    // Each k-th prompt's range: from the central 90 % of its times when there are 20 or more
    // (a few prompts of people in another time zone, or sent late, do not widen the
    // blocks), widened by the 5 % a uniform draw puts on each side; else all of them.
    let lo = k.map { $0.count >= 20 ? Self.quantile($0, 0.05) - (Self.quantile($0, 0.95) - Self.quantile($0, 0.05)) / 18 : Self.quantile($0, 0) }
    let hi = k.map { $0.count >= 20 ? Self.quantile($0, 0.95) + (Self.quantile($0, 0.95) - Self.quantile($0, 0.05)) / 18 : Self.quantile($0, 1) }
    let fixed = k.map { Self.fixedTime($0) }
    if fixed.allSatisfy({ $0 != nil }) {
      let times = fixed.map { $0! }
      schedule = "{algorithm: fixed-times, times: [\(times.map { "\"\(Self.clock($0))\"" }.joined(separator: ", "))]}"
      from = Self.floor5(times.first!)
      to = Self.ceil5(times.last! + 1)
      note = "\(label): \(perDay) a day at fixed times \(times.map(Self.clock).joined(separator: ", "))"
    } else {
      let spacing = perDay > 1 ? Self.median((1..<perDay).map { lo[$0] - lo[$0 - 1] }) : hi[0] - lo[0]
      let width = Self.median(zip(lo, hi).map { $1 - $0 })
      let separate = (1..<max(perDay, 1)).allSatisfy { hi[$0 - 1] <= lo[$0] + 2 }
      let even =
        perDay == 1
        || ((1..<perDay).allSatisfy { abs(lo[$0] - lo[$0 - 1] - spacing) <= 0.15 * spacing }
          && zip(lo, hi).allSatisfy { abs($1 - $0 - width) <= 0.15 * spacing })
      if separate && even && spacing > 0 && width < 0.9 * spacing {
        // Block and draw lengths on whole 5 minutes when they are within 2 of them (the
        // draws' range falls short of the block's by a little).
        let (spacing, width) = (Self.snap(spacing), Self.snap(width))
        let buffer = (spacing - width) / (2 * spacing)
        from = Self.snap(lo[0] - (spacing - width) / 2).rounded()
        to = from + Double(perDay) * spacing.rounded()
        // The prompts outside their block (another time zone, a late send), counted.
        let outside = k.enumerated().reduce(0) { n, e in
          let start = from + Double(e.offset) * spacing.rounded()
          return n + e.element.filter { $0 < start || $0 > start + spacing.rounded() }.count
        }
        schedule = "{algorithm: buffered-blocks, per_day: \(perDay), buffer: \(String(format: "%.3f", buffer))}"
        note = (
          "\(label): \(perDay) a day, one in each of \(perDay) blocks of \(Int(spacing.rounded())) minutes, drawn in their middle \(Int(width.rounded())) minutes"
            + (outside > 0 ? " (\(outside) of \(k.reduce(0) { $0 + $1.count }) prompts fell outside their block: another time zone, or sent late)" : ""))
      } else {
        from = Self.floor5(lo.min() ?? 0)
        to = Self.ceil5((hi.max() ?? 0) + 1)
        schedule = "{algorithm: fixed-blocks, per_day: \(perDay)}"
        note = (
          separate && even
            ? "\(label): \(perDay) a day, one in each of \(perDay) equal blocks"
            : "\(label): \(perDay) a day at varying times, no block structure visible: fixed blocks proposed")
      }
    }
    return (schedule, from, to, note)
  }

  /// Each questionnaire's name in the scenario: 1 to 40 letters, digits, _ or - (a name
  /// names metrics and rows), other characters as _, distinct (a number added), "esm" for
  /// the unnamed.
  static func scenarioNames(_ names: [String]) -> [String: String] {
    var out: [String: String] = [:]
    var used: Set<String> = []
    for name in names {
      var n = String(
        name.unicodeScalars.prefix(40).map { c -> Character in
          c.isASCII && (CharacterSet.alphanumerics.contains(c) || c == "_" || c == "-") ? Character(c) : "_"
        })
      if n.isEmpty || n.allSatisfy({ $0 == "_" }) { n = name.isEmpty ? "esm" : "questionnaire" }
      var candidate = n
      var k = 2
      while used.contains(candidate) {
        candidate = String(n.prefix(36)) + "_\(k)"
        k += 1
      }
      used.insert(candidate)
      out[name] = candidate
    }
    return out
  }

  /// A name as a comment line may show it: control characters (a line break would end the
  /// comment and start YAML) as spaces, at most 100 characters.
  static func printable(_ s: String) -> String {
    String(s.unicodeScalars.prefix(100).map { $0.value < 32 || $0.value == 127 || ($0.value >= 0x80 && $0.value < 0xA0) || $0 == "\u{2028}" || $0 == "\u{2029}" ? " " : Character($0) })
  }

  /// The clock time most of a day's k-th prompts fall on (four in five within 2 minutes of
  /// their median), nil when they vary.
  static func fixedTime(_ minutes: [Double]) -> Double? {
    guard minutes.count >= 2 else { return nil }
    let m = median(minutes)
    let near = minutes.filter { abs($0 - m) <= 2 }.count
    // 23:59:50 is 23:59, not 24:00 (a time of the next day, outside the day's window).
    return Double(near) >= 0.8 * Double(minutes.count) ? min(m.rounded(), 1439) : nil
  }

  /// The `q` quantile of sorted values (linear between order statistics), 0 when empty.
  static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let h = Double(sorted.count - 1) * q
    let i = Int(h.rounded(.down))
    let j = min(i + 1, sorted.count - 1)
    return sorted[i] + (h - Double(i)) * (sorted[j] - sorted[i])
  }

  static func median(_ xs: [Double]) -> Double {
    guard !xs.isEmpty else { return 0 }
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
  }

  /// `m` on a whole 5 minutes when within 2 of it.
  static func snap(_ m: Double) -> Double {
    let r = (m / 5).rounded() * 5
    return abs(r - m) <= 2 ? r : m
  }

  static func floor5(_ m: Double) -> Double { (m / 5).rounded(.down) * 5 }
  static func ceil5(_ m: Double) -> Double { (m / 5).rounded(.up) * 5 }

  /// HH:MM of minutes after midnight (1440, the day's end, is 24:00).
  static func clock(_ m: Double) -> String {
    let t = Int(m.rounded())
    return String(format: "%02d:%02d", t / 60, t % 60)
  }

  static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : -((-a + b - 1) / b) }

  /// YYYY-MM-DD of a day since 1970.
  static func date(_ day: Int64) -> String {
    let (y, m, d) = CalendarDate.civil(Int(day))
    return String(format: "%04d-%02d-%02d", y, m, d)
  }

  /// A YAML double-quoted string.
  static func quoted(_ s: String) -> String {
    var out = "\""
    for c in s.prefix(100).unicodeScalars {
      switch c {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      default: out += c.value < 32 ? " " : String(c)
      }
    }
    return out + "\""
  }
}
