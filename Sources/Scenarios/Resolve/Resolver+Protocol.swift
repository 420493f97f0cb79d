import Foundation
import Schedules
import SimKernel
import StudyModel

/// The `protocol` section: schedule, window, channel, expiry, reminders, pushes, upload, and
/// imported AWARE, ESMira, PACO or Beiwe protocols (window and schedule: `Resolver+Schedule.swift`; sensors and
/// questionnaire: `Resolver+Sensing.swift`;
/// Mappiness settings changes: `Resolver+Settings.swift`).
extension ScenarioResolver {
  mutating func protocolSection(_ r: Reader, into plan: inout StudyPlan) throws(ScenarioError) {
    var p = plan.protocolPlan
    // A preset's keys are already in the tree (ProtocolPresets.expand); its name is recorded.
    if let (name, at) = try r.scalar("preset") { r.record("preset", .scalar(name, at)) }
    let imported = try importedProtocol(r, plan: plan)
    if let imported {
      p.schedules = imported.parts
      p.survey = imported.survey
      for w in imported.warnings { warn(w) }
      // The imported schedules keep their own hours: no window is recorded (`esmsim show`
      // would print one that is not used), and one given is said to be unused.
      if r.has("window") {
        warn(
          ScenarioWarning(
            file: file, key: r.keyPath("window"),
            message: r.context + "an imported protocol's schedules keep their own hours: the window is not used"))
        _ = r.raw("window")
      }
    } else if r.has("questionnaires") {
      p.schedules = try questionnaires(r, window: try checkedWindowPlan(r), plan: plan)
    } else {
      p.schedules = try scheduleParts(r, window: try checkedWindowPlan(r), plan: plan)
    }
    let defaultChannel: (String, ChannelPlan) =
      imported.map { ($0.channelPreset, ChannelPlan.preset($0.channelPreset)!) } ?? ("ios_local", .iosLocal)
    p.channel = try channel(r, default: defaultChannel)
    p.serverZone = try serverZone(r, plan: plan, imported: imported?.serverTimeZone)
    // Said only for a zone other than the default (`esmsim show` writes the default out).
    if r.has("server_time_zone") && p.channel.kind == .local
      && p.serverZone.name != (imported?.serverTimeZone ?? plan.timeZones[0].zone.name)
    {
      warn(
        ScenarioWarning(
          file: file, key: r.keyPath("server_time_zone"),
          message: r.context + "local notifications fire by the phone's clock: the server's time zone changes nothing"))
    }
    // An expiry or reminders given in the scenario apply to every schedule, imported ones too;
    // otherwise each imported schedule keeps the file's, which `esmsim show` writes as
    // `imported` (so that its output, and a variant's, reads back to the file's own).
    let ownExpiry = try given("expiry", r, imported: imported != nil)
    p.expiry = ownExpiry || imported == nil ? try expiry(r, default: .standard) : imported!.expiry
    let ownReminders = try given("reminders", r, imported: imported != nil)
    p.reminders = ownReminders || imported == nil ? try reminders(r, default: Reminders()) : imported!.reminders
    if imported != nil {
      for k in p.schedules.indices {
        if ownExpiry { p.schedules[k].expiry = nil }
        if ownReminders { p.schedules[k].reminders = nil }
      }
      if !ownExpiry { r.record("expiry", .scalar("imported", nil)) }
      if !ownReminders { r.record("reminders", .scalar("imported", nil)) }
    }
    try appAndStudyKeys(r, into: &p)
    p.settingsChange = try settingsChange(r, parts: p.schedules, days: plan.days)
    p.ownSettingsChanges = try ownSettings(r, parts: p.schedules)
    p.ownTimes = try ownTimes(r)
    warnRemindersPastExpiry(r, p, own: ownReminders, imported: imported != nil)
    p.sensors = try sensors(r)
    if imported == nil && !r.has("questionnaires") {
      let survey = try r.section("survey")
      p.survey = try surveyPlan(survey)
      try survey.finish()
      r.attach("survey", survey)
    }
    plan.protocolPlan = p
  }

  /// How the app runs and what the study asks of it: silent pushes, the participant's own
  /// openings, alarms, the app's design, the answers' target, volunteered answers, upload,
  /// distribution and the build's age.
  mutating func appAndStudyKeys(_ r: Reader, into p: inout ProtocolPlan) throws(ScenarioError) {
    p.silentPushEvery = try optionalDuration(r, "silent_push", range: Tick.minute...(Tick.day))
    p.appOpensPerDay = try r.number("app_opens_per_day", default: 0, range: 0...100)
    p.alarm = try r.bool("alarm", default: false)
    let design = AppDesign()
    p.appDesign.kind = try r.choice("app_design", default: design.kind)
    p.appDesign.every = try r.duration("wake_every", default: design.every, range: (15 * Tick.minute)...Tick.day)
    p.appDesign.exactAlarms = try r.bool("exact_alarms", default: design.exactAlarms)
    p.appDesign.pushPriority = try r.choice("push_priority", default: design.pushPriority)
    p.answersTarget = try r.integer("answers_target", default: ProtocolPlan.defaultAnswersTarget, range: 1...1_000_000)
    p.volunteered = try r.bool("volunteered", default: false)
    p.upload = try r.choice("upload", default: UploadPolicy.wifiWhileCharging)
    p.distribution = try r.choice("distribution", default: Distribution.appStore)
    p.buildAgeDays = try r.integer("build_age_days", default: 0, range: 0...3650)
    if r.has("build_age_days") && p.buildAgeDays != 0 && p.distribution.buildLifeDays == nil {
      warn(
        ScenarioWarning(
          file: file, key: r.keyPath("build_age_days"),
          message: r.context + "a \(p.distribution.rawValue) build does not expire: its age changes nothing"))
    }
  }

  /// The protocol of the file an import key names (`aware_schedule`, with `aware_schedule_id`
  /// to pick one of its schedules; `esmira_study`; `paco_experiment`; `beiwe_study`), or nil
  /// without one; two import keys, or one beside a schedule or questionnaires, are refused.
  mutating func importedProtocol(_ r: Reader, plan: StudyPlan) throws(ScenarioError) -> ImportedProtocol? {
    let importKeys = ["aware_schedule", "esmira_study", "paco_experiment", "beiwe_study"].filter { r.has($0) }
    if importKeys.count > 1 {
      throw r.error(
        importKeys[1], nil,
        "give one of aware_schedule, esmira_study, paco_experiment and beiwe_study, not \(importKeys.joined(separator: " and "))")
    }
    if let key = importKeys.first, r.has("schedule") {
      throw r.error("schedule", nil, "the imported file (\(key)) is the schedule; remove schedule")
    }
    if let key = importKeys.first, r.has("survey") {
      throw r.error("survey", r.raw("survey")?.location, "the imported file (\(key)) gives the questionnaires and their items; remove survey")
    }
    if r.has("questionnaires") {
      for key in ["schedule", "survey"] + importKeys where r.has(key) {
        throw r.error(key, r.raw(key)?.location, "with questionnaires, each questionnaire has its own schedule and survey; move \(key) into them")
      }
    }
    guard let key = importKeys.first, let (file, at) = try r.scalar(key) else { return nil }
    r.record(key, .scalar(file, at))
    let (data, path) = try importedFile(file, key: r.keyPath(key), at: at)
    imports[file] = SHA256.hex(Array(data))
    let imported = try Self.read(key, data: data, path: path, file: file, reader: r, startDate: startDate, days: plan.days)
    guard imported.parts.count <= ScenarioLimits.schedules else {
      throw r.error(
        key, at,
        "\(file) holds \(imported.parts.count) schedules (signal times, groups or surveys); esmsim simulates at most \(ScenarioLimits.schedules) in one protocol")
    }
    // The busiest study day's clock signals, over the schedules that run on it (a Beiwe
    // survey's weekly timings are a schedule per weekday: not added up over the week).
    let signals = imported.parts.map { part -> Double in
      guard let c = part.choice else { return 0 }
      return c.parameters.times.map { Double($0.count) } ?? c.parameters.perDay ?? 0
    }
    let busiest = (0..<plan.days).map { d in
      zip(imported.parts, signals).filter { $0.0.isActive(day: d, weekday: plan.weekday(ofDay: d)) }.map(\.1).reduce(0, +)
    }.max() ?? 0
    guard busiest <= Double(ScenarioLimits.signalsPerDay) else {
      throw r.error(
        key, at, "\(file) gives \(Units.format(busiest)) clock signals on its busiest day; esmsim simulates at most \(ScenarioLimits.signalsPerDay) a day (one a minute)")
    }
    return imported
  }

  /// Reads the imported file `data` of import key `key`.
  static func read(
    _ key: String, data: Data, path: String, file: String, reader r: Reader, startDate: CalendarDate, days: Int
  ) throws(ScenarioError) -> ImportedProtocol {
    switch key {
    case "aware_schedule":
      var imported = try AWAREScheduleImport.load(data: data, file: path, startDate: startDate, days: days)
      if let (wanted, l) = try r.scalar("aware_schedule_id") {
        guard let i = imported.alternatives.firstIndex(of: wanted) else {
          throw r.error("aware_schedule_id", l, "no schedule '\(wanted)' in \(file) (it has \(imported.alternatives.joined(separator: ", ")))")
        }
        imported = try AWAREScheduleImport.load(data: data, file: path, startDate: startDate, days: days, pick: i)
        r.record("aware_schedule_id", .scalar(wanted, l))
      }
      return imported
    case "esmira_study":
      // Times participants may edit (ESMira's userEditable) are simulated when the scenario says
      // how many move them and how far (own_times): the importer then does not warn about them.
      return try ESMiraStudyImport.load(data: data, file: path, startDate: startDate, days: days, timesMoved: r.has("own_times"))
    case "paco_experiment": return try PACOExperimentImport.load(data: data, file: path, startDate: startDate, days: days)
    default: return try BeiweStudyImport.load(data: data, file: path, startDate: startDate, days: days)
    }
  }

  /// Reminders (`count`, `interval`) of a section, `d` where it leaves them out.
  func reminders(_ r: Reader, default d: Reminders) throws(ScenarioError) -> Reminders {
    let rem = try r.section("reminders")
    let out = Reminders(
      count: try rem.integer("count", default: d.count, range: 0...20),
      interval: try rem.duration("interval", default: d.interval, range: Tick.minute...(Tick.day)))
    try rem.finish()
    r.attach("reminders", rem)
    return out
  }

  /// Warns about reminders the scenario gives (`reminders`, `own`; a questionnaire's, where the
  /// protocol is not imported) that come at or after their prompt's expiry: they are never sent
  /// (a prompt that has expired is not recalled).
  mutating func warnRemindersPastExpiry(_ r: Reader, _ p: ProtocolPlan, own: Bool, imported: Bool) {
    for (k, part) in p.schedules.enumerated() where (part.reminders != nil && !imported) || own {
      let reminders = part.reminders ?? p.reminders
      guard reminders.count > 0, case .after(let expiry) = part.expiry ?? p.expiry else { continue }
      let sent = (1...reminders.count).filter { SimTime($0) * reminders.interval < expiry }.count
      guard sent < reminders.count else { continue }
      let key = part.reminders != nil ? "questionnaires[\(k)].reminders" : "reminders"
      let minutes = { (t: SimTime) in String(format: "%g min", Double(t) / Double(Tick.minute)) }
      warn(
        ScenarioWarning(
          file: file, key: r.keyPath(key),
          message: r.context
            + "\(reminders.count - sent) of \(reminders.count) reminders, \(minutes(reminders.interval)) apart, come at or after the prompt's expiry (\(minutes(expiry))): they are never sent"))
    }
  }

  /// Records a warning once.
  mutating func warn(_ w: ScenarioWarning) {
    if !warnings.contains(w) { warnings.append(w) }
  }

  /// The bytes of the file an import key names, and the name errors give it: read from disk
  /// relative to the scenario file's folder, or, for a scenario sent to `esmsim serve`, only
  /// from the files uploaded with it (never from the server's disk).
  func importedFile(_ name: String, key: String, at: ScenarioValue.Location?) throws(ScenarioError) -> (Data, String) {
    guard let uploads else {
      // A file that cannot be read is located at the key that names it, in the scenario.
      do {
        return (try ScenarioLoader.contents(path: relative(name, at: at)), relative(name, at: at))
      } catch {
        throw ScenarioError(file: file, key: key, at: at, "\(relative(name, at: at)): \(error.message)")
      }
    }
    guard let data = uploads[name] else {
      let have = uploads.keys.sorted().joined(separator: ", ")
      throw ScenarioError(
        file: file, key: key, at: at,
        "no uploaded file named '\(name)'\(have.isEmpty ? "; upload it with the scenario" : " (uploaded: \(have))")")
    }
    return (data, name)
  }

  /// A path in the scenario relative to the scenario file's folder; one given on the command
  /// line (`at` is ``ScenarioValue/Location/commandLine``) as typed, from the working directory.
  func relative(_ path: String, at: ScenarioValue.Location? = nil) -> String {
    if path.hasPrefix("/") || at == .commandLine { return path }
    let dir = (file as NSString).deletingLastPathComponent
    return dir.isEmpty ? path : (dir as NSString).appendingPathComponent(path)
  }

  // MARK: Channel, expiry

  func channel(_ r: Reader, default d: (String, ChannelPlan)) throws(ScenarioError) -> ChannelPlan {
    guard let v = r.raw("channel") else {
      r.record("channel", .scalar(d.0, nil))
      return d.1
    }
    if case .scalar(let name, let l) = v {
      guard let c = ChannelPlan.preset(name) else {
        throw r.error("channel", l, "expected one of \(ChannelPlan.presetNames.joined(separator: ", ")), or a mapping")
      }
      r.record("channel", .scalar(name, l))
      return c
    }
    let cr = try Reader(file: r.file, path: r.keyPath("channel"), node: v, context: r.context)
    let presetName = try cr.string("preset", default: d.0)
    guard var c = ChannelPlan.preset(presetName) else {
      throw cr.error("preset", v["preset"]?.location, "expected one of \(ChannelPlan.presetNames.joined(separator: ", "))")
    }
    if c.kind == .local {
      c.cap = try cr.integer("cap", default: c.cap, range: 1...10_000)
      if cr.has("cap_per_schedule") || c.perScheduleCap != nil {
        c.perScheduleCap = try cr.integer("cap_per_schedule", default: c.perScheduleCap ?? c.cap, range: 1...10_000)
      }
      // The preset's own keys are read (and so shown, `esmsim show`) whether or not the file
      // gives them; those it lacks only when given.
      if cr.has("horizon_days") || c.horizonDays != nil {
        c.horizonDays = try cr.integer("horizon_days", default: c.horizonDays ?? 7, range: 1...3650)
      }
      if cr.has("repetitions") || c.repetitions != nil {
        c.repetitions = try cr.integer("repetitions", default: c.repetitions ?? 4, range: 1...365)
      }
      c.refillInBackground = try cr.bool("refill_in_background", default: c.refillInBackground)
      if cr.has("background_task") || c.backgroundTaskEvery != nil {
        c.backgroundTaskEvery = try cr.duration("background_task", default: c.backgroundTaskEvery ?? 12 * Tick.hour, range: Tick.minute...(30 * Tick.day))
      }
      if c.backgroundTaskEvery != nil {
        c.backgroundTaskSuccess = try cr.share("background_task_success", default: c.backgroundTaskSuccess)
      } else if cr.has("background_task_success") {
        throw cr.error(
          "background_task_success", v["background_task_success"]?.location,
          "the \(presetName) channel runs no background task; give background_task too, or leave this out")
      }
    } else {
      c.serverTick = try cr.duration("server_tick", default: c.serverTick, range: 0...(Tick.hour))
      c.latency = try cr.duration("latency", default: c.latency, range: 0...(Tick.hour))
      c.latencySigma = try cr.number("latency_sigma", default: c.latencySigma, range: 0...5)
      c.storeFor = try cr.duration("store", default: c.storeFor, range: 0...(30 * Tick.day))
    }
    try cr.finish()
    r.record("channel", cr.resolvedValue)
    return c
  }

  /// Whether the scenario gives `key` (`expiry`, `reminders`) of its own: not when it is
  /// `imported` (the imported file's own, as `esmsim show` writes it), which needs an import key.
  func given(_ key: String, _ r: Reader, imported: Bool) throws(ScenarioError) -> Bool {
    guard let v = r.raw(key) else { return false }
    guard case .scalar("imported", let l) = v else { return true }
    guard imported else {
      throw r.error(key, l, "'imported' (each schedule's own) needs an imported protocol file (aware_schedule, esmira_study, paco_experiment or beiwe_study)")
    }
    return false
  }

  func expiry(_ r: Reader, default d: ExpiryPolicy) throws(ScenarioError) -> ExpiryPolicy {
    guard let (s, l) = try r.scalar("expiry") else {
      switch d {
      case .after(let t): r.record("expiry", .scalar(Units.formatDuration(t), nil))
      case .untilNextSignal: r.record("expiry", .scalar("until_next", nil))
      case .never: r.record("expiry", .scalar("never", nil))
      }
      return d
    }
    r.record("expiry", .scalar(s, l))
    switch s {
    case "until_next": return .untilNextSignal
    case "never": return .never
    default:
      guard let t = Units.duration(s), t >= Tick.minute, t <= 30 * Tick.day else {
        throw r.error("expiry", l, "expected a duration (1m to 30d), until_next or never, found '\(s)'")
      }
      return .after(t)
    }
  }

  func optionalDuration(_ r: Reader, _ key: String, range: ClosedRange<SimTime>) throws(ScenarioError) -> SimTime? {
    guard let (s, l) = try r.scalar(key) else {
      r.record(key, .scalar("none", nil))
      return nil
    }
    r.record(key, .scalar(s, l))
    if s == "none" { return nil }
    guard let t = Units.duration(s), range.contains(t) else {
      throw r.error(key, l, "expected none or a duration between \(Units.formatDuration(range.lowerBound)) and \(Units.formatDuration(range.upperBound)), found '\(s)'")
    }
    return t
  }
}
