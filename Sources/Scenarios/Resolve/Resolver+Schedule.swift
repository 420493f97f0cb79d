import Foundation
import Schedules
import SimKernel
import StudyModel

/// The `protocol` section's window and schedule: the signalling window (fixed, by weekday and
/// weekend, or the participant's own hours) and the schedule's algorithm with its parameters,
/// checked against the windows (the rest of the section: `Resolver+Protocol.swift`).
extension ScenarioResolver {
  /// The window, with a warning when it crosses midnight for most of the day (08:00-07:00 is
  /// 23 hours, the night included: more likely its ends swapped than meant).
  mutating func checkedWindowPlan(_ r: Reader) throws(ScenarioError) -> WindowPlan {
    let plan = try windowPlan(r)
    for w in plan.fixedWindows where w.end.minutes < w.start.minutes && w.length > Self.longestNightWindow {
      warn(
        ScenarioWarning(
          file: file, key: r.keyPath("window"),
          message: r.context
            + "the window \(w) crosses midnight and lasts \(w.length.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(w.length) / 60) hours" : "\(Int(w.length)) minutes"): prompts fall through the night; if the ends are swapped, write \(w.end)-\(w.start)"))
    }
    return plan
  }

  /// The longest window crossing midnight taken without a warning (minutes): a night shift's
  /// or an evening-to-night window; longer ones include most of the night.
  static let longestNightWindow = 16.0 * 60

  func windowPlan(_ r: Reader) throws(ScenarioError) -> WindowPlan {
    guard let v = r.raw("window") else {
      r.record("window", .scalar("08:00-22:00", nil))
      let w = try! Window(parsing: "08:00-22:00")
      return .fixed(weekday: w, weekend: w)
    }
    func window(_ s: String, _ l: ScenarioValue.Location?, key: String) throws(ScenarioError) -> Window {
      do { return try Window(parsing: s) } catch { throw r.error(key, l, error.message) }
    }
    switch v {
    case .scalar("participant", let l):
      r.record("window", .mapping([("participant", .mapping([("after_wake", .scalar("30m", nil), nil), ("before_bed", .scalar("30m", nil), nil)], nil), nil)], l))
      return .participant(afterWake: 30, beforeBed: 30)
    case .scalar(let s, let l):
      let w = try window(s, l, key: "window")
      r.record("window", .scalar(w.description, l))
      return .fixed(weekday: w, weekend: w)
    case .mapping:
      let wr = try Reader(file: r.file, path: r.keyPath("window"), node: v, context: r.context)
      if wr.has("participant") {
        let pr = try wr.section("participant")
        let after = minutes(try pr.duration("after_wake", default: 30 * Tick.minute, range: 0...(6 * Tick.hour)))
        let before = minutes(try pr.duration("before_bed", default: 30 * Tick.minute, range: 0...(6 * Tick.hour)))
        try pr.finish()
        wr.attach("participant", pr)
        try wr.finish()
        r.record("window", wr.resolvedValue)
        return .participant(afterWake: after, beforeBed: before)
      }
      let weekday = try wr.string("weekday")
      let weekend = try wr.string("weekend", default: weekday)
      try wr.finish()
      r.record("window", wr.resolvedValue)
      return .fixed(
        weekday: try window(weekday, v["weekday"]?.location, key: "window.weekday"),
        weekend: try window(weekend, v["weekend"]?.location, key: "window.weekend"))
    case .sequence(_, let l):
      throw r.error("window", l, "expected HH:MM-HH:MM, {weekday: …, weekend: …} or participant")
    }
  }

  static let parameterKeys: [ScheduleParameter: String] = [
    .algorithm: "algorithm", .window: "window", .perDay: "per_day", .endMargin: "end_margin", .minGap: "min_gap",
    .gapMethod: "gap_method", .blocks: "blocks", .times: "times", .jitter: "jitter", .fixedLag: "fixed_lag",
    .randomLag: "random_lag", .buffer: "buffer",
  ]

  /// Keys that one kind of schedule reads and the others do not, by the kind.
  static let ownKeys: [(key: String, kinds: [String])] = [
    ("end_margin", ["mappiness"]), ("min_gap", ["fixed-blocks", "event"]), ("gap_method", ["fixed-blocks"]),
    ("blocks", ["fixed-blocks"]), ("times", ["fixed-times"]), ("jitter", ["fixed-times"]), ("fixed_lag", ["chain"]),
    ("random_lag", ["chain"]), ("buffer", ["buffered-blocks"]), ("trigger", ["event"]), ("after", ["event"]),
    ("delay", ["event"]), ("delay_max", ["event"]), ("probability", ["event"]), ("max_per_day", ["event"]),
  ]

  /// Refuses a key of another kind of schedule by name (it was an "unknown key", though the
  /// reference lists it).
  func refuseOtherKindsKeys(_ s: Reader, _ r: Reader, kind: String) throws(ScenarioError) {
    let raw = r.raw("schedule")
    for (key, kinds) in Self.ownKeys where !kinds.contains(kind) && s.has(key) {
      throw s.error(key, raw?[key]?.location, "a key of \(kinds.joined(separator: " and ")) schedules; algorithm \(kind) does not read it")
    }
    if kind == "event" && s.has("per_day") {
      throw s.error("per_day", raw?["per_day"]?.location, "a key of clock schedules; an event schedule caps its prompts a day with max_per_day")
    }
    if kind == "none", let key = raw?.pairs.map(\.key).first(where: { $0 != "algorithm" }) {
      throw s.error(key, raw?[key]?.location, "algorithm none sends no signals and reads no other key")
    }
  }

  mutating func scheduleParts(_ r: Reader, window: WindowPlan, plan: StudyPlan) throws(ScenarioError) -> [SchedulePart] {
    let s = try r.section("schedule")
    let name = try s.string("algorithm", default: "mappiness")
    if name == "none" || name == "event" || AnyScheduler.Name(rawValue: name) != nil {
      try refuseOtherKindsKeys(s, r, kind: name)
    }
    if name == "none" {
      try s.finish()
      r.attach("schedule", s)
      return []
    }
    if name == "event" {
      let trigger = try eventTrigger(s, at: r.raw("schedule")?.location)
      let part = try days(s, of: SchedulePart(.events(trigger), window: window))
      try s.finish()
      r.attach("schedule", s)
      return [part]
    }
    guard let algorithm = AnyScheduler.Name(rawValue: name) else {
      throw s.error(
        "algorithm", r.raw("schedule")?["algorithm"]?.location,
        "expected one of \((AnyScheduler.Name.allCases.map(\.rawValue) + ["event", "none"]).joined(separator: ", ")), found '\(name)'")
    }
    let p = try scheduleParameters(s, algorithm)
    if let gap = p.unkeptMinGap {
      warn(
        ScenarioWarning(
          file: file, key: s.keyPath("min_gap"),
          message: s.context
            + "a minimum gap is kept only with a gap_method (\(GapMethod.keepingNames)); with none, prompts may come closer than \(String(format: "%g", gap)) minutes"))
    }
    let part = try days(s, of: SchedulePart(ScheduleChoice(algorithm, p), window: window))
    try s.finish()
    r.attach("schedule", s)
    try checkWindows(r, s, algorithm, p, window: window, plan: plan)
    return [part]
  }

  /// The schedule's parameters for its algorithm, each with its default.
  func scheduleParameters(_ s: Reader, _ algorithm: AnyScheduler.Name) throws(ScenarioError) -> ScheduleParameters {
    var p = ScheduleParameters()
    // Defaults: Mappiness 2 a day (the app's default, MacKerron 2012), ExperienceSampler's
    // chain 6, everything else 6 (the typical study of Wrzus & Neubauer's 2023
    // meta-analysis); fixed times and custom blocks count their own.
    let counted = algorithm == .fixedTimes || (algorithm == .fixedBlocks && s.has("blocks"))
    if s.has("per_day") || !counted {
      let d: Double = algorithm == .mappiness ? Double(Mappiness.defaultPerDay) : 6
      p.perDay = try s.number("per_day", default: d, range: 0...1440)
    }
    if algorithm == .mappiness {
      p.endMargin = minutes(try s.duration("end_margin", default: Tick.minutes(Mappiness.defaultEndMargin), range: 0...(12 * Tick.hour)))
    }
    if algorithm == .fixedBlocks {
      p.minGap = minutes(try s.duration("min_gap", default: 0, range: 0...(Tick.day)))
      p.gapMethod = try s.choice("gap_method", default: GapMethod.none)
      if let blocks = try s.list("blocks") {
        var out: [ClockRange] = []
        for (text, l) in blocks {
          guard let b = ClockRange(text) else { throw s.error("blocks", l, "expected HH:MM-HH:MM, found '\(text)'") }
          out.append(b)
        }
        p.blocks = out
      }
    }
    if algorithm == .fixedTimes {
      guard let times = try s.list("times") else { throw s.error("times", nil, "fixed-times needs clock times, for example [09:00, 17:00]") }
      var out: [ClockTime] = []
      for (text, l) in times {
        guard let t = ClockTime(text) else { throw s.error("times", l, "expected HH:MM, found '\(text)'") }
        out.append(t)
      }
      p.times = out
      let jitter = try s.duration("jitter", default: 0, range: 0...(12 * Tick.hour))
      guard jitter % Tick.minute == 0 else { throw s.error("jitter", nil, "the jitter is a whole number of minutes") }
      p.jitter = Int(jitter / Tick.minute)
    }
    if algorithm == .chain {
      p.fixedLag = minutes(try s.duration("fixed_lag", default: 90 * Tick.minute, range: 0...(Tick.day)))
      p.randomLag = minutes(try s.duration("random_lag", default: 30 * Tick.minute, range: 0...(Tick.day)))
    }
    if algorithm == .bufferedBlocks {
      p.buffer = try s.number("buffer", default: BufferedBlocks.defaultBuffer, range: 0...0.49)
    }
    return p
  }

  /// Checks the parameters against the windows now, naming the key at fault.
  func checkWindows(
    _ r: Reader, _ s: Reader, _ algorithm: AnyScheduler.Name, _ p: ScheduleParameters, window: WindowPlan, plan: StudyPlan
  ) throws(ScenarioError) {
    var windows: [Window] = []
    switch window {
    case .fixed(let weekday, let weekend): windows = [weekday, weekend]
    case .participant(let afterWake, let beforeBed):
      // The window of a participant with the population's usual times.
      let life = plan.dailyLife
      if let w = try? Window(
        start: Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(life.weekdayWake) + afterWake)),
        end: Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(life.weekdayBed) - beforeBed)))
      {
        windows = [w]
      }
    }
    for w in windows {
      do {
        _ = try AnyScheduler(algorithm, p, window: w)
      } catch {
        let key = Self.parameterKeys[error.parameter] ?? error.parameter.rawValue
        if error.parameter == .window {
          throw r.error("window", r.raw("window")?.location, error.message)
        }
        throw s.error(key, r.raw("schedule")?[key]?.location, error.message)
      }
    }
  }
}
