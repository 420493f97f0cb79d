import Foundation
import Study

/// A file of rows written as a platform writes its export: each row's fields made into a line
/// by the platform's own rule (`line`), lines joined by "\n", the file ending with `ending`
/// after the last; buffered.
final class RowFile {
  let handle: FileHandle
  let line: ([String]) -> String
  let ending: String
  var buffer = ""

  /// Creates the file at `path` with its first line (`prefix`, such as a byte-order mark,
  /// before the header's).
  init(_ path: String, header: [String], prefix: String = "", ending: String, line: @escaping ([String]) -> String) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else {
      throw StudyFailure("cannot write \(path)")
    }
    handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    self.line = line
    self.ending = ending
    buffer = prefix + line(header)
  }

  func write(_ fields: [String]) throws {
    buffer += "\n" + line(fields)
    if buffer.utf8.count > 1 << 16 { try flush() }
  }

  func flush() throws {
    try handle.write(contentsOf: Data(buffer.utf8))
    buffer = ""
  }

  func close() throws {
    buffer += ending
    try flush()
    try handle.close()
  }
}
