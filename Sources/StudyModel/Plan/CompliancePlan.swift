import SimKernel

/// Whether a participant who has noticed a prompt answers it, and how fast.
///
/// The probability of answering a noticed prompt is the person's own level (Beta-distributed
/// around ``answerProbability``) times a study-day decline, a time-of-day multiplier, the
/// context's willingness and (when switched on) a function of the latent state; misses
/// cluster through a two-state chain that keeps the mean (``missPersistence``). Defaults and
/// sources: [@Wrzus2023], [@Rintala2019], [@Rintala2020]; `docs/model.md`.
public struct CompliancePlan: Sendable, Equatable {
  /// One class's (when ``classes`` is nil, as `esmsim calibrate` writes it) mean probability,
  /// on the first study day, that a participant who noticed a prompt and can answer does
  /// answer. Default 0.96, from before the classes: chosen so that the whole prompt life (delivery,
  /// noticing, expiry) gives the 79 % of prompts answered of the typical study (Wrzus &
  /// Neubauer 2023 meta-analysis: 6 a day for 7 days), here with a 60-minute answer window on
  /// phones in ordinary use (78 %), and day 5 of a 10-a-day study within Rintala et al. 2019's
  /// 68–77 %; shorter windows answer less (30 minutes: 72 %, 15: 65 %).
  /// `docs/validation.md` shows the calibration and what each step of a prompt's life takes.
  public var answerProbability: Double = 0.96 { didSet { classes = nil } }
  /// Person-to-person sd of that probability (a Beta around ``answerProbability``). Setting
  /// any of these four single-class parameters replaces ``classes`` by the one class they
  /// describe.
  public var personSD: Double = 0.08 { didSet { classes = nil } }
  /// The relative decline of a person's probability per week beyond the first days'
  /// (``declinePerDay``), at the population's mean, and its sd between people (a Gamma,
  /// scaled by how far below the level the person starts: those who answer less decline
  /// faster, as in März et al. 2025's classes).
  public var declinePerWeek: Double = 0 { didSet { classes = nil } }
  public var declineSD: Double = 0 { didSet { classes = nil } }
  /// Latent classes of participants (März et al. 2025's trajectory classes), each with its
  /// share, level, spread and decline; nil: one class of ``answerProbability``,
  /// ``personSD``, ``declinePerWeek`` and ``declineSD`` (``effectiveClasses``). Default:
  /// ``defaultClasses``.
  public var classes: [ComplianceClass]? = CompliancePlan.defaultClasses
  /// Correlation between a person's answering (their place in the classes and levels) and
  /// their own level of the latent state. Default 0.2: people in better moods answer more
  /// ([@Rintala2020], A for the direction), little by other studies ([@Sun2021], [@Marz2025]):
  /// the size is an assumption (D).
  public var stateCorrelation: Double = 0.2
  /// Person-to-person spread of the delay to opening a prompt: each person's delays are
  /// ``openDelay`` times a lognormal factor with this sigma. Default 0.7 (assumption, D;
  /// with ``openDelay`` and ``openDelaySigma`` calibrated to the m-Path example study's median
  /// of 3.5 minutes from sending to starting, [@mpathrExample], C).
  public var speedSD: Double = 0.7
  /// Answering a survey breaks off at this rate per minute of answering past its first item
  /// (the survey ends with the items answered so far; a one-item survey never does). Default
  /// 0.02: 92.6 % of started surveys completed in Dunton et al.'s EMA with a 20-item survey
  /// assumed ([@Dunton2018], A for the figure; calibrated, D).
  public var breakOffPerMinute: Double = 0.02
  /// Seconds each item after the first adds to a survey's answering time (``completion``
  /// is the median for a one-item survey). Default 7 (assumption, D: a 15-item survey takes
  /// about two and a half minutes, within Businelle et al. 2024's "approximately 1-3 minutes"
  /// for 15 or 25 items, [@Businelle2024]).
  public var secondsPerItem: Double = 7
  /// The burden of length: the odds of answering are multiplied by exp(−effect × minutes)
  /// for each minute of the survey's median answering time beyond the first. Default 0.07
  /// (D): longer surveys are answered less ([@Eisele2022], A for the direction), by about 2
  /// points for 25 against 15 items ([@Businelle2024], not significant) and up to 15 points
  /// beyond 26 items ([@Williams2021], 4 samples): 60 against 30 items costs about 8 points.
  public var lengthEffect: Double = 0.07
  /// The burden of density: each prompt noticed adds one to a load that decays with
  /// ``densityWindow``; the odds of answering are multiplied by exp(−effect × load).
  /// Defaults 0.2 and 30 minutes (assumptions, D): prompts close together are answered less
  /// ([@Ohme2025], A for the direction); prompts an hour or more apart barely load, so the
  /// number a day alone moves compliance little ([@Eisele2022], [@Wrzus2023]).
  public var densityEffect: Double = 0.2
  public var densityWindow: SimTime = 30 * Tick.minute
  /// Odds ratio of answering a prompt at a fixed, known time (a `fixed-times` schedule)
  /// against a random one; such a prompt is also spared ``hourMultipliers`` (they describe
  /// random prompts). Default 1.5 (D), between Businelle et al. 2024's +1.0 point (not
  /// significant, [@Businelle2024]) and Tonkin et al. 2023's 86 % against 58 % for a
  /// scheduled morning prompt ([@Tonkin2023]).
  public var scheduledBoost: Double = 1.5

  /// The classes in force: ``classes`` or the one class the single-class keys describe.
  public var effectiveClasses: [ComplianceClass] {
    classes
      ?? [
        ComplianceClass(
          name: "all", share: 1, level: answerProbability, levelSD: personSD, declinePerWeek: declinePerWeek,
          declineSD: declineSD)
      ]
  }
  /// The decline over study days at its start, relative per day. Default 0.04: with
  /// ``declineLimit`` the first days' multiplier on day 5 is 0.937, Rintala et al. 2019's 78 %
  /// falling to 73 % by day 5 (73/78 = 0.936; [@Rintala2019], A for the figures; the shape
  /// is an assumption, D).
  public var declinePerDay: Double = 0.04
  /// How far the first days' decline goes: it levels off at this share below the first
  /// day's probability (multiplier 1 − L·(1 − e^(−r·day/L)), starting at the rate r =
  /// ``declinePerDay``); the decline over weeks is each class's (``ComplianceClass``).
  /// Default 0.07 (assumption, D, bounded by the meta-analyses: Jones et al. 2019 over 126
  /// studies and Vachon et al. 2019 over 79 find no association of compliance with study
  /// length, Ottenstein & Werner 2022 over 488 a negative one; [@Jones2019], [@Vachon2019],
  /// [@Ottenstein2022]; with the classes' declines, Tonkin et al. 2023's weeks, [@Tonkin2023]).
  public var declineLimit: Double = 0.07
  /// Multipliers by hour of day (0…23), relative to the day's mean. Default: Rintala et al.
  /// 2019, lowest 07:30–09:00 (56 % against 78 %: 0.72), highest 12:00–13:30 (83 %: 1.06);
  /// lower in the evening (Rintala et al. 2020; 0.95 is an assumption); scaled so that they
  /// average 1 over 08:00–22:00.
  public var hourMultipliers: [Double] = CompliancePlan.defaultHourMultipliers
  /// Clustering of refusals: P(answer | previous decision to answer) − P(answer | previous
  /// refusal), the mean kept. Default 0.25 (D, in the direction of Rintala et al. 2020:
  /// consecutive misses predict further misses; calibrated with the classes to their 86 %
  /// answered after an answered beep, [@Rintala2020]).
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
  /// Median delay from noticing to opening a prompt (lognormal), for a person of median
  /// pace (``speedSD``), by hour of day shorter in the evening. Default 60 s (D, calibrated
  /// to the m-Path example study's 3.5-minute median from sending to starting,
  /// [@mpathrExample]; Pielot et al. 2014: notifications are viewed within minutes).
  public var openDelay: SimTime = 60 * Tick.second
  /// Spread of that delay (lognormal sigma). Default 1.2 (D: with ``speedSD``, a tail to
  /// the m-Path example's 90th percentile of about 20 minutes).
  public var openDelaySigma: Double = 1.2
  /// Median time to complete a prompt's items (lognormal). Default 45 s (MacKerron &
  /// Mourato 2013: a Mappiness response took about 20 s; longer surveys take longer;
  /// assumption).
  public var completion: SimTime = 45 * Tick.second
  /// Spread of the completion time (lognormal sigma). Default 0.5 (assumption).
  public var completionSigma: Double = 0.5
  /// Chance per study day that a participant drops out. Default 0.002 (assumption).
  public var dropoutPerDay: Double = 0.002
  /// Volunteered answers (no prompt pending) per day, when the protocol allows them.
  /// Default 0.05 (assumption; Mappiness allows them and excludes them from analysis).
  public var volunteeredPerDay: Double = 0.05

  /// Creates the defaults.
  public init() {}

  /// The default population: most participants answer nearly every prompt they notice and
  /// decline slowly; a minority answers less, with a wide spread, and declines fast
  /// (``ComplianceClass``). Shapes after März et al. 2025 (stable upper classes, falling
  /// lower ones; [@Marz2025], C); sizes calibrated (D) to the typical study's 79 % answered
  /// (Wrzus & Neubauer 2023), a between-person sd near Businelle et al. 2024's 13.5 points
  /// (adults, 28 days), Rintala et al. 2019's day-5 decline and Tonkin et al. 2023's slow
  /// decline over weeks (`docs/validation.md` §7).
  public static let defaultClasses = [
    ComplianceClass(name: "engaged", share: 0.88, level: 0.998, levelSD: 0.002, declinePerWeek: 0.025, declineSD: 0.05),
    ComplianceClass(name: "less engaged", share: 0.12, level: 0.72, levelSD: 0.22, declinePerWeek: 0.15, declineSD: 0.2),
  ]

  /// Rintala et al. 2019 by hour: 0.72 from 07:00 to 08:59, 1.06 from 12:00 to 13:59,
  /// 0.95 from 19:00, 1.0 otherwise.
  public static let defaultHourMultipliers: [Double] = {
    let raw: [Double] = (0..<24).map { h in
      switch h {
      case 7, 8: 0.72
      case 12, 13: 1.06
      case 19...23: 0.95
      default: 1.0
      }
    }
    let mean = raw[8..<22].reduce(0, +) / 14
    return raw.map { $0 / mean }
  }()
}

/// A latent class of participants by how they answer over a study (März et al. 2025 found
/// four in a youth app: stable high, stable medium, high at first and falling, low and
/// falling): its share, the mean first-day probability of answering a noticed prompt and
/// its sd between the class's people, and the relative decline per week beyond the first
/// days with its sd between people.
public struct ComplianceClass: Sendable, Equatable {
  public var name: String
  public var share: Double
  public var level: Double
  public var levelSD: Double
  public var declinePerWeek: Double
  public var declineSD: Double

  public init(name: String, share: Double, level: Double, levelSD: Double, declinePerWeek: Double, declineSD: Double) {
    self.name = name
    self.share = share
    self.level = level
    self.levelSD = levelSD
    self.declinePerWeek = declinePerWeek
    self.declineSD = declineSD
  }
}
