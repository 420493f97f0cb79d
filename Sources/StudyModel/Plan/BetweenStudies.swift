import Foundation

/// How far real studies land from what people fitted to other studies predict for their
/// protocols (esmsim's default people are made so): the spread between studies that a planner
/// without a pilot faces, said beside the answered share wherever a run uses the default people.
///
/// The figure is the 95 % prediction interval of a new study's answered share, in percentage
/// points: t(0.975, n) times the root mean square of the leave-one-out misses of the n studies
/// of the real-study corpus (each study predicted by the median of the people fitted to the
/// other training studies, the way the default people are the median of all five;
/// `make validate-real`, `docs/validation.md`, "Between studies", which also gives the default
/// people's own misses and says whether this figure still matches the run). What the misses
/// hold is who took part, which no key of a protocol carries (`docs/sources.md`, "Between
/// studies").
public enum BetweenStudies {
  /// The half-width, in percentage points of the answered share.
  public static let answeredHalfWidthPoints = 14.6
  /// The studies whose misses set it.
  public static let studies = 9

  /// Whether `plan`'s people are esmsim's default people: every compliance key at its default.
  /// A preset, a calibration's block or a key of one's own (`looks_per_hour`, `busy`, …) makes
  /// them the scenario's own, and the figure is not said of them.
  public static func defaultPeople(_ plan: StudyPlan) -> Bool {
    plan.compliance == CompliancePlan()
  }

  /// "±14.6 percentage points".
  public static var halfWidth: String { "±\(String(format: "%.1f", answeredHalfWidthPoints)) percentage points" }

  /// Where a real study's answered share lies 95 % of the time around `share`, the default
  /// people's (a share 0–1), held within 0–1.
  public static func range(around share: Double) -> ClosedRange<Double> {
    let h = answeredHalfWidthPoints / 100
    return max(0, share - h)...min(1, share + h)
  }
}
