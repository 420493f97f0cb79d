import Foundation

/// How far real studies land from what esmsim's default people predict for their protocols:
/// the spread between studies that a planner without a pilot faces, said beside the answered
/// share wherever a run uses the default people.
///
/// The figure is the 95 % prediction interval of a new study's answered share around the
/// default people's prediction: t(0.975, n) times the root mean square of the leave-one-out
/// misses of the n studies of the real-study corpus (each study predicted by people fitted
/// without it; `make validate-real`, `docs/validation.md`, "Between studies"). That run says
/// whether this figure still matches it. The misses are of studies whose records nobody here
/// tuned the prediction to; what they hold is who took part, which no key of a protocol carries
/// (`docs/sources.md`, "Between studies").
public enum BetweenStudies {
  /// The half-width, in points of the answered share (percentage points).
  public static let answeredHalfWidthPoints = 14.6
  /// The studies whose misses set it.
  public static let studies = 9

  /// Whether `plan`'s people are esmsim's default people as to their level: the default
  /// classes, not moved by an `answer_probability` (a preset or a calibration writes both).
  public static func defaultPeople(_ plan: StudyPlan) -> Bool {
    plan.compliance.classes == CompliancePlan.defaultClasses && plan.compliance.answerProbability == nil
  }

  /// "±14.6 points".
  public static var halfWidth: String { "±\(String(format: "%.1f", answeredHalfWidthPoints)) points" }

  /// What is said beside a default people's answered share, in two lines (without the last
  /// newline).
  public static var sentence: String {
    "a real study lies within \(halfWidth) of their prediction for its protocol 95 % of the time\n"
      + "(\(studies) real studies, docs/validation.md); a pilot's fit (esmsim calibrate) predicted each study's "
      + "later days within 5 points"
  }
}
