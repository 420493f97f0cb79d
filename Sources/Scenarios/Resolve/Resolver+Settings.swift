import Schedules
import SimKernel
import StudyModel

/// The `protocol` section's changes of Mappiness settings: one for everyone
/// (`settings_change`), or the participants' own (`own_settings`); and the participants'
/// own times (`own_times`).
extension ScenarioResolver {
  /// `settings_change`: the participant changes their Mappiness hours and signals a day
  /// once, mid-study.
  func settingsChange(_ r: Reader, parts: [SchedulePart], days: Int) throws(ScenarioError) -> SettingsChange? {
    guard r.has("settings_change") else { return nil }
    let c = try r.section("settings_change")
    guard parts.count == 1, parts[0].choice?.algorithm == .mappiness else {
      throw r.error("settings_change", r.raw("settings_change")?.location, "a settings change follows Mappiness' pro-rata rule: the schedule must be mappiness")
    }
    let day = try c.integer("day", default: 2, range: 1...max(days, 1))
    let at = try c.clock("at", default: ClockTime(minutes: 12 * 60))
    let windowText = try c.string("window")
    guard let window = try? Window(parsing: windowText) else {
      throw c.error("window", r.raw("settings_change")?["window"]?.location, "expected HH:MM-HH:MM, found '\(windowText)'")
    }
    let perDay = try c.integer("per_day", default: Int(parts[0].choice?.parameters.perDay ?? 2), range: 1...5)
    do throws(ScheduleError) {
      try Mappiness(perDay: perDay).validate(for: window)
    } catch {
      throw c.error(error.parameter == .perDay ? "per_day" : "window", r.raw("settings_change")?.location, error.message)
    }
    try c.finish()
    r.attach("settings_change", c)
    return SettingsChange(day: day - 1, timeOfDay: Tick.minutes(at.minutes), window: window, perDay: perDay)
  }

  /// `own_settings`: a share of participants change their Mappiness settings on their own.
  func ownSettings(_ r: Reader, parts: [SchedulePart]) throws(ScenarioError) -> OwnSettingsChanges? {
    guard r.has("own_settings") else { return nil }
    let c = try r.section("own_settings")
    guard parts.count == 1, parts[0].choice?.algorithm == .mappiness else {
      throw r.error("own_settings", r.raw("own_settings")?.location, "participants change Mappiness settings: the schedule must be mappiness")
    }
    if r.has("settings_change") {
      throw r.error("own_settings", r.raw("own_settings")?.location, "give settings_change (one change for everyone) or own_settings, not both")
    }
    let share = try c.share("share", default: 0.2)
    let sd = try c.duration("hours_sd", default: Tick.hour, range: 0...(6 * Tick.hour))
    try c.finish()
    r.attach("own_settings", c)
    return OwnSettingsChanges(share: share, hoursSD: sd)
  }

  /// `own_times`: a share of participants move the whole schedule by an amount of their own.
  func ownTimes(_ r: Reader) throws(ScenarioError) -> OwnTimes? {
    guard r.has("own_times") else { return nil }
    let c = try r.section("own_times")
    for other in ["settings_change", "own_settings"] where r.has(other) {
      throw r.error("own_times", r.raw("own_times")?.location, "give \(other) (Mappiness' hours changed mid-study) or own_times, not both")
    }
    let share = try c.share("share", default: 1)
    let earlier = try c.duration("earlier", default: 0, range: 0...(12 * Tick.hour))
    let later = try c.duration("later", default: 0, range: 0...(12 * Tick.hour))
    guard earlier + later >= Tick.minute else {
      throw r.error("own_times", r.raw("own_times")?.location, "own_times moves nobody: give earlier or later (at least one minute between them)")
    }
    try c.finish()
    r.attach("own_times", c)
    return OwnTimes(share: share, earlier: earlier, later: later)
  }
}
