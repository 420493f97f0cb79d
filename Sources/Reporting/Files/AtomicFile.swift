import Foundation

/// Writes files so that a reader never sees a half-written one: the bytes go to a temporary
/// name beside the destination, which is renamed over it only when complete.
public enum AtomicFile {
  /// An error writing a file, naming the file.
  public struct WriteError: Error, CustomStringConvertible {
    /// The file that could not be written.
    public let path: String
    /// Why.
    public let reason: String
    public var description: String { "cannot write \(path): \(reason)" }
  }

  /// Writes `data` to `path` atomically.
  public static func write(_ data: Data, to path: String) throws(WriteError) {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent()
      .appendingPathComponent(".\(url.lastPathComponent).tmp-\(ProcessInfo.processInfo.processIdentifier)")
    do {
      try data.write(to: temporary)
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(path: path, reason: Self.reason(error))
    }
    if rename(temporary.path, url.path) != 0 {
      let reason = String(cString: strerror(errno))
      try? FileManager.default.removeItem(at: temporary)
      throw WriteError(path: path, reason: reason)
    }
  }

  /// Writes `text` as UTF-8 to `path` atomically.
  public static func write(_ text: String, to path: String) throws(WriteError) {
    try write(Data(text.utf8), to: path)
  }

  static func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if ns.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(ns.code))) }
    return ns.localizedDescription
  }
}
