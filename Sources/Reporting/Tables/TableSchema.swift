import Foundation
import Presentation

/// A table of the results folder, its columns and their types declared once: the CSV header,
/// SQLite's column types, and the `tables` entry of `manifest.json`, which the R package reads
/// instead of restating them.
public struct TableSchema: Sendable {
  /// A column's type as the readers should take it.
  public enum ColumnType: String, Sendable {
    /// Text.
    case text
    /// A whole number (counts, indices).
    case integer
    /// A real number.
    case real
    /// 0 or 1 (empty: unknown).
    case flag
    /// A local clock time, `YYYY-MM-DDTHH:MM:SS.mmm` (the participant's own clock).
    case time
    /// Unix milliseconds (AWARE's and Beiwe's own files).
    case unixMilliseconds = "unix_ms"

    /// The SQLite column type.
    var sqlite: String {
      switch self {
      case .integer, .flag, .unixMilliseconds: "INTEGER"
      case .real: "REAL"
      case .text, .time: "TEXT"
      }
    }
  }

  /// The table's name (in SQLite and the manifest) and its CSV file.
  public let name: String
  public let file: String
  public let columns: [(name: String, type: ColumnType)]

  public var header: [String] { columns.map(\.name) }
  var sqliteColumns: [SQLiteDatabase.Column] { columns.map { ($0.name, $0.type.sqlite) } }

  /// The manifest's description of the table.
  var json: JSONValue {
    .object([
      ("file", .string(file)),
      ("columns", .array(columns.map { .object([("name", .string($0.name)), ("type", .string($0.type.rawValue))]) })),
    ])
  }

  init(_ name: String, file: String, _ columns: [(String, ColumnType)]) {
    self.name = name
    self.file = file
    self.columns = columns.map { (name: $0.0, type: $0.1) }
  }

  /// `prompts.csv`, with the company columns when a variant records company.
  public static func prompts(company: Bool) -> TableSchema {
    TableSchema(
      "prompts", file: "prompts.csv",
      [
        ("variant", .text), ("replication", .integer), ("participant", .integer), ("prompt", .integer), ("day", .integer),
        ("questionnaire", .text), ("scheduled", .time), ("delivered", .time), ("noticed", .time), ("opened", .time),
        ("submitted", .time), ("status", .text), ("reason", .text), ("latency_s", .real), ("context", .text),
        ("true_state", .real), ("reported_state", .real), ("reached", .real), ("received", .flag), ("volunteered", .flag),
      ] + (company ? [("with_others", .flag), ("due_state", .real), ("due_with_others", .flag)] : []))
  }

  /// `answers.csv`: a row per prompt with the person-level predictors, the variables' true
  /// values and the items' answers (``AnswersPlan``), named by the scenario.
  public static func answers(predictors: [String], variables: [String], items: [String]) -> TableSchema {
    TableSchema(
      "answers", file: "answers.csv",
      [
        ("variant", .text), ("replication", .integer), ("participant", .integer), ("prompt", .integer), ("day", .integer),
        ("questionnaire", .text), ("scheduled", .time), ("status", .text), ("answered", .flag), ("careless", .flag),
      ] + (predictors + variables + items).map { ($0, ColumnType.real) })
  }

  /// `coverage.csv`.
  public static let coverage = TableSchema(
    "coverage", file: "coverage.csv",
    [
      ("variant", .text), ("replication", .integer), ("participant", .integer), ("device", .text), ("os", .text),
      ("day", .integer), ("hour", .integer), ("sensor", .text), ("expected", .integer), ("collected", .integer),
      ("received", .integer), ("status", .text),
    ])

  /// `participants.csv`.
  public static let participants = TableSchema(
    "participants", file: "participants.csv",
    [
      ("variant", .text), ("replication", .integer), ("participant", .integer), ("device", .text), ("os", .text),
      ("time_zone", .text), ("scheduled", .integer), ("signals", .integer), ("completed", .integer), ("response_rate", .real),
      ("median_response_s", .real), ("volunteered", .integer), ("reported_mean", .real), ("true_mean", .real), ("bias", .real),
      ("dropped_out", .flag), ("class", .text), ("willingness", .real), ("first_days_change", .real), ("weekly_change", .real),
      ("looks_per_hour", .real), ("at_once", .real), ("busy", .real), ("break_off_per_minute", .real), ("joined", .text),
      ("own_times_shift", .real),
    ])

  /// `aware_esm.csv`: AWARE's `esms` table.
  public static let aware = TableSchema(
    "aware_esm", file: "aware_esm.csv",
    AWAREESMRows.header.map { name in
      let type: ColumnType =
        switch name {
        case "timestamp", "esmAnswerTime", "esmNotificationTime": .unixMilliseconds
        case "id", "timezone", "jsonVersion", "esmType", "esmStatus": .integer
        default: .text
        }
      return (name, type)
    })

  /// `summary.csv`.
  public static let summary = TableSchema(
    "summary", file: "summary.csv",
    [
      ("variant", .text), ("metric", .text), ("mean", .real), ("sd", .real), ("ci_low", .real), ("ci_high", .real),
      ("n", .integer), ("participant_ci_low", .real), ("participant_ci_high", .real),
    ])

  /// `coverage_summary.csv`.
  public static let coverageSummary = TableSchema(
    "coverage_summary", file: "coverage_summary.csv",
    [("variant", .text), ("device", .text), ("sensor", .text), ("comp", .real), ("incomp", .real), ("loss", .real)])
}

/// Where a table's rows go: its CSV file, its SQLite table, or both; one `row` call feeds both.
public final class TableSink {
  public let schema: TableSchema
  let csv: CSVFile?
  let sqlite: SQLiteDatabase?

  /// Opens the table's CSV file in `directory` (when `csv`) and creates its SQLite table (when
  /// a database is given).
  init(_ schema: TableSchema, directory: String?, sqlite: SQLiteDatabase?) throws {
    self.schema = schema
    csv = try directory.map { try CSVFile(path: ($0 as NSString).appendingPathComponent(schema.file), header: schema.header) }
    self.sqlite = sqlite
    try sqlite?.createTable(schema.name, schema.sqliteColumns)
  }

  /// Writes one row, in the schema's column order.
  func row(_ cells: [String]) throws {
    try csv?.row(cells)
    try sqlite?.insert(schema.name, cells)
  }

  func close() throws { try csv?.close() }
}
