/// What one scenario may ask for, beyond its participant-days (``WorkEstimate`` in
/// Reporting): counts a file can make large are bounded here and refused by key with a
/// located error, so that nothing downstream meets a count its types cannot hold or a
/// cost that grows without bound. Each number is a choice, documented in
/// `docs/scenario-reference.md` ("Limits").
public enum ScenarioLimits {
  /// Variants of one scenario (each is simulated and summarised in full).
  public static let variants = 1_000
  /// Signal schedules of one protocol: the schedules of its questionnaires, or those an
  /// imported file holds (an ESMira study's signal times, a PACO experiment's groups, a Beiwe
  /// study's surveys). A prompt's schedule is stored in 16 bits; this keeps well inside.
  public static let schedules = 1_000
  /// Clock signals a day of an imported protocol, all its schedules together: a scenario's
  /// own `per_day` is at most this (a signal a minute); an imported file's times are held to
  /// it too (150,000 copies of one AWARE hour ran as 150,000 signals a day).
  public static let signalsPerDay = 1_440
  /// Questionnaires of `protocol.questionnaires`.
  public static let questionnaires = 50
  /// Variables of `population.variables`, person-level predictors and items of
  /// `protocol.items` (each a column of `answers.csv`; the variables' dynamics solve an
  /// n²-by-n² system per participant).
  public static let variables = 12
  public static let predictors = 20
  public static let items = 100
}
