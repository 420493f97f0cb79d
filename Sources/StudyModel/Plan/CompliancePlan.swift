import SimKernel

/// Whether a participant who has noticed a prompt answers it, and how fast.
///
/// The probability of answering a noticed prompt is the person's own level (Beta-distributed
/// around ``answerProbability``) times a study-day decline, a time-of-day multiplier, the
/// context's willingness and (when switched on) a function of the latent state; misses
/// cluster through a two-state chain that keeps the mean (``missPersistence``). Defaults and
/// sources: [@Wrzus2023], [@Rintala2019], [@Rintala2020]; `docs/model.md`.
public struct CompliancePlan: Sendable, Equatable {
  /// The mean probability, on the first study day, that a participant who noticed a prompt
  /// and can answer does answer. Default 0.96: chosen so that the whole prompt life (delivery,
  /// noticing, expiry) gives the 79 % of prompts answered of the typical study (Wrzus &
  /// Neubauer 2023 meta-analysis: 6 a day for 7 days), here with a 60-minute answer window on
  /// phones in ordinary use (78 %), and day 5 of a 10-a-day study within Rintala et al. 2019's
  /// 68–77 %; shorter windows answer less (30 minutes: 72 %, 15: 65 %).
  /// `docs/validation.md` shows the calibration and what each step of a prompt's life takes.
  public var answerProbability: Double = 0.96
  /// Person-to-person sd of that probability. Default 0.08 (assumption; Martinez et al. 2021
  /// find large differences between people).
  public var personSD: Double = 0.08
  /// The decline over study days at its start, relative per day. Default 0.016: Rintala et
  /// al. 2019, 78 % falling to 73 % by day 5 (−1.25 points a day in the first days).
  public var declinePerDay: Double = 0.016
  /// How far the decline goes: it levels off at this share below the first day's
  /// probability (multiplier 1 − L·(1 − e^(−r·day/L)), starting at the rate r =
  /// ``declinePerDay``). Default 0.15 (assumption, D, bounded by the meta-analyses: Jones et
  /// al. 2019 over 126 studies and Vachon et al. 2019 over 79 find no association of
  /// compliance with study length, Ottenstein & Werner 2022 over 488 a negative one; a
  /// linear decline would put a 28-day study 15 points below a 7-day one; [@Jones2019],
  /// [@Vachon2019], [@Ottenstein2022]).
  public var declineLimit: Double = 0.15
  /// Multipliers by hour of day (0…23), relative to the day's mean. Default: Rintala et al.
  /// 2019, lowest 07:30–09:00 (56 % against 78 %: 0.72), highest 12:00–13:30 (83 %: 1.06);
  /// lower in the evening (Rintala et al. 2020; 0.95 is an assumption); scaled so that they
  /// average 1 over 08:00–22:00.
  public var hourMultipliers: [Double] = CompliancePlan.defaultHourMultipliers
  /// Clustering of refusals: P(answer | previous decision to answer) − P(answer | previous
  /// refusal), the mean kept. Default 0.15 (assumption in the direction of Rintala et al.
  /// 2020: consecutive misses predict further misses).
  public var missPersistence: Double = 0.15
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
  /// Median delay from noticing to opening a prompt (lognormal). Default 20 s
  /// (assumption; Pielot et al. 2014: notifications are viewed within minutes).
  public var openDelay: SimTime = 20 * Tick.second
  /// Spread of that delay (lognormal sigma). Default 1.0 (assumption).
  public var openDelaySigma: Double = 1.0
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
