import Presentation
import Study

extension SummaryRow {
  /// The row as CSV cells (`summary.csv`).
  public var cells: [String] {
    [
      variant, metric.name, Self.cell(mean), Self.cell(sd), Self.cell(ciLow), Self.cell(ciHigh), String(n),
      Self.cell(participantLow), Self.cell(participantHigh),
    ]
  }

  static func cell(_ x: Double) -> String { x.isFinite ? NumberText.exact(x) : "" }

  /// The row as JSON (`summary.json`).
  public var json: JSONValue {
    .object([
      ("variant", .string(variant)), ("metric", .string(metric.name)), ("mean", .finite(mean)), ("sd", .finite(sd)),
      ("ci_low", .finite(ciLow)), ("ci_high", .finite(ciHigh)), ("n", .int(n)),
      ("participant_ci_low", .finite(participantLow)), ("participant_ci_high", .finite(participantHigh)),
    ])
  }
}
