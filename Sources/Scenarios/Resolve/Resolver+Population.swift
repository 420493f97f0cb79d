import Schedules
import SimKernel
import StudyModel

/// The `population` section: who takes part, their phones, days and compliance.
extension ScenarioResolver {
  static let deviceNames = DeviceProfile.builtIn.map(\.name)

  func population(_ r: Reader, into plan: inout StudyPlan) throws(ScenarioError) {
    plan.participants = try r.integer("size", default: 100, range: 1...10_000_000)
    var profiles = DeviceProfile.builtIn
    let custom = try r.section("device_profiles")
    // Every profile is shown, defaults included: a variant read back from `esmsim show` then
    // has its own profiles and does not take the scenario's (a phones preset's) in their place.
    for (i, base) in profiles.enumerated() {
      let section = try custom.section(base.name)
      profiles[i] = try deviceProfile(section, base: base)
      custom.attach(base.name, section)
    }
    try custom.finish()
    r.attach("device_profiles", custom)
    let devices = try r.shares("devices", names: Self.deviceNames, default: [("non_controlled", 1)])
    plan.devices = devices.map { name, share in (profiles.first { $0.name == name }!, share) }
    let systems = try r.shares("os", names: OperatingSystem.allCases.map(\.rawValue), default: [("ios", 1)])
    plan.systems = systems.map { (OperatingSystem(rawValue: $0.0)!, $0.1) }
    plan.enrolmentDays = try r.integer("enrolment_days", default: 1, range: 1...366)
    // The zones' changes over every participant's days, the last joiner's included.
    plan.timeZones = try timeZones(r, days: plan.days + plan.enrolmentDays - 1)
    // A preset's keys are already in the tree (Presets.expand); its name is recorded.
    if let (name, at) = try r.scalar("preset") { r.record("preset", .scalar(name, at)) }
    let phones = try r.section("phones")
    plan.phones = try phonePopulation(phones)
    try phones.finish()
    r.attach("phones", phones)

    let life = try r.section("daily_life")
    try dailyLife(life, into: &plan.dailyLife)
    try life.finish()
    r.attach("daily_life", life)

    let state = try r.section("state")
    let s = StatePlan()
    plan.dailyLife.state.personSD = try state.number("person_sd", default: s.personSD, range: 0...100)
    plan.dailyLife.state.sd = try state.number("sd", default: s.sd, range: 0.001...100)
    plan.dailyLife.state.reversion = try state.duration("reversion", default: s.reversion, range: Tick.minute...(30 * Tick.day))
    plan.dailyLife.state.reportNoise = try state.number("report_noise", default: s.reportNoise, range: 0...100)
    let company = try state.section("company")
    plan.dailyLife.state.company = CompanyPlan(
      share: try company.share("share", default: s.company.share),
      slope: try company.number("slope", default: s.company.slope, range: -100...100),
      slopeSD: try company.number("slope_sd", default: s.company.slopeSD, range: 0...100))
    try company.finish()
    state.attach("company", company)
    try state.finish()
    r.attach("state", state)

    let c = try r.section("compliance")
    try compliance(c, into: &plan.compliance)
    try c.finish()
    r.attach("compliance", c)
  }

  func deviceProfile(_ r: Reader, base: DeviceProfile) throws(ScenarioError) -> DeviceProfile {
    var p = base
    p.suspendPerHour = try r.number("suspend_per_hour", default: base.suspendPerHour, range: 0...100)
    p.suspendAfter = try r.duration("suspend_after", default: base.suspendAfter, range: 0...(30 * Tick.day))
    p.killPerHour = try r.number("kill_per_hour", default: base.killPerHour, range: 0...100)
    p.wakeRestoresAnchor = try r.bool("wake_restores_collection", default: base.wakeRestoresAnchor)
    p.lowPowerMode = try r.bool("low_power_mode", default: base.lowPowerMode)
    p.silentPushWake = try r.share("silent_push_wake", default: base.silentPushWake)
    p.silentPushWakeLowPower = try r.share("silent_push_wake_low_power", default: base.silentPushWakeLowPower)
    p.significantChangeWake = try r.bool("location_change_wake", default: base.significantChangeWake)
    p.backgroundRefreshPerDay = try r.number("background_refresh_per_day", default: base.backgroundRefreshPerDay, range: 0...1000)
    p.forceQuitPerDay = try r.number("force_quit_per_day", default: base.forceQuitPerDay, range: 0...100)
    p.rebootPerDay = try r.number("reboot_per_day", default: base.rebootPerDay, range: 0...1)
    p.drainAwake = try r.number("battery_drain_awake", default: base.drainAwake, range: 0...100)
    p.drainAsleep = try r.number("battery_drain_asleep", default: base.drainAsleep, range: 0...100)
    p.drainApp = try r.number("battery_drain_app", default: base.drainApp, range: 0...100)
    p.chargeNightly = try r.share("charge_nightly", default: base.chargeNightly)
    p.chargeWhenLow = try r.share("charge_when_low", default: base.chargeWhenLow)
    p.lowPowerAccept = try r.share("low_power_accept", default: base.lowPowerAccept)
    try r.finish()
    return p
  }

  /// `population.phones`: how participants' own phones differ (``PhonePopulation``).
  func phonePopulation(_ r: Reader) throws(ScenarioError) -> PhonePopulation {
    var p = PhonePopulation()
    // Shares by name, returned in the order of `names` (0 for a name not given).
    func shares(_ key: String, _ names: [String], _ d: [Double]) throws(ScenarioError) -> [Double] {
      let given = try r.shares(key, names: names, default: zip(names, d).filter { $0.1 > 0 }.map { ($0.0, $0.1) })
      return names.map { n in given.first { $0.0 == n }?.1 ?? 0 }
    }
    p.iosLocation = try shares("ios_location", LocationPermission.names, p.iosLocation)
    p.androidLocation = try shares("android_location", LocationPermission.names, p.androidLocation)
    p.backgroundRefreshOff = try r.share("background_refresh_off", default: p.backgroundRefreshOff)
    p.lowPowerHabit = try r.share("low_power_habit", default: p.lowPowerHabit)
    p.forceQuitters = try r.share("force_quitters", default: p.forceQuitters)
    p.forceQuitterPerDay = try r.number("force_quits_per_day", default: p.forceQuitterPerDay, range: 0...100)
    p.appRemovalPerDay = try r.share("app_removal_per_day", default: p.appRemovalPerDay)
    let makers = try r.shares("manufacturers", names: Manufacturer.builtIn.map(\.name), default: [("stock", 1)])
    p.manufacturers = makers.map { name, share in (Manufacturer.builtIn.first { $0.name == name }!, share) }
    p.exactAlarms = try r.share("exact_alarms", default: p.exactAlarms)
    p.doze = try r.bool("doze", default: p.doze)
    p.unusedAppsSleep = try r.bool("unused_apps_sleep", default: p.unusedAppsSleep)
    p.ringer = try shares("ringer", RingerMode.names, p.ringer)
    let off = try r.section("notifications_off")
    p.notificationsOffShare = try off.share("share", default: p.notificationsOffShare)
    p.notificationsOffAfterDays = try off.number("after_days", default: p.notificationsOffAfterDays, range: 0...3650)
    try off.finish()
    r.attach("notifications_off", off)
    p.smallStorageShare = try r.share("small_storage", default: p.smallStorageShare)
    let focus = try r.section("focus")
    p.focusShare = try focus.share("share", default: p.focusShare)
    let hours = try focus.string("hours", default: p.focusHours.description, maxLength: 11)
    do { p.focusHours = try Window(parsing: hours) } catch {
      throw focus.error("hours", focus.raw("hours")?.location, error.message + " (22:00-07:00 runs across midnight)")
    }
    try focus.finish()
    r.attach("focus", focus)
    return p
  }

  func dailyLife(_ r: Reader, into life: inout DailyLifePlan) throws(ScenarioError) {
    let d = DailyLifePlan()
    life.weekdayWake = Tick.minutes(try r.clock("weekday_wake", default: ClockTime(minutes: Tick.inMinutes(d.weekdayWake))).minutes)
    var bed = Tick.minutes(try r.clock("weekday_bed", default: ClockTime(minutes: Tick.inMinutes(d.weekdayBed))).minutes)
    if bed < life.weekdayWake { bed += Tick.day }  // a bedtime after midnight
    life.weekdayBed = bed
    life.weekendShift = try r.duration("weekend_shift", default: d.weekendShift, range: 0...(6 * Tick.hour))
    life.personSD = try r.duration("person_sd", default: d.personSD, range: 0...(4 * Tick.hour))
    life.daySD = try r.duration("day_sd", default: d.daySD, range: 0...(4 * Tick.hour))
    life.worksOutside = try r.share("works_outside", default: d.worksOutside)
    life.transitShare = try r.share("transit_share", default: d.transitShare)
    life.undergroundShare = try r.share("underground_share", default: d.undergroundShare)
    life.deadZoneShare = try r.share("dead_zone_share", default: d.deadZoneShare)
    life.commute = try r.duration("commute", default: d.commute, range: Tick.minute...(4 * Tick.hour))
    life.callsPerDay = try r.number("calls_per_day", default: d.callsPerDay, range: 0...100)
    // Each day's wake is held to 03:00–14:00 and its waking day to 10–21 hours
    // (``DailyLife``): a setting outside them would not be simulated as written.
    if life.weekdayWake < 3 * Tick.hour || life.weekdayWake > 14 * Tick.hour {
      throw r.error("weekday_wake", nil, "a wake between 03:00 and 14:00 (each simulated day's wake is held to these hours)")
    }
    if life.weekdayBed - life.weekdayWake < 10 * Tick.hour {
      throw r.error("weekday_bed", nil, "the waking day from weekday_wake to weekday_bed must last at least 10 hours")
    }
    if life.weekdayBed - life.weekdayWake > 21 * Tick.hour {
      throw r.error("weekday_bed", nil, "the waking day from weekday_wake to weekday_bed must last at most 21 hours")
    }
    let contexts = try r.section("contexts")
    for c in Context.allCases {
      let cr = try contexts.section(c.description)
      let base = d.conditions[c.rawValue]
      var v = base
      // Asleep, nothing is noticed or answered (the first look comes after waking:
      // ``Noticing``); underground, no network reaches the phone (``DailyLife``). Keys that
      // would change nothing there are refused by name, and `esmsim show` leaves them out.
      if c == .asleep {
        for key in ["phone_at_hand", "hearing", "can_answer", "willingness"] where cr.has(key) {
          throw cr.error(key, cr.raw(key)?.location, "does not apply asleep: a sleeper notices and answers nothing (the first look at the phone comes after waking); asleep takes wifi and state_mean")
        }
      } else {
        v.phoneWithParticipant = try cr.share("phone_at_hand", default: base.phoneWithParticipant)
        v.hearing = try cr.share("hearing", default: base.hearing)
        v.canAnswer = try cr.bool("can_answer", default: base.canAnswer)
        v.willingness = try cr.number("willingness", default: base.willingness, range: 0...100)
      }
      if c == .underground {
        if cr.has("wifi") {
          throw cr.error("wifi", cr.raw("wifi")?.location, "does not apply underground: no network reaches the phone there")
        }
      } else {
        v.wifi = try cr.share("wifi", default: base.wifi)
      }
      v.stateMean = try cr.number("state_mean", default: base.stateMean, range: -1000...1000)
      try cr.finish()
      contexts.attach(c.description, cr)
      life.conditions[c.rawValue] = v
    }
    try contexts.finish()
    r.attach("contexts", contexts)
  }

  /// Keys of earlier esmsim versions, with what replaces them.
  static let renamedComplianceKeys: [(String, String)] = [
    ("person_sd", "the classes' spread (the sd of the log-odds of willingness)"),
    ("decline_per_week", "the classes' weekly_change (log-odds per week, either sign)"),
    ("decline_sd", "the classes' weekly_change_sd"),
    ("decline_per_day", "first_days_change (log-odds, either sign)"), ("decline_limit", "first_days_change"),
    ("open_delay", "at_once, busy and deferral_shape (how a willing person opens a prompt)"),
    ("open_delay_sigma", "at_once_sd, busy_sd and deferral_shape"), ("speed_sd", "at_once_sd and busy_sd"),
    ("hour_multipliers", "hour_odds (odds ratios by hour of day)"),
  ]

  func compliance(_ r: Reader, into c: inout CompliancePlan) throws(ScenarioError) {
    let d = CompliancePlan()
    // A preset's keys are already in (PeoplePresets): its name stays, for the record.
    if let (name, at) = try r.scalar("preset") { r.record("preset", .scalar(name, at)) }
    for (old, new) in Self.renamedComplianceKeys where r.has(old) {
      throw r.error(old, r.raw(old)?.location, "replaced in esmsim 0.2 by \(new) (docs/scenario-reference.md; esmsim calibrate writes the new keys)")
    }
    // The population's willingness: its classes, moved to a mean by answer_probability.
    if r.has("classes") {
      c.classes = try complianceClasses(r)
    } else {
      r.record("classes", .sequence(d.classes.map(Self.classValue), nil))
    }
    if r.has("answer_probability") {
      c.answerProbability = try r.number("answer_probability", default: 0.9, range: 0.0001...0.9999)
    }
    c.firstDaysChange = try r.number("first_days_change", default: d.firstDaysChange, range: -10...10)
    c.firstDaysSD = try r.number("first_days_sd", default: d.firstDaysSD, range: 0...10)
    c.firstDaysScale = try r.number("first_days_scale", default: d.firstDaysScale, range: 0...60)
    c.firstDaysOnset = try r.number("first_days_onset", default: d.firstDaysOnset, range: 0...60)
    c.stateCorrelation = try r.number("state_correlation", default: d.stateCorrelation, range: -0.95...0.95)
    try compliancePace(r, into: &c, defaults: d)
    c.secondsPerItem = try r.number("seconds_per_item", default: d.secondsPerItem, range: 0...600)
    c.lengthEffect = try r.number("length_effect", default: d.lengthEffect, range: 0...5)
    c.densityEffect = try r.number("density_effect", default: d.densityEffect, range: 0...5)
    c.densityWindow = try r.duration("density_window", default: d.densityWindow, range: Tick.minute...(Tick.day))
    c.scheduledBoost = try r.number("scheduled_boost", default: d.scheduledBoost, range: 0.01...100)
    if let odds = try hourOdds(r, default: d.hourOdds) { c.hourOdds = odds }
    c.missPersistence = try r.share("miss_persistence", default: d.missPersistence)
    c.stateDependence = try r.number("state_dependence", default: d.stateDependence, range: -5...5)
    c.dismissShare = try r.share("dismiss_share", default: d.dismissShare)
    c.completion = try r.duration("completion", default: d.completion, range: Tick.second...(Tick.day))
    c.completionSigma = try r.number("completion_sigma", default: d.completionSigma, range: 0...5)
    c.dropoutPerDay = try r.share("dropout_per_day", default: d.dropoutPerDay)
    if r.has("charge_nightly") { c.chargeNightly = try r.share("charge_nightly", default: 0.95) }
    c.volunteeredPerDay = try r.number("volunteered_per_day", default: d.volunteeredPerDay, range: 0...100)
  }

  /// How a willing person notices, opens and answers (and breaks off): looks, alerts, opening
  /// at once, busy stretches, "when convenient", break-offs.
  func compliancePace(_ r: Reader, into c: inout CompliancePlan, defaults d: CompliancePlan) throws(ScenarioError) {
    c.looksPerHour = try r.number("looks_per_hour", default: d.looksPerHour, range: 0.01...600)
    c.looksSD = try r.number("looks_sd", default: d.looksSD, range: 0...5)
    c.looksAway = try r.share("looks_away", default: d.looksAway)
    c.alertOdds = try r.number("alert_odds", default: d.alertOdds, range: 0.001...1000)
    c.alertWindowExponent = try r.number("alert_window_exponent", default: d.alertWindowExponent, range: 0...3)
    c.atOnce = try r.share("at_once", default: d.atOnce)
    c.atOnceWeeklyChange = try r.number("at_once_weekly_change", default: d.atOnceWeeklyChange, range: -5...5)
    c.atOnceSD = try r.number("at_once_sd", default: d.atOnceSD, range: 0...10)
    c.busy = try r.share("busy", default: d.busy)
    c.busySD = try r.number("busy_sd", default: d.busySD, range: 0...10)
    c.busyMinutes = try r.number("busy_minutes", default: d.busyMinutes, range: 0.1...1440)
    c.deferralShape = try r.number("deferral_shape", default: d.deferralShape, range: 0.01...1000)
    c.deferralHorizon = try r.number("deferral_horizon", default: d.deferralHorizon, range: 1...10_080)
    c.atOnceSeconds = try r.number("at_once_seconds", default: d.atOnceSeconds, range: 0...3600)
    c.atOnceSigma = try r.number("at_once_sigma", default: d.atOnceSigma, range: 0...5)
    c.reactionSeconds = try r.number("reaction_seconds", default: d.reactionSeconds, range: 0.1...3600)
    c.breakOffPerMinute = try r.number("break_off_per_minute", default: d.breakOffPerMinute, range: 0...10)
    c.breakOffSD = try r.number("break_off_sd", default: d.breakOffSD, range: 0...5)
  }

  /// `hour_odds`: 24 odds ratios, one per hour of the day (nil when absent: the defaults are
  /// recorded).
  func hourOdds(_ r: Reader, default d: [Double]) throws(ScenarioError) -> [Double]? {
    guard let list = try r.list("hour_odds") else {
      r.record("hour_odds", .sequence(d.map { .scalar(Units.format($0), nil) }, nil))
      return nil
    }
    guard list.count == 24 else {
      throw r.error("hour_odds", list.first?.1, "give 24 odds ratios, one per hour from 00 to 23 (found \(list.count))")
    }
    var out: [Double] = []
    for (s, l) in list {
      guard let x = Units.number(s), x >= 0, x <= 1000 else {
        throw r.error("hour_odds", l, "expected odds ratios between 0 and 1000, found '\(s)'")
      }
      out.append(x)
    }
    return out
  }

  func minutes(_ t: SimTime) -> Double { Double(t) / Double(Tick.minute) }

  /// A class as it appears resolved.
  static func classValue(_ c: ComplianceClass) -> ScenarioValue {
    .mapping(
      [
        ("name", .scalar(c.name, nil), nil), ("share", .scalar(Units.format(c.share), nil), nil),
        ("level", .scalar(Units.format(c.level), nil), nil), ("spread", .scalar(Units.format(c.spread), nil), nil),
        ("weekly_change", .scalar(Units.format(c.weeklyChange), nil), nil),
        ("weekly_change_sd", .scalar(Units.format(c.weeklyChangeSD), nil), nil),
      ], nil)
  }

  /// `population.compliance.classes`: latent classes of participants, each {name, share,
  /// level, spread, weekly_change, weekly_change_sd}; the shares sum to 1 (within 0.001,
  /// then normalised).
  func complianceClasses(_ r: Reader) throws(ScenarioError) -> [ComplianceClass] {
    guard let v = r.raw("classes"), case .sequence(let list, let at) = v, !list.isEmpty, list.count <= 20 else {
      throw r.error("classes", r.raw("classes")?.location, "expected a list of 1 to 20 classes, each {name, share, level, …}")
    }
    var out: [ComplianceClass] = []
    var resolved: [ScenarioValue] = []
    for (i, item) in list.enumerated() {
      let q = try Reader(file: r.file, path: r.keyPath("classes[\(i)]"), node: item, context: r.context)
      for (old, new) in [("level_sd", "spread"), ("decline_per_week", "weekly_change"), ("decline_sd", "weekly_change_sd")]
      where q.has(old) {
        throw q.error(old, q.raw(old)?.location, "replaced in esmsim 0.2 by \(new) (on the log-odds scale; docs/scenario-reference.md)")
      }
      let name = try q.string("name", default: "class\(i + 1)", maxLength: 60)
      // participants.csv names each participant's class: one name, one class.
      if name.trimmingCharacters(in: .whitespaces).isEmpty {
        throw q.error("name", q.raw("name")?.location, "a class needs a name (participants.csv names each participant's class)")
      }
      if out.contains(where: { $0.name == name }) {
        throw q.error("name", q.raw("name")?.location, "another class is named '\(name)': participants.csv would not tell them apart")
      }
      let c = ComplianceClass(
        name: name, share: try q.share("share", default: 1), level: try q.number("level", default: 0.9, range: 0.0001...0.9999),
        spread: try q.number("spread", default: 1, range: 0...10),
        weeklyChange: try q.number("weekly_change", default: 0, range: -10...10),
        weeklyChangeSD: try q.number("weekly_change_sd", default: 0, range: 0...10))
      try q.finish()
      resolved.append(q.resolvedValue)
      out.append(c)
    }
    let total = out.reduce(0) { $0 + $1.share }
    // Shares written with four significant digits (as `esmsim calibrate` writes them) may
    // miss 1 by a rounding error: within 0.001 they are normalised, beyond it refused.
    guard abs(total - 1) <= 1e-3 else {
      throw r.error("classes", at, "the classes' shares sum to \(Units.format(total)), not 1")
    }
    r.record("classes", .sequence(resolved, at))
    return out.map { var c = $0; c.share /= total; return c }
  }
}
