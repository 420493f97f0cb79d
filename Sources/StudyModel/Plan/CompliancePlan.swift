import SimKernel

/// Whether a participant who has noticed a prompt answers it, how they come to notice it, and
/// when they open it: the people of a study (`docs/model.md`, People and Compliance).
///
/// Every figure a pilot can see is a parameter a pilot can set, each person-level with its
/// spread between people:
/// - **willingness**: the probability of answering a noticed prompt, on the log-odds scale:
///   the person's level (their class's median, ``classes``, plus their own normal deviation),
///   its change over the first days and its change per week, each either way;
///   ``answerProbability`` moves the whole population (classes, spread and trends) to a mean;
/// - **noticing**: how often the person looks at the phone (``looksPerHour``, lognormal
///   between people);
/// - **when they open**: at once (``atOnce``), after being busy (``busy``, which can outlast
///   the answer window), or later "when convenient" within the window (``deferralShape``).
///
/// Odds move on the log-odds scale (hour of day, context, burden, state), so a willing person
/// stays willing wherever they are; misses cluster through a two-state chain that keeps the
/// mean (``missPersistence``). Defaults and sources: `docs/model.md` and
/// `docs/scenario-reference.md`.
public struct CompliancePlan: Sendable, Equatable {
  /// Latent classes of participants (März et al. 2025's trajectory classes), each with its
  /// share, median first-day willingness, spread and weekly change. Default:
  /// ``defaultClasses``.
  public var classes: [ComplianceClass] = CompliancePlan.defaultClasses
  /// The population's mean first-day willingness, when given: every class's log-odds level
  /// moves by the one shift (``levelShift``) that gives this mean, so the classes, their
  /// spread and their trends stay. Nil: the classes as they are.
  public var answerProbability: Double? {
    didSet { levelShift = answerProbability.map { Self.shift(classes, toMean: $0) } ?? 0 }
  }
  /// The log-odds shift of every class's level (from ``answerProbability``; 0 without it).
  public private(set) var levelShift = 0.0
  /// The change of willingness over the first days, on the log-odds scale, beginning after
  /// ``firstDaysOnset`` days and reached with time constant ``firstDaysScale``, and its sd
  /// between people. Either sign: a first week that rises is common. The training studies of
  /// the corpus hold level over their first five days (days 3–5 over days 1–2: 0.999) and
  /// fall in the second week (week 2 over week 1: 0.919): default −0.8 beginning after day 5
  /// with a 2-day time constant, the best of a grid (onset 4–8 days, change −0.8 to −2,
  /// time constant 2 or 4 days) against their pooled day-by-day curve (C: five studies,
  /// `docs/sources.md`, "The first days, day by day"); the sd is an assumption (D).
  public var firstDaysChange = -0.8
  public var firstDaysSD = 0.3
  /// Days of the first days' change (its time constant).
  public var firstDaysScale = 2.0
  /// Days the willingness holds level before the first days' change begins (0: it begins on
  /// day 1).
  public var firstDaysOnset = 5.0
  /// The days a pilot compares to see the first days' change: the first max(2, onset) days
  /// against the 3 days after them (days 1–5 against 6–8 by default; 1–2 against 3–5
  /// without an onset).
  public var firstDaysWindow: Int { max(2, Int(firstDaysOnset.rounded())) }
  /// Correlation between a person's willingness (their place in the classes and levels) and
  /// their own level of the latent state. Default 0.2: people in better moods answer more
  /// ([@Rintala2020], A for the direction), little by other studies ([@Sun2021], [@Marz2025]):
  /// the size is an assumption (D).
  public var stateCorrelation: Double = 0.2
  /// Phone looks per waking hour with the phone at hand, the population's median, and the
  /// sd of its logarithm between people (a lognormal). A look finds a prompt not heard.
  public var looksPerHour = 5.3
  public var looksSD = 0.6
  /// Looks while the phone is not at hand (the participant goes to it), as a share of the
  /// person's rate (assumption, D).
  public var looksAway = 0.25
  /// The odds of noticing an alert as it arrives, against the phone's and the context's
  /// chance (1: as the ringer modes give it): how closely the population attends to its
  /// phone's alerts (``Noticing``), for a prompt answerable for an hour.
  public var alertOdds = 1.0
  /// How attention to alerts follows the answer window: the odds above are multiplied by
  /// (60 minutes / window)^exponent, the window held within ``Noticing/windowMinutes``
  /// (until the next signal: the time to the next scheduled prompt). People told to answer
  /// within 5 minutes keep their phone on and at hand; with hours to answer they let an alert
  /// wait. The training studies' fitted odds fall with their windows (5 minutes to 4 hours)
  /// on a slope of −0.51 on the log–log scale ([@corpus-johannes2021_vigilance] and the other
  /// four training studies; `docs/validation.md`): default 0.5 (C). 0: the same odds whatever
  /// the window.
  public var alertWindowExponent = 0.5
  /// The share of willing decisions opened at once (the phone in hand): the population's
  /// median (on the log-odds scale; the mean share over people is about 0.43), and the sd of
  /// its log-odds between people.
  public var atOnce = 0.42
  public var atOnceSD = 1.0
  /// The change per study week of the log-odds of opening at once: people come to answer
  /// "when convenient" more often as a study goes on, so their waits lengthen. Default 0 (D):
  /// a pilot sets it. The corpus's long-window studies' median waits lengthen by 10–80 % from
  /// the first half of their days to the second, and the training studies fit −0.41 to +0.11
  /// (median −0.09, `docs/validation.md`, real studies; [@corpus-bosley2020_gad], [@corpus-fisher2017_mood]); the 5- and 30-minute
  /// windows show no change, and a default decline cost their held-out answers (5–6 points
  /// under for Johannes et al.; `docs/validation.md`).
  public var atOnceWeeklyChange = 0.0
  /// The share of the other willing decisions met while busy: the prompt is opened when the
  /// busy stretch ends (exponential, mean ``busyMinutes``), if the window is still open. Mean
  /// and log-odds sd between people.
  public var busy = 0.093
  public var busySD = 1.0
  public var busyMinutes = 45.0
  /// The rest defer "until convenient": opened at a share X of the window's remaining time,
  /// X ~ Beta(1, shape) (mean 1 / (1 + shape)): longer windows give longer waits. Answerable
  /// until the next signal, the window is the time to the next scheduled prompt, which the
  /// participant expects, held to ``deferralHorizon`` minutes (the night's gap, the study's
  /// last prompt); a window without an end (``ExpiryPolicy/never``) is taken as that long.
  public var deferralShape = 2.44
  public var deferralHorizon = 240.0
  /// The opening delay of an "at once" decision (lognormal median, seconds, and sigma).
  public var atOnceSeconds = 13.5
  public var atOnceSigma = 0.8
  /// Mean seconds from an alert heard to noticing it (exponential; ``Noticing``). Default 15
  /// (assumption, D); a pilot that records openings sets it (`esmsim calibrate`: the
  /// shortest waits are these reactions and an at-once opening after them).
  public var reactionSeconds = 15.0

  /// The parameters of the time to open a prompt (``Compliance/openingDelay(_:atOnce:busy:remaining:hour:_:)``),
  /// apart from the plan: passed on their own, they spare a copy of the whole plan (320 bytes)
  /// on every prompt a participant means to answer.
  struct Opening {
    let atOnceSeconds, atOnceSigma, busyMinutes, deferralShape: Double
  }

  var opening: Opening {
    Opening(
      atOnceSeconds: atOnceSeconds, atOnceSigma: atOnceSigma, busyMinutes: busyMinutes, deferralShape: deferralShape)
  }
  /// Answering a survey breaks off at this rate per minute of answering past its first item
  /// (the survey ends with the items answered so far; a one-item survey never does). Default
  /// 0.045: 92.6 % of started surveys completed in Dunton et al.'s EMA with a 20-item survey
  /// assumed ([@Dunton2018], A for the figure; calibrated, D); the corpus's check studies that
  /// record openings lose 1–2 % of opened 7-item surveys, as this rate gives, while m-Path's
  /// example fits 0.0045 ([@corpus-mpathr_example]): a pilot that records openings sets it.
  public var breakOffPerMinute: Double = 0.045
  /// How much people differ in breaking off: the sd of the logarithm of a person's rate (a
  /// lognormal whose mean is ``breakOffPerMinute``, so the population loses as many surveys
  /// part-way). Default 1.5 (D): the corpus's training studies with 26-item surveys
  /// ([@corpus-bosley2020_gad], [@corpus-fisher2017_mood]) have their best tenth of
  /// participants answering 97–100 % of prompts, which one rate for everyone (7 % of their
  /// surveys broken off) forbids; most people hardly ever stop part-way, a few often.
  public var breakOffSD: Double = 1.5
  /// Seconds each item after the first adds to a survey's answering time (``completion``
  /// is the median for a one-item survey). Default 3 (C): the training study of the corpus
  /// that records openings and submissions took a median 52 s for 17 items ([@corpus-johannes2021_vigilance]),
  /// within Businelle et al. 2024's "approximately 1-3 minutes" for 15 or 25 items ([@Businelle2024]).
  public var secondsPerItem: Double = 3
  /// The burden of length: the odds of answering are multiplied by exp(−effect × minutes)
  /// for each minute of the survey's median answering time beyond the first. Default 0.07
  /// (D): longer surveys are answered less ([@Eisele2022], A for the direction), by about 2
  /// points for 25 against 15 items ([@Businelle2024], not significant) and up to 15 points
  /// beyond 26 items ([@Williams2021], 4 samples): 60 against 30 items costs
  /// about 4 points with the break-offs (`docs/validation.md`, 7.5).
  public var lengthEffect: Double = 0.07
  /// The burden of density: each prompt noticed adds one to a load that decays with
  /// ``densityWindow``; the odds of answering are multiplied by exp(−effect × load).
  /// Defaults 0.2 and 30 minutes (assumptions, D): prompts close together are answered less
  /// ([@Ohme2025], A for the direction); prompts an hour or more apart barely load, so the
  /// number a day alone moves compliance little ([@Eisele2022], [@Wrzus2023]).
  public var densityEffect: Double = 0.2
  public var densityWindow: SimTime = 30 * Tick.minute
  /// Odds ratio of answering a prompt at a fixed, known time (a `fixed-times` schedule)
  /// against a random one; such a prompt is also spared ``hourOdds`` (they describe random
  /// prompts). Default 1.5 (D), between Businelle et al. 2024's +1.0 point (not significant,
  /// [@Businelle2024]) and Tonkin et al. 2023's 86 % against 58 % for a scheduled morning
  /// prompt ([@Tonkin2023]).
  public var scheduledBoost: Double = 1.5
  /// Odds ratios by hour of day (0…23) against the day's mean (their logarithms average 0
  /// over 08:00–22:00): ``defaultHourOdds``.
  public var hourOdds: [Double] = CompliancePlan.defaultHourOdds
  /// Clustering of refusals: P(answer | previous decision to answer) − P(answer | previous
  /// refusal), the mean kept. Default 0.25 (D, in the direction of Rintala et al. 2020:
  /// consecutive misses predict further misses, [@Rintala2020]).
  public var missPersistence: Double = 0.25
  /// Change in the log-odds of answering per sd of the latent state's momentary deviation
  /// (0: missing does not depend on the state), shifted so that the mean probability stays
  /// (``StateDependence``): it changes which moments are answered, not how many. Default 0;
  /// Rintala et al. 2020 find higher positive affect goes with higher compliance (a positive
  /// value).
  public var stateDependence: Double = 0 {
    didSet { stateShift = StateDependence(slope: stateDependence) }
  }
  /// The tabulated shift of ``stateDependence``.
  public private(set) var stateShift = StateDependence(slope: 0)
  /// Share of unwilling participants who dismiss a prompt rather than leave it to expire.
  /// Default 0.3 (assumption).
  public var dismissShare: Double = 0.3
  /// Median time to complete a one-item prompt (lognormal; each further item adds
  /// ``secondsPerItem``). Default 20 s (C: MacKerron & Mourato 2013, a Mappiness response took
  /// about 20 s; with ``secondsPerItem`` it gives the corpus's 52 s for 17 items).
  public var completion: SimTime = 20 * Tick.second
  /// Spread of the completion time (lognormal sigma). Default 0.5 (assumption).
  public var completionSigma: Double = 0.5
  /// Chance per study day that a participant drops out. Default 0.002 (assumption, D, inside
  /// the corpus's 0.0031 a day [0.0014, 0.0062]: `docs/sources.md`).
  public var dropoutPerDay: Double = 0.002
  /// The chance, each night, that people plug their phone in, over every device profile's
  /// own (``DeviceProfile/chargeNightly``); nil (the default): the profiles' values. A phone
  /// left unplugged may run empty the next day and stay off until it is charged: a pilot
  /// shows it as days with nothing answered, so `esmsim calibrate` fits it
  /// (`population.compliance.charge_nightly`; the profiles' 0.95 is an assumption, D).
  public var chargeNightly: Double? = nil
  /// Volunteered answers (no prompt pending) per day, when the protocol allows them.
  /// Default 0.05 (assumption; Mappiness allows them and excludes them from analysis).
  public var volunteeredPerDay: Double = 0.05

  /// Creates the defaults.
  public init() {}

  /// Everyone alike: one class of willingness `level` on the first day, spread `spread`,
  /// changing `weeklyChange` a week and not over the first days (``answerProbability``
  /// cleared).
  public mutating func setOneClass(level: Double, spread: Double = 0, weeklyChange: Double = 0) {
    classes = [ComplianceClass(name: "all", share: 1, level: level, spread: spread, weeklyChange: weeklyChange, weeklyChangeSD: 0)]
    answerProbability = nil
    firstDaysChange = 0
    firstDaysSD = 0
  }

  /// The default population: the shares and spreads were the medians of the people fitted to
  /// the five training studies of the real-study corpus when the classes were introduced
  /// (2026-11-26; the fits have moved since: `docs/model.md`, People, says how and why these
  /// were kept; `docs/validation.md`, real studies; `validation/real/`); the levels give the typical study's 79 % (Wrzus & Neubauer 2023,
  /// esmsim 79.5 %, `docs/validation.md` §4); the weekly changes keep nine weeks' decline under 2 points a week (Tonkin
  /// et al. 2023), inside the training fits' intervals. The weekly changes' sds are
  /// assumptions (D). `docs/model.md`, People.
  public static let defaultClasses = [
    ComplianceClass(name: "engaged", share: 0.857, level: 0.987, spread: 1.57, weeklyChange: -0.1, weeklyChangeSD: 0.2),
    ComplianceClass(name: "less engaged", share: 0.143, level: 0.73, spread: 2.35, weeklyChange: -0.3, weeklyChangeSD: 0.4),
  ]

  /// Rintala et al. 2019 by hour as odds ratios against the day's mean answered share of
  /// 78 %: 56 % from 07:00 to 08:59 (odds ratio 0.36), 83 % from 12:00 to 13:59 (1.38),
  /// evenings lower (Rintala et al. 2020, direction A; 74 % from 19:00 is an assumption, D:
  /// 0.81); their logarithms centred on 08:00–22:00.
  public static let defaultHourOdds: [Double] = {
    func odds(_ p: Double) -> Double { p / (1 - p) }
    let mean = odds(0.78)
    let raw: [Double] = (0..<24).map { h in
      switch h {
      case 7, 8: odds(0.56) / mean
      case 12, 13: odds(0.83) / mean
      case 19...23: odds(0.74) / mean
      default: 1.0
      }
    }
    let centre = raw[8..<22].map { log($0) }.reduce(0, +) / 14
    return raw.map { $0 / exp(centre) }
  }()

  /// The log-odds shift that gives `classes` a mean first-day willingness of `mean`: the
  /// mean over each class's logistic-normal level, solved by bisection.
  public static func shift(_ classes: [ComplianceClass], toMean mean: Double) -> Double {
    let target = min(max(mean, 1e-6), 1 - 1e-6)
    var (lo, hi) = (-30.0, 30.0)
    for _ in 0..<80 {
      let mid = (lo + hi) / 2
      if meanWillingness(classes, shift: mid) < target { lo = mid } else { hi = mid }
    }
    return (lo + hi) / 2
  }

  /// The mean first-day willingness of `classes` with their levels shifted by `shift`
  /// (``NormalMean``).
  public static func meanWillingness(_ classes: [ComplianceClass], shift: Double) -> Double {
    let total = classes.reduce(0) { $0 + $1.share }
    guard total > 0 else { return 0 }
    return classes.reduce(0) { sum, c in
      sum + c.share / total * NormalMean.of { 1 / (1 + exp(-(c.logitLevel + shift + c.spread * $0))) }
    }
  }
}

/// A latent class of participants by how they answer over a study (März et al. 2025 found
/// four in a youth app: stable high, stable medium, high at first and falling, low and
/// falling): its share; its people's median first-day willingness (`level`, a probability)
/// and their spread around it (`spread`, the sd of the log-odds); its change per week (log-
/// odds, either sign) and that change's sd between its people.
public struct ComplianceClass: Sendable, Equatable {
  public var name: String
  public var share: Double
  public var level: Double
  public var spread: Double
  public var weeklyChange: Double
  public var weeklyChangeSD: Double

  public init(name: String, share: Double, level: Double, spread: Double, weeklyChange: Double, weeklyChangeSD: Double) {
    self.name = name
    self.share = share
    self.level = level
    self.spread = spread
    self.weeklyChange = weeklyChange
    self.weeklyChangeSD = weeklyChangeSD
  }

  /// The median level's log-odds (a level of 0 or 1 taken a hair inside).
  public var logitLevel: Double {
    let p = min(max(level, 1e-9), 1 - 1e-9)
    return log(p / (1 - p))
  }
}

/// Means over a standard normal: the trapezoid rule on z in [−9, 9] in steps of 0.05 (as
/// ``StateDependence`` tabulates: exact to rounding for the smooth logistic integrands here).
public enum NormalMean {
  static let rule: [(z: Double, w: Double)] = (-180...180).map { k in
    let z = Double(k) * 0.05
    return (z, exp(-z * z / 2) / (2 * Double.pi).squareRoot() * 0.05)
  }

  /// E[f(Z)] for Z standard normal.
  public static func of(_ f: (Double) -> Double) -> Double {
    rule.reduce(0) { $0 + $1.w * f($1.z) }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
