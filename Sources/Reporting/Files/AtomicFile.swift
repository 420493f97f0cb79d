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
    try requireRegular(path)
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

  /// Refuses to replace anything but a regular file (renaming over `/dev/full` or a folder
  /// would replace it).
  public static func requireRegular(_ path: String) throws(WriteError) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }  // nothing there yet
    if info.st_mode & S_IFMT != S_IFREG {
      let kind = info.st_mode & S_IFMT == S_IFDIR ? "a folder" : (info.st_mode & S_IFMT == S_IFLNK ? "a symbolic link" : "a device or special file")
      throw WriteError(path: path, reason: "it is \(kind), not a file; give the name of a file to create")
    }
  }

  /// Refuses a path that cannot be written as a file: its folder does not exist, or it is not
  /// a regular file (``requireRegular(_:)``). For checking an output before the work.
  public static func requireWritable(_ path: String) throws(WriteError) {
    let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
      throw WriteError(path: path, reason: "the folder \(parent) does not exist (create it first, or name a file in a folder that does)")
    }
    try requireRegular(path)
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
