import Schedules
import SimKernel

/// What the study does: its schedule, how prompts reach the phone, how long they stay
/// answerable, what it senses and how data reach the server.
public struct ProtocolPlan: Sendable, Equatable {
  /// The signal schedules: usually one; an imported ESMira study has one per signal time.
  /// Empty: no prompts (a sensing-only study).
  public var schedules: [SchedulePart]
  /// How prompts reach the phone.
  public var channel: ChannelPlan
  /// The zone whose clock a push server schedules by (its schedules' times are the
  /// server's wall-clock times; local notifications keep the phone's). Default UTC.
  public var serverZone: ZoneOffsets = .utc
  /// How long a prompt can be answered.
  public var expiry: ExpiryPolicy
  /// Reminders for a prompt not yet answered (ESMira: n reminders at set intervals).
  public var reminders: Reminders
  /// A silent push every this many milliseconds (nil: none). AWARE's server notes a
  /// 30-minute interval (`tetujin/aware-push`).
  public var silentPushEvery: SimTime?
  /// How the app keeps itself running in the background (default: it keeps itself alive).
  public var appDesign = AppDesign()
  /// Spontaneous openings of the study app per day (the AWARE case study's ESM condition:
  /// three a day). Default 0.
  public var appOpensPerDay: Double
  /// Whether answers without a pending prompt are possible (Mappiness: yes, excluded from
  /// analysis).
  public var volunteered: Bool
  /// Whether a prompt's alert is an alarm that rings until answered or timed out (movisensXS,
  /// PsyMate) rather than a notification: heard whatever the ringer mode, wherever the
  /// phone is within earshot (``Noticing``).
  public var alarm = false
  /// How data reach the server.
  public var upload: UploadPolicy
  /// What the app senses.
  public var sensors: [SensorPlan]
  /// The questionnaire (for the AWARE and Beiwe outputs, and its length).
  public var survey: SurveyPlan
  /// A change of the participant's Mappiness settings during the study (nil: none).
  public var settingsChange: SettingsChange?
  /// Changes of their Mappiness settings that participants make on their own (nil: none).
  public var ownSettingsChanges: OwnSettingsChanges?
  /// Participants' own times: the schedule moved by an amount of each participant's (nil: none).
  public var ownTimes: OwnTimes?

  /// The expiry of the prompts of schedule `k` (its own, or the protocol's).
  public func expiry(ofSchedule k: Int) -> ExpiryPolicy {
    k < schedules.count ? schedules[k].expiry ?? expiry : expiry
  }
  /// The reminders of the prompts of schedule `k`.
  public func reminders(ofSchedule k: Int) -> Reminders {
    k < schedules.count ? schedules[k].reminders ?? reminders : reminders
  }
  /// The questionnaire the prompts of schedule `k` open.
  public func survey(ofSchedule k: Int) -> SurveyPlan {
    k < schedules.count ? schedules[k].survey ?? survey : survey
  }
  /// The questionnaire prompt `p` opened: its schedule's, or the protocol's for a volunteered answer.
  public func survey(of p: PromptRecord) -> SurveyPlan {
    p.volunteered ? survey : survey(ofSchedule: p.schedule)
  }
  /// Every questionnaire a prompt can open, each once (by id): the schedules' in order, then
  /// the protocol's own (volunteered answers open it).
  public var allSurveys: [SurveyPlan] {
    var out: [SurveyPlan] = []
    for s in schedules.indices.map(survey(ofSchedule:)) + [survey] where !out.contains(where: { $0.id == s.id }) { out.append(s) }
    return out
  }
  /// The study's questionnaires by name (their surveys' ids, in the order the schedules
  /// first use them): one for a study with a single questionnaire.
  public var questionnaires: [String] {
    var names: [String] = []
    for id in surveyIDs where !names.contains(id) { names.append(id) }
    return names.isEmpty ? [survey.id] : names
  }
  /// The questionnaire (index in ``questionnaires``) each schedule's prompts open.
  public var questionnaireOfSchedule: [Int] {
    let names = questionnaires
    return surveyIDs.map { names.firstIndex(of: $0)! }
  }
  /// The id of the survey each schedule opens.
  public var surveyIDs: [String] { schedules.indices.map { survey(ofSchedule: $0).id } }
  /// The most reminders any schedule's prompt has (the notifications a prompt takes on iOS).
  public var mostReminders: Int { max(reminders.count, schedules.compactMap { $0.reminders?.count }.max() ?? 0) }
  /// How the app reaches the iPhones, and how many days old its build is when the study
  /// starts: a TestFlight build stops working on study day `90 − buildAgeDays` (iOS only).
  public var distribution = Distribution.appStore
  public var buildAgeDays = 0
  /// When the iOS build expires, study time (nil: never within reach).
  public var buildExpiresAt: SimTime? {
    distribution.buildLifeDays.map { SimTime(max($0 - buildAgeDays, 0)) * Tick.day }
  }
  /// The answers each participant should give (the study's target, for the share of
  /// participants reaching it). Default ``defaultAnswersTarget``.
  public var answersTarget = ProtocolPlan.defaultAnswersTarget
  /// The answers target when a scenario does not set one (`protocol.answers_target`): 30
  /// (assumption: a common minimum for person-level estimates; set it to the study's own).
  /// The one home of the number: the planner's form and the results take it from here.
  public static let defaultAnswersTarget = 30

  /// Creates a protocol.
  public init(
    schedules: [SchedulePart], channel: ChannelPlan = .iosLocal, expiry: ExpiryPolicy = .standard,
    reminders: Reminders = Reminders(), silentPushEvery: SimTime? = nil, appOpensPerDay: Double = 0,
    volunteered: Bool = false, upload: UploadPolicy = .wifiWhileCharging, sensors: [SensorPlan] = [],
    survey: SurveyPlan = SurveyPlan()
  ) {
    self.schedules = schedules
    self.channel = channel
    self.expiry = expiry
    self.reminders = reminders
    self.silentPushEvery = silentPushEvery
    self.appOpensPerDay = appOpensPerDay
    self.volunteered = volunteered
    self.upload = upload
    self.sensors = sensors
    self.survey = survey
  }
}

/// How prompts reach the phone.
public struct ChannelPlan: Sendable, Equatable {
  /// Local notifications planned by the app, or pushes sent by a server.
  public enum Kind: String, Sendable {
    case local, push
  }

  /// The channel's kind.
  public var kind: Kind
  /// Local: the most notifications iOS holds for the app (64; extra ones are silently
  /// dropped, the soonest kept) or the app's own stricter limit (ESMira 55).
  public var cap: Int
  /// Local: the app's own limit per schedule, the schedules' plans then pooled under `cap`
  /// (AWARE iOS: 56 per schedule, iOS keeping the soonest 64; nil: `cap` alone).
  public var perScheduleCap: Int?
  /// Local: plan this many days ahead (nil: as far as the cap allows).
  public var horizonDays: Int?
  /// Local: plan at most this many repetitions of each time of day (ESMira: 4).
  public var repetitions: Int?
  /// Local: whether the app tops up its plan whenever it runs in the background (otherwise
  /// only when opened, or when its own background task runs).
  public var refillInBackground: Bool
  /// Local: the app's periodic background task, the time between attempts (ESMira: 12 hours)
  /// and the chance iOS lets each run (assumption 0.5: "not guaranteed").
  public var backgroundTaskEvery: SimTime?
  public var backgroundTaskSuccess: Double
  /// Push: the server's tick (Mappiness: every 2 minutes).
  public var serverTick: SimTime
  /// Push: median delivery latency and its lognormal spread (2 s, "a few seconds" with a long
  /// tail; Azure: typically within 10 minutes; assumption).
  public var latency: SimTime
  public var latencySigma: Double
  /// Push: how long APNs holds the one stored notification while the phone is offline.
  public var storeFor: SimTime

  /// Creates a channel.
  public init(
    kind: Kind, cap: Int = 64, horizonDays: Int? = nil, repetitions: Int? = nil, refillInBackground: Bool = false,
    backgroundTaskEvery: SimTime? = nil, backgroundTaskSuccess: Double = 0.5, serverTick: SimTime = 2 * Tick.minute,
    latency: SimTime = 2 * Tick.second, latencySigma: Double = 1.5, storeFor: SimTime = 24 * Tick.hour
  ) {
    self.kind = kind
    self.cap = cap
    self.horizonDays = horizonDays
    self.repetitions = repetitions
    self.refillInBackground = refillInBackground
    self.backgroundTaskEvery = backgroundTaskEvery
    self.backgroundTaskSuccess = backgroundTaskSuccess
    self.serverTick = serverTick
    self.latency = latency
    self.latencySigma = latencySigma
    self.storeFor = storeFor
  }

  /// iOS local notifications: 64 pending, planned 7 days ahead whenever the app runs
  /// (ExperienceSampler pre-schedules 7 days, [@ExperienceSampler]; the cap is Apple's,
  /// [@AppleLocalNotifications]).
  public static let iosLocal = ChannelPlan(kind: .local, cap: 64, horizonDays: 7, refillInBackground: true)
  /// ESMira's iOS planner: never more than 55 pending, the next 4 repetitions of each time
  /// of day, topped up when the app opens or its background task runs about every 12 hours
  /// (ESMira app notes).
  public static let esmira = ChannelPlan(
    kind: .local, cap: 55, repetitions: 4, refillInBackground: false, backgroundTaskEvery: 12 * Tick.hour,
    backgroundTaskSuccess: 0.5)
  /// AWARE's iOS ESM plugin: each schedule planned up to 56 notifications ahead (its counter
  /// runs per schedule, `maxScheduledNotifications` in `ESMScheduleManager.swift`), iOS keeping
  /// the soonest 64 of them all, when schedules load or the app opens.
  public static let awareIOS: ChannelPlan = {
    var c = ChannelPlan(kind: .local, cap: 64, refillInBackground: false)
    c.perScheduleCap = 56
    return c
  }()
  /// Mappiness: a server sends an APNs push when a signal falls due (every 2 minutes).
  public static let push = ChannelPlan(kind: .push)
}

/// How long a prompt stays answerable.
public enum ExpiryPolicy: Sendable, Equatable {
  /// A fixed time after delivery (mEMA: 15 minutes; AWARE `expiration`).
  case after(SimTime)
  /// Until the next signal arrives (Mappiness).
  case untilNextSignal
  /// Never.
  case never

  /// esmsim's default: answerable for 15 minutes (mEMA's, [@mEMA]; an assumption for a
  /// protocol that names none). The one home of the default: the plan, the resolver and
  /// questionnaires use it.
  public static let standard = ExpiryPolicy.after(15 * Tick.minute)
}

/// Reminders of an unanswered prompt.
public struct Reminders: Sendable, Equatable {
  /// How many.
  public var count: Int
  /// Time between the prompt (or the last reminder) and the next reminder.
  public var interval: SimTime

  /// Creates reminders (default: none).
  public init(count: Int = 0, interval: SimTime = 10 * Tick.minute) {
    self.count = count
    self.interval = interval
  }
}

/// When the app sends collected data to the server.
public enum UploadPolicy: String, Sendable, Equatable {
  /// AWARE: sync when on wifi while charging.
  case wifiWhileCharging = "wifi_while_charging"
  /// ESMira: immediately, and retry every 3 hours until it succeeds.
  case immediateRetry = "immediate_retry"
  /// Whenever the app runs with a usable network.
  case continuous
}

/// A sensor the app records.
public struct SensorPlan: Sendable, Equatable {
  /// How the sensor produces rows.
  public enum Kind: Sendable, Equatable {
    /// One sample every `period` milliseconds while the app runs, the first when it starts.
    case periodic(period: SimTime)
    /// Screen on/off events (phone checks).
    case screen
    /// Battery events (each percent of level change, plugging in and out).
    case battery
  }

  /// The sensor's name in outputs.
  public var name: String
  /// How it produces rows.
  public var kind: Kind
  /// Whether each sample needs background network (a web API such as weather).
  public var needsNetwork: Bool
  /// Whether the phone's coprocessor records it even when the app does not run, so it is
  /// backfilled (the pedometer; AWARE-iOS §5.3).
  public var coprocessor: Bool
  /// Bytes per stored row (AWARE-iOS Table 4 for the accelerometer: 100 bytes).
  public var bytesPerRow: Int
  /// The location accuracy asked for (location sensors; default AWARE-iOS's anchor, 3 km,
  /// §4.1) and where rows are stored (default SQLite, as the case study): they set the
  /// sensor's battery drain (``drainPerHour``).
  public var accuracy: LocationAccuracy
  public var storage: SensorStorage

  /// Creates a sensor.
  public init(
    name: String, kind: Kind, needsNetwork: Bool = false, coprocessor: Bool = false, bytesPerRow: Int = 100,
    accuracy: LocationAccuracy = .threeKilometers, storage: SensorStorage = .sqlite
  ) {
    self.name = name
    self.kind = kind
    self.needsNetwork = needsNetwork
    self.coprocessor = coprocessor
    self.bytesPerRow = bytesPerRow
    self.accuracy = accuracy
    self.storage = storage
  }

  /// Whether the sensor records the phone's location, and so needs the location permission
  /// (``LocationPermission``): a sensor named `location` or `gps`.
  public var usesLocation: Bool { name == "location" || name == "gps" }

  /// The samples expected in an hour (periodic sensors).
  public var expectedPerHour: Int {
    if case .periodic(let p) = kind { return Int(Tick.hour / p) }
    return 0
  }

  /// The sensors esmsim knows by name, with their defaults: periods after the AWARE-iOS case
  /// study (§5.3, [@Nishiyama2020]); row sizes from its Table 4 for the accelerometer (100 bytes),
  /// assumptions after AWARE's table layouts for the rest.
  public static let known: [String: SensorPlan] = [
    "accelerometer": SensorPlan(name: "accelerometer", kind: .periodic(period: 200), bytesPerRow: 100),
    "location": SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute), bytesPerRow: 150),
    "weather": SensorPlan(name: "weather", kind: .periodic(period: 10 * Tick.minute), needsNetwork: true, bytesPerRow: 250),
    "pedometer": SensorPlan(name: "pedometer", kind: .periodic(period: 10 * Tick.minute), coprocessor: true, bytesPerRow: 90),
    "screen": SensorPlan(name: "screen", kind: .screen, bytesPerRow: 60),
    "battery": SensorPlan(name: "battery", kind: .battery, bytesPerRow: 80),
  ]

  /// The defaults of the sensor called `name`: a known sensor's, or else one sample a minute
  /// (assumption) with the default row size.
  public static func defaults(named name: String) -> SensorPlan {
    known[name] ?? SensorPlan(name: name, kind: .periodic(period: Tick.minute))
  }
}

/// The questionnaire a prompt opens.
public struct SurveyPlan: Sendable, Equatable {
  /// The schedule's identifier (AWARE `schedule_id`).
  public var id: String
  /// The notification's title.
  public var title: String
  /// The items.
  public var items: [SurveyItem]
  /// How many items a participant answers: the items listed, or more when the survey is
  /// described by its length alone (`protocol.survey.length`): it sets the answering time
  /// and the burden (``CompliancePlan/secondsPerItem``, ``CompliancePlan/lengthEffect``).
  public var length: Int {
    get { statedLength ?? max(items.count, 1) }
    set { statedLength = newValue }
  }
  private var statedLength: Int?

  /// Creates a survey (default: one 0–100 mood item).
  public init(
    id: String = "esm", title: String = "How do you feel right now?", items: [SurveyItem] = [SurveyItem()], length: Int? = nil
  ) {
    self.id = id
    self.title = title
    self.items = items
    statedLength = length
  }
}

/// One question.
public struct SurveyItem: Sendable, Equatable {
  /// Its identifier (AWARE `esm_trigger`, Beiwe question id).
  public var id: String
  /// AWARE's item type (1–16; 6 is a scale).
  public var type: Int
  /// The question's title.
  public var title: String
  /// Its instructions.
  public var instructions: String
  /// Answer options, if any.
  public var options: [String]
  /// The range of a numeric answer (AWARE likert 1…`esm_likert_max`, scale
  /// `esm_scale_min`…`esm_scale_max`; nil: 0–100).
  public var scale: ClosedRange<Int>?
  /// The step of a numeric answer within `scale` (AWARE's `esm_likert_step`, `esm_scale_step`):
  /// answers are `scale.lowerBound + k · step`, never past the upper bound.
  public var step = 1
  /// The sd of the item's own error around the answered state, on the state's 0–100 scale
  /// (`protocol.survey.items[].noise`; 0: the item gives the answered state itself). Two items
  /// then correlate var(state) / (var(state) + noise²): their reliability. Assumption, set by
  /// the user.
  public var noise = 0.0

  /// Creates an item (default: AWARE type 6, a 0–100 scale).
  public init(
    id: String = "mood", type: Int = 6, title: String = "How do you feel right now?",
    instructions: String = "0 = very bad, 100 = very good", options: [String] = [], scale: ClosedRange<Int>? = nil
  ) {
    self.id = id
    self.type = type
    self.title = title
    self.instructions = instructions
    self.options = options
    self.scale = scale
  }
}

/// Participants change their Mappiness settings on their own: "the frequency of signals can
/// at any time be set to 1, 2, 3, 4 or 5 per day … participants can at any time choose the
/// hours during which they may be signalled … to the nearest 15 minutes" ([@MacKerron2012]).
/// A share of the participants makes one change, at a moment of their own (a uniform study
/// day after the first, a uniform time between 08:00 and 22:00), to hours of their own (each
/// end of the window moved by a normal amount, to quarter hours) and a count of their own (1
/// to 5, uniform). The thesis gives no share or sizes: they are assumptions (D).
public struct OwnSettingsChanges: Sendable, Equatable {
  /// The share of participants who change.
  public var share: Double
  /// The sd of the move of each end of the hours.
  public var hoursSD: SimTime

  /// Creates the rule.
  public init(share: Double, hoursSD: SimTime = Tick.hour) {
    self.share = share
    self.hoursSD = hoursSD
  }
}

/// The participant changes their Mappiness settings (hours and signals a day) once during the
/// study: before the change the old schedule runs; at the change the rest of that day is
/// re-planned pro rata in the new hours (Mappiness thesis: λ = n × remaining / full effective
/// window, `Mappiness.rest`); from the next day the new settings apply.
public struct SettingsChange: Sendable, Equatable {
  /// The study day of the change (0-based).
  public var day: Int
  /// The clock time of the change, after midnight.
  public var timeOfDay: SimTime
  /// The new hours.
  public var window: Window
  /// The new signals a day.
  public var perDay: Int

  /// Creates a change.
  public init(day: Int, timeOfDay: SimTime, window: Window, perDay: Int) {
    self.day = day
    self.timeOfDay = timeOfDay
    self.window = window
    self.perDay = perDay
  }
}
