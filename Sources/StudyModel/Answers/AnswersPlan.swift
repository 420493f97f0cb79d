import SimKernel

/// The answers researchers analyse (`population.variables`, `population.person_predictors`,
/// `population.careless`, `protocol.items`): named momentary variables with their own
/// dynamics in continuous time and effects between them, person-level predictors, and the
/// questionnaire's items that measure them. Empty (no variables): nothing is drawn and
/// nothing written. The model is described in `docs/power.md`.
public struct AnswersPlan: Sendable, Equatable {
  /// The momentary variables, in order: a contemporaneous effect names an earlier variable.
  public var variables: [VariablePlan] = []
  /// Person-level (level-2) predictors, drawn once per participant.
  public var predictors: [PersonPredictor] = []
  /// The items of the questionnaire, each measuring one variable.
  public var items: [ItemPlan] = []
  /// Careless responding.
  public var careless = CarelessPlan()

  public init() {}

  /// Whether the scenario declares variables (and so `answers.csv` can be written).
  public var isOn: Bool { !variables.isEmpty }

  /// Whether a variable takes an effect of the engine's latent state (``EffectPlan/state``):
  /// then the simulation records the state's deviation at every prompt's due time
  /// (``PromptRecord/dueDeviation``).
  public var readsState: Bool { variables.contains { $0.effects.contains { $0.source == EffectPlan.state } } }
}

/// A person-level predictor: normal with its mean and sd (for example a trait score).
public struct PersonPredictor: Sendable, Equatable {
  public var name: String
  public var mean: Double
  public var sd: Double

  public init(name: String, mean: Double, sd: Double) {
    self.name = name
    self.mean = mean
    self.sd = sd
  }
}

/// An effect of one variable on another, fixed with a person-level spread, and how
/// person-level predictors move it (cross-level interactions): a person's slope is
/// `slope + Σ by·(predictor − its mean) + N(0, slopeSD)`.
public struct EffectPlan: Sendable, Equatable {
  /// The source that stands for the engine's latent state (`population.state`, the state
  /// `state_dependence` makes answering depend on): its momentary deviation from the person's
  /// level in their context, in sds, when the prompt falls due (company's effect included).
  /// A variable that takes it answers to the same moments as the answering does: answers
  /// missing not at random.
  public static let state = -1
  /// The variable that acts (its index in ``AnswersPlan/variables``), or ``state``.
  public var source: Int
  public var slope: Double
  public var slopeSD: Double
  /// Cross-level interactions: (predictor index, change of the slope per unit of it).
  public var by: [Moderation]

  public init(source: Int, slope: Double, slopeSD: Double = 0, by: [Moderation] = []) {
    self.source = source
    self.slope = slope
    self.slopeSD = slopeSD
    self.by = by
  }
}

/// A person-level predictor's weight on a person's mean or slope.
public struct Moderation: Sendable, Equatable {
  /// The predictor (its index in ``AnswersPlan/predictors``).
  public var predictor: Int
  public var weight: Double

  public init(predictor: Int, weight: Double) {
    self.predictor = predictor
    self.weight = weight
  }
}

/// A momentary variable: a person's mean (the population's mean, moved by person-level
/// predictors, plus a normal spread), an Ornstein–Uhlenbeck fluctuation around it with its
/// time constant (the autocorrelation over Δ is e^(−Δ/reversion)) and stationary sd, effects
/// of earlier variables at the same moment and lagged effects in continuous time.
public struct VariablePlan: Sendable, Equatable {
  public enum Kind: String, Sendable, CaseIterable { case continuous, binary, ordinal }

  public var name: String
  /// Continuous; binary: 1 when the continuous latent (mean, spread, fluctuation, effects)
  /// is above 0; ordinal: its category 1…K, 1 plus the number of ``cuts`` the latent is above.
  public var kind: Kind = .continuous
  /// An ordinal variable's cut points on its latent scale, ascending (K − 1 of them).
  public var cuts: [Double] = []
  public var mean: Double
  /// The sd of the person means between people.
  public var personSD: Double
  /// The stationary sd of the variable's own fluctuation within a person.
  public var sd: Double
  /// The fluctuation's time constant.
  public var reversion: SimTime
  /// The sd of the log time constant between people (0: everyone the same).
  public var reversionSpread: Double = 0
  /// Person-level predictors' effects on the person mean.
  public var personEffects: [Moderation] = []
  /// Effects of earlier variables at the same moment: `slope × (source − its person mean)`
  /// (a binary source: `slope × its 0/1 value`; an ordinal one: `slope × its category`).
  public var effects: [EffectPlan] = []
  /// Lagged effects in continuous time of earlier continuous variables: the variable's
  /// fluctuation is pulled toward `slope × (source's fluctuation)` at its own reversion rate,
  /// so its lag-Δ regression on the source rises from 0 and decays with Δ.
  public var lagged: [EffectPlan] = []

  /// The variable's value from its continuous latent: the latent, its 0/1 or its category.
  public func value(latent: Double) -> Double {
    switch kind {
    case .continuous: latent
    case .binary: latent > 0 ? 1 : 0
    case .ordinal: Double(1 + cuts.count { latent > $0 })
    }
  }

  public init(name: String, mean: Double, personSD: Double, sd: Double, reversion: SimTime) {
    self.name = name
    self.mean = mean
    self.personSD = personSD
    self.sd = sd
    self.reversion = reversion
  }
}

/// An item of the questionnaire: `intercept + loading × variable + N(0, errorSD)` on its
/// scale, shown at a share of prompts (planned missingness).
public struct ItemPlan: Sendable, Equatable {
  /// An item's answer scale.
  public enum Scale: Sendable, Equatable {
    /// The number as it is.
    case number
    /// A slider 0–100, rounded to whole points.
    case slider
    /// A Likert scale from `low` to `high`, rounded to its nearest point.
    case likert(low: Int, high: Int)
    /// Yes (1) when the number is above 0.5, else no (0).
    case yesNo
  }

  public var name: String
  /// The variable it measures (its index in ``AnswersPlan/variables``).
  public var variable: Int
  public var loading: Double = 1
  public var intercept: Double = 0
  public var errorSD: Double
  public var scale: Scale = .number
  /// The share of prompts that show the item (1: every prompt; below: planned missingness).
  public var shown: Double = 1

  public init(name: String, variable: Int, errorSD: Double) {
    self.name = name
    self.variable = variable
    self.errorSD = errorSD
  }

  /// The answer on the scale for the number `y`.
  public func answer(_ y: Double) -> Double {
    switch scale {
    case .number: y
    case .slider: min(max(y, 0), 100).rounded()
    case .likert(let low, let high): min(max(y.rounded(), Double(low)), Double(high))
    case .yesNo: y > 0.5 ? 1 : 0
    }
  }

  /// The answer at position `u` in [0, 1) of the scale (a careless, straight-lined answer);
  /// a number item keeps `y`.
  public func position(_ u: Double, otherwise y: Double) -> Double {
    switch scale {
    case .number: answer(y)
    case .slider: (100 * u).rounded()
    case .likert(let low, let high): Double(low + min(Int(u * Double(high - low + 1)), high - low))
    case .yesNo: u < 0.5 ? 0 : 1
    }
  }
}

/// Careless responding: a share of people, on a share of their prompts, straight-line (every
/// item at one position of its scale, the same for all items of that prompt), and, when
/// ``secondsPerItem`` is set, answer those prompts too fast: the survey's median answering
/// time is that many seconds an item (``Careless``).
public struct CarelessPlan: Sendable, Equatable {
  public var people: Double = 0
  public var prompts: Double = 1
  /// The median seconds an item of a careless answer (nil: as long as any answer).
  public var secondsPerItem: Double?

  public init(people: Double = 0, prompts: Double = 1, secondsPerItem: Double? = nil) {
    self.people = people
    self.prompts = prompts
    self.secondsPerItem = secondsPerItem
  }
}
