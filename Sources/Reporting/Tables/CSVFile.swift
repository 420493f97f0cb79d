import Presentation
import Foundation

/// A CSV file written row by row through a buffer, so that per-row outputs stream to disk
/// and memory does not grow with the study. Cells are quoted as RFC 4180 requires.
public final class CSVFile {
  /// The file's path.
  public let path: String
  let handle: FileHandle
  var buffer: [UInt8] = []
  static let flushSize = 1 << 20

  /// Creates (or truncates) the file and writes the header.
  public init(path: String, header: [String]) throws {
    self.path = path
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw AtomicFile.WriteError(path: path, reason: String(cString: strerror(errno)))
    }
    guard let h = FileHandle(forWritingAtPath: path) else {
      throw AtomicFile.WriteError(path: path, reason: "cannot open for writing")
    }
    handle = h
    buffer.reserveCapacity(Self.flushSize + 4096)
    try row(header)
  }

  /// Opens an existing file to add rows at its end (no header).
  public init(appendingTo path: String) throws {
    self.path = path
    guard let h = FileHandle(forWritingAtPath: path) else {
      throw AtomicFile.WriteError(path: path, reason: "cannot open for appending")
    }
    h.seekToEndOfFile()
    handle = h
    buffer.reserveCapacity(Self.flushSize + 4096)
  }

  /// Appends one row.
  public func row(_ cells: [String]) throws {
    for (i, c) in cells.enumerated() {
      if i > 0 { buffer.append(UInt8(ascii: ",")) }
      Self.append(c, to: &buffer)
    }
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= Self.flushSize { try flush() }
  }

  /// Writes what is buffered.
  public func flush() throws {
    guard !buffer.isEmpty else { return }
    do {
      try handle.write(contentsOf: buffer)
    } catch {
      throw AtomicFile.WriteError(path: path, reason: AtomicFile.reason(error))
    }
    buffer.removeAll(keepingCapacity: true)
  }

  /// Flushes and closes the file.
  public func close() throws {
    try flush()
    do { try handle.synchronize() } catch {
      throw AtomicFile.WriteError(path: path, reason: AtomicFile.reason(error))
    }
    try? handle.close()
  }

  /// A cell, quoted when it holds a comma, quote, or line break.
  static func append(_ cell: String, to out: inout [UInt8]) {
    let needsQuotes = cell.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
    if !needsQuotes {
      out.append(contentsOf: cell.utf8)
      return
    }
    out.append(UInt8(ascii: "\""))
    for b in cell.utf8 {
      if b == UInt8(ascii: "\"") { out.append(b) }
      out.append(b)
    }
    out.append(UInt8(ascii: "\""))
  }

  /// A whole table as text (small tables).
  public static func text(header: [String], rows: [[String]]) -> String {
    var out: [UInt8] = []
    for r in [header] + rows {
      for (i, c) in r.enumerated() {
        if i > 0 { out.append(UInt8(ascii: ",")) }
        append(c, to: &out)
      }
      out.append(UInt8(ascii: "\n"))
    }
    return String(decoding: out, as: UTF8.self)
  }
}
