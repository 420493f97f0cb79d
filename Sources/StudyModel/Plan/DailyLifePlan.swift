import SimKernel

/// A participant's days: sleep, the daily-life context process, and the latent state.
///
/// Every default names its source or says it is an assumption; `docs/model.md` lists them.
public struct DailyLifePlan: Sendable, Equatable {
  /// Mean wake time on weekdays, after midnight. Default 07:00: ATUS 2017–23 working
  /// adults wake about 06:30 and sleep about 8.5 h ([@ATUS], grade C/D for the
  /// secondary summary); a mid value of the working and non-working population (assumption).
  public var weekdayWake: SimTime = 7 * Tick.hour
  /// Mean bedtime on weekdays, after midnight (may pass 24:00). Default 23:00
  /// (Fitbit: US mean bedtime 23:21, [@Fitbit2018]; ATUS workday bedtime about 23:00, [@ATUS]).
  public var weekdayBed: SimTime = 23 * Tick.hour
  /// Weekend shift of both times. Default 64 min (Fitbit: bedtime +64 min on weekends, [@Fitbit2018]; wake as much, [@ATUS]).
  public var weekendShift: SimTime = 64 * Tick.minute
  /// Person-to-person sd of the usual wake and bed times. Default 45 min (assumption).
  public var personSD: SimTime = 45 * Tick.minute
  /// Day-to-day sd around the person's usual times. Default 20 min (assumption).
  public var daySD: SimTime = 20 * Tick.minute

  /// Share of participants who go out to work or study on weekdays. Default 0.7
  /// (assumption; ACS: most working adults commute).
  public var worksOutside: Double = 0.7
  /// Share of commuters who travel by public transport (the rest drive). Default 0.45
  /// (assumption for an urban sample; most adults drive: 87.5 % of those 16 and over in 2014–2015, about 9 in 10 in 2019–2020, [@AAADrivingSurvey]).
  public var transitShare: Double = 0.45
  /// Share of a transit commuter's trips that go underground (no reception) for part of the
  /// way. Default 0.5 (assumption; MacKerron's thesis names underground rail as a cause of
  /// missing signals).
  public var undergroundShare: Double = 0.5
  /// Share of waking time in dead zones (no signal) outside underground trips.
  /// Default 0.02 (assumption, grade D: no published share of time without signal was found).
  public var deadZoneShare: Double = 0.02
  /// Mean one-way commute. Default 27.6 min ([@ACS2019], A).
  public var commute: SimTime = 27 * Tick.minute + 36 * Tick.second
  /// Phone calls a day (for prompts after a call, ``PhoneCalls``). Default 2 (assumption, D).
  public var callsPerDay: Double = 2

  /// The conditions of each context, indexed by ``Context/rawValue``.
  public var conditions: [ContextConditions] = DailyLifePlan.defaultConditions

  /// The latent momentary state (ground truth), for example affect on 0–100.
  public var state = StatePlan()

  /// Creates the defaults.
  public init() {}

  /// Defaults per context. Phone with participant: Dey et al. 2011, within arm's reach about
  /// 50 % and in the same room about 90 % of the time ([@Dey2011]; "with the participant" read as
  /// near enough to hear or check, 0.9 at home); the other values are assumptions in the
  /// direction of the thesis' five conditions and of Rintala et al. 2020 (away from home,
  /// lower response), documented in `docs/model.md`. Willingness is an odds ratio: work 0.8,
  /// with others 0.55, exercising 0.65 (what the earlier multipliers 0.95, 0.85 and 0.9 of a
  /// probability were at a willingness of 0.8; assumptions, D).
  public static let defaultConditions: [ContextConditions] = Context.allCases.map { c in
    switch c {
    case .asleep:
      ContextConditions(phoneWithParticipant: 0, hearing: 0, canAnswer: false, willingness: 0, wifi: 0.9, stateMean: 55)
    case .home:
      ContextConditions(phoneWithParticipant: 0.9, hearing: 1.0, canAnswer: true, willingness: 1.0, wifi: 0.9, stateMean: 62)
    case .work:
      ContextConditions(phoneWithParticipant: 0.9, hearing: 0.8, canAnswer: true, willingness: 0.8, wifi: 0.6, stateMean: 55)
    case .transit:
      ContextConditions(phoneWithParticipant: 0.98, hearing: 0.7, canAnswer: true, willingness: 1.0, wifi: 0.05, stateMean: 52)
    case .underground:
      ContextConditions(phoneWithParticipant: 0.98, hearing: 0.6, canAnswer: true, willingness: 1.0, wifi: 0, stateMean: 50)
    case .driving:
      ContextConditions(phoneWithParticipant: 0.95, hearing: 0.9, canAnswer: false, willingness: 1.0, wifi: 0, stateMean: 53)
    case .social:
      ContextConditions(phoneWithParticipant: 0.85, hearing: 0.5, canAnswer: true, willingness: 0.55, wifi: 0.3, stateMean: 70)
    case .exercise:
      ContextConditions(phoneWithParticipant: 0.6, hearing: 0.4, canAnswer: false, willingness: 0.65, wifi: 0.1, stateMean: 68)
    }
  }
}

/// The latent momentary state: an Ornstein–Uhlenbeck process whose mean follows the context,
/// sampled exactly (so the true time-average over the waking day is known).
public struct StatePlan: Sendable, Equatable {
  /// Person-to-person sd of the person's own level (added to every context mean).
  /// Default 8 (assumption).
  public var personSD: Double = 8
  /// Stationary sd of the moment-to-moment variation. Default 12 (assumption).
  public var sd: Double = 12
  /// Time constant of reversion to the context mean. Default 90 min (assumption).
  public var reversion: SimTime = 90 * Tick.minute
  /// sd of the noise in a report (the ESM answer) around the true state. Default 5
  /// (assumption).
  public var reportNoise: Double = 5
  /// A moment-level predictor of the state, recorded with each answer as a questionnaire
  /// item: whether the participant is with others (``CompanyPlan``). Off by default.
  public var company = CompanyPlan()

  /// Creates the defaults.
  public init() {}
}

/// Company ("with others") as a within-person predictor of the state, for power analyses:
/// each waking episode is spent with others with probability ``share``, and while with
/// others the state is higher by the person's own slope, drawn once from a normal around
/// ``slope`` with sd ``slopeSD`` (a fixed and a person-level random slope). The effect is
/// immediate and independent of the contexts' means, so the within-person difference in the
/// state between moments with and without company is the person's slope: the estimand is
/// ``slope`` exactly. Assumptions (D) all: off unless asked (share 0), and a scenario that
/// asks says what effect it plans for.
public struct CompanyPlan: Sendable, Equatable {
  /// Share of waking episodes spent with others (0: no company recorded, no draws).
  public var share = 0.0
  /// The fixed slope: the mean rise of the state with company (state units).
  public var slope = 0.0
  /// The person-to-person sd of the slope (the random slope).
  public var slopeSD = 0.0

  /// Creates the plan.
  public init(share: Double = 0, slope: Double = 0, slopeSD: Double = 0) {
    self.share = share
    self.slope = slope
    self.slopeSD = slopeSD
  }

  /// Whether company is drawn and recorded.
  public var isOn: Bool { share > 0 }
}
