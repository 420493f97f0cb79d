import Foundation

/// A CSV file read for a pilot's records (RFC 4180: fields separated by commas, or the
/// `separator` given, quoted with double quotes, a doubled quote inside; LF or CRLF line
/// ends; a byte-order mark skipped), each field with where it starts, so that every problem
/// can name its line and column. Bounded: at most ``maxFields`` fields and ``maxBytes`` bytes.
struct CSVText {
  /// A field and where it starts (1-based line and column).
  struct Field {
    var text: String
    var line: Int
    var column: Int
  }

  /// The header's names, and the records after it.
  let header: [String]
  let records: [[Field]]
  let file: String

  static let maxBytes = Pilot.maxFileBytes
  static let maxFields = 20_000_000
  /// The most columns a header (and so a record) may have: a pilot's export has a column per
  /// item at most; wider is refused as it is read.
  static let maxColumns = 10_000

  /// The line and column (in bytes) of the first byte that is not UTF-8, where a file is not.
  static func firstInvalidUTF8(_ data: Data) -> ScenarioValue.Location? {
    var (line, lineStart, offset) = (1, 0, 0)
    var bytes = data.makeIterator()
    var parser = Unicode.UTF8.ForwardParser()
    while true {
      switch parser.parseScalar(from: &bytes) {
      case .valid(let scalar):
        offset += scalar.count
        if scalar.count == 1 && scalar.first == 0x0A { (line, lineStart) = (line + 1, offset) }
      case .error: return .init(line: line, column: offset - lineStart + 1)
      case .emptyInput: return nil
      }
    }
  }

  /// Reads `data`. With `ragged`, a record shorter than the header is read with its missing
  /// trailing fields empty (m-Path leaves them out); a longer one is refused either way.
  init(_ data: Data, file: String, separator: Unicode.Scalar = ",", ragged: Bool = false) throws(ScenarioError) {
    self.file = file
    guard data.count <= Self.maxBytes else {
      throw ScenarioError(file: file, "the file has \(data.count) bytes; at most \(Self.maxBytes) are read")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ScenarioError(file: file, at: Self.firstInvalidUTF8(data), "the file is not UTF-8 text (saved in another encoding? save it as UTF-8)")
    }
    var rows: [[Field]] = []
    var row: [Field] = []
    var field = ""
    var quoted = false
    var inQuotes = false
    var line = 1
    var column = 1
    var start = (line: 1, column: 1)
    var fields = 0
    var chars = Array(text.unicodeScalars)
    if chars.first == "\u{FEFF}" { chars.removeFirst() }  // a byte-order mark
    var i = 0
    func endField() throws(ScenarioError) {
      fields += 1
      guard fields <= Self.maxFields else {
        throw ScenarioError(file: file, at: .init(line: line, column: column), "more than \(Self.maxFields) fields")
      }
      guard row.count < Self.maxColumns else {
        throw ScenarioError(file: file, at: .init(line: line, column: column), "a line of more than \(Self.maxColumns) fields (columns)")
      }
      row.append(Field(text: field, line: start.line, column: start.column))
      field = ""
      quoted = false
    }
    while i < chars.count {
      let c = chars[i]
      if inQuotes {
        if c == "\"" {
          if i + 1 < chars.count && chars[i + 1] == "\"" {
            field.unicodeScalars.append("\"")
            i += 2
            column += 2
            continue
          }
          inQuotes = false
        } else {
          field.unicodeScalars.append(c)
          if c == "\n" {
            line += 1
            column = 0
          }
        }
      } else if c == "\"" {
        guard field.isEmpty && !quoted else {
          throw ScenarioError(file: file, at: .init(line: line, column: column), "a quote inside an unquoted field")
        }
        inQuotes = true
        quoted = true
      } else if c == separator {
        try endField()
        start = (line, column + 1)
      } else if c == "\n" || c == "\r" {
        if c == "\r" && i + 1 < chars.count && chars[i + 1] == "\n" { i += 1 }
        try endField()
        rows.append(row)
        row = []
        line += 1
        column = 0
        start = (line, 1)
      } else {
        guard !quoted else {
          throw ScenarioError(file: file, at: .init(line: line, column: column), "text after a closing quote")
        }
        field.unicodeScalars.append(c)
      }
      i += 1
      column += 1
    }
    if inQuotes { throw ScenarioError(file: file, at: .init(line: start.line, column: start.column), "a quoted field is not closed") }
    if !field.isEmpty || quoted || !row.isEmpty {
      try endField()
      rows.append(row)
    }
    // Blank lines (one empty field) are skipped.
    rows.removeAll { $0.count == 1 && $0[0].text.isEmpty }
    guard let first = rows.first else { throw ScenarioError(file: file, "the file is empty: expected a header line") }
    header = first.map(\.text)
    var seen: Set<String> = []
    for f in first where !seen.insert(f.text).inserted {
      throw ScenarioError(file: file, key: f.text, at: .init(line: f.line, column: f.column), "the header names column \(f.text.prefix(40)) twice")
    }
    var records = Array(rows.dropFirst())
    for (k, r) in records.enumerated() where r.count != header.count {
      guard ragged && r.count < header.count else {
        throw ScenarioError(
          file: file, at: .init(line: r[0].line, column: 1),
          "a record of \(r.count) fields under a header of \(header.count)")
      }
      let end = r[r.count - 1]
      let pad = Field(text: "", line: end.line, column: end.column + end.text.count + 1)
      records[k] += Array(repeating: pad, count: header.count - r.count)
    }
    self.records = records
  }

  /// The separator of a header line: the commonest of comma, semicolon and tab outside
  /// quotes (a comma when none).
  static func separator(of data: Data) -> Unicode.Scalar {
    let line = data.prefix(65_536).split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false).first ?? Data()
    var counts: [UInt8: Int] = [:]
    var quoted = false
    for b in line {
      if b == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted { counts[b, default: 0] += 1 }
    }
    let best = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")].max { (counts[$0] ?? 0) < (counts[$1] ?? 0) }!
    return (counts[best] ?? 0) > 0 ? Unicode.Scalar(best) : ","
  }

  /// The index of a column, nil when the header has none of that name.
  func optionalColumn(_ name: String) -> Int? { header.firstIndex(of: name) }

  /// A field's text, refused when blank (`what`: the record without it, "a prompt without its
  /// participant").
  func nonBlank(_ f: Field, _ name: String, _ what: String) throws(ScenarioError) -> String {
    guard !f.text.trimmingCharacters(in: .whitespaces).isEmpty else { throw error(f, name, what) }
    return f.text
  }

  /// A field as a whole number, nil when empty.
  func optionalInteger(_ f: Field, _ name: String) throws(ScenarioError) -> Int64? {
    f.text.trimmingCharacters(in: .whitespaces).isEmpty ? nil : try integer(f, name)
  }

  /// An error at a field.
  func error(_ f: Field, _ name: String, _ message: String) -> ScenarioError {
    ScenarioError(file: file, key: name, at: .init(line: f.line, column: f.column), message)
  }

  /// The index of a column the format needs.
  func column(_ name: String) throws(ScenarioError) -> Int {
    guard let k = header.firstIndex(of: name) else {
      throw ScenarioError(
        file: file, key: name, at: .init(line: 1, column: 1), "the header has no column \(name) (it has \(header.prefix(20).map { String($0.prefix(40)) }.joined(separator: ", "))\(header.count > 20 ? ", … \(header.count) in all" : ""))")
    }
    return k
  }

  /// A field as a time in milliseconds since 1970 within `range`.
  func time(_ f: Field, _ name: String, in range: ClosedRange<Int64>) throws(ScenarioError) -> Int64 {
    let t = try integer(f, name)
    guard range.contains(t) else {
      throw ScenarioError(
        file: file, key: name, at: .init(line: f.line, column: f.column),
        "\(t) is not a time between 2000 and 2100 in milliseconds since 1970 (UTC)")
    }
    return t
  }

  /// A field as a whole number.
  func integer(_ f: Field, _ name: String) throws(ScenarioError) -> Int64 {
    guard let x = Int64(f.text.trimmingCharacters(in: .whitespaces)) else {
      throw ScenarioError(file: file, key: name, at: .init(line: f.line, column: f.column), "expected a whole number, found '\(f.text.prefix(40))'")
    }
    return x
  }
}
