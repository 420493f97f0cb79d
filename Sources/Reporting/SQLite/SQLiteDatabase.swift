internal import CSQLite

/// A minimal SQLite writer for `results.sqlite`: tables created from column lists, rows
/// inserted through prepared statements inside one transaction.
public final class SQLiteDatabase {
  /// The database file.
  public let path: String
  var db: OpaquePointer?
  var statements: [String: OpaquePointer] = [:]

  /// An error from SQLite, naming the file.
  public struct Failure: Error, CustomStringConvertible {
    public let path: String
    public let message: String
    public var description: String { "cannot write \(path): \(message)" }
  }

  /// Creates (or replaces) the database and starts a transaction.
  public init(path: String) throws {
    self.path = path
    if sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) != SQLITE_OK {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
      sqlite3_close(db)
      db = nil
      throw Failure(path: path, message: message)
    }
    try exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN")
  }

  deinit {
    for s in statements.values { sqlite3_finalize(s) }
    sqlite3_close(db)
  }

  func fail() -> Failure {
    Failure(path: path, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
  }

  /// Runs SQL.
  public func exec(_ sql: String) throws {
    if sqlite3_exec(db, sql, nil, nil, nil) != SQLITE_OK { throw fail() }
  }

  /// A column: its name and SQL type (TEXT, INTEGER or REAL).
  public typealias Column = (name: String, type: String)

  /// Creates a table.
  public func createTable(_ name: String, _ columns: [Column]) throws {
    let cols = columns.map { "\"\($0.name)\" \($0.type)" }.joined(separator: ", ")
    try exec("CREATE TABLE \"\(name)\" (\(cols))")
    var stmt: OpaquePointer?
    let marks = Array(repeating: "?", count: columns.count).joined(separator: ", ")
    if sqlite3_prepare_v2(db, "INSERT INTO \"\(name)\" VALUES (\(marks))", -1, &stmt, nil) != SQLITE_OK { throw fail() }
    statements[name] = stmt
  }

  /// Inserts a row of text cells (an empty cell is NULL; the column's type converts numbers).
  public func insert(_ table: String, _ cells: [String]) throws {
    guard let stmt = statements[table] else { throw Failure(path: path, message: "no table \(table)") }
    sqlite3_reset(stmt)
    for (i, c) in cells.enumerated() {
      if c.isEmpty {
        sqlite3_bind_null(stmt, Int32(i + 1))
      } else {
        sqlite3_bind_text(stmt, Int32(i + 1), c, -1, esmsim_sqlite_transient())
      }
    }
    if sqlite3_step(stmt) != SQLITE_DONE { throw fail() }
  }

  /// Commits and closes.
  public func close() throws {
    try exec("COMMIT")
    for s in statements.values { sqlite3_finalize(s) }
    statements = [:]
    if sqlite3_close(db) != SQLITE_OK { throw fail() }
    db = nil
  }
}
