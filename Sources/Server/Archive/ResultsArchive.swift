import Study
import Presentation
import Foundation
import Reporting
import Scenarios

/// A scenario's results folder (what `esmsim run` writes) as a zip file, for the planner's
/// export. The folder and the zip are written into a private temporary folder
/// (`esmsim-serve-PID-UUID`), which is removed before the zip is sent: the zip stays readable
/// through its open descriptor and its space is freed when that is closed, whatever becomes
/// of the request. Folders of a server that died are removed when the next one starts.
enum ResultsArchive {
  /// The open archive: read it from `fd`, `size` bytes; closed when released.
  final class File: Sendable {
    let fd: Int32
    let size: Int
    init(fd: Int32, size: Int) {
      self.fd = fd
      self.size = size
    }
    deinit { close(fd) }
  }

  static let prefix = "esmsim-serve-"

  /// The results would not fit on the server's disk (twice: the folder and the archive).
  struct TooLarge: Error, CustomStringConvertible {
    var needed: Double
    var description: String {
      "the results of this study would take about \(WorkEstimate.size(needed)) (the files and their archive), more than the server's disk has free: ask for fewer participants, days or per-row outputs"
    }
  }

  /// The archive could not be read back while it was sent.
  struct ReadFailure: Error {}

  /// The server was asked to stop while the archive was made: nothing is left.
  struct Stopped: Error, CustomStringConvertible {
    var description: String { "the server is stopping" }
  }

  /// Simulates `scenario` and packs its results folder; `shouldStop` is polled between
  /// participants and between files (a server shutting down cancels it, leaving nothing).
  static func zip(
    _ scenario: Scenario, threads: Int, version: String, shouldStop: @escaping @Sendable () -> Bool = { false }
  ) throws -> File {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())-\(UUID().uuidString)")
    try fm.createDirectory(at: root, withIntermediateDirectories: false)
    defer { try? fm.removeItem(at: root) }
    // The results and the archive both take room; the refusal names no path of the server's.
    do {
      try StudyRun.checkSpace(scenario, in: root.path, for: "the results archive", copies: 2)
    } catch {
      throw TooLarge(needed: WorkEstimate.run(scenario, threads: 1).outputBytes * 1.1 * 2)
    }
    let folder = root.appendingPathComponent("results")
    let outcome: StudyRun.Outcome
    do {
      outcome = try StudyRun.run(scenario, to: folder.path, options: .init(threads: threads), version: version, shouldStop: shouldStop)
    } catch {
      if shouldStop() { throw Stopped() }
      throw error
    }
    let archivePath = root.appendingPathComponent("results.zip").path
    let fd = open(archivePath, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw ZipWriter.Failure(description: "cannot create the archive: \(String(cString: strerror(errno)))") }
    var keep = false
    defer { if !keep { close(fd) } }
    var writer = ZipWriter(fd: fd)
    for name in outcome.files {
      if shouldStop() { throw Stopped() }
      let path = folder.appendingPathComponent(name).path
      var isDir: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
      if isDir.boolValue {
        let subs = (fm.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
        for sub in subs {
          let full = (path as NSString).appendingPathComponent(sub)
          var d: ObjCBool = false
          if shouldStop() { throw Stopped() }
          if fm.fileExists(atPath: full, isDirectory: &d), !d.boolValue { try writer.add("results/\(name)/\(sub)", path: full) }
        }
      } else {
        try writer.add("results/\(name)", path: path)
      }
    }
    let size = try writer.finish()
    keep = true
    return File(fd: fd, size: Int(size))
  }

  /// Removes the temporary folders of servers that are no longer running.
  static func removeStale() {
    let fm = FileManager.default
    let tmp = fm.temporaryDirectory
    for name in (try? fm.contentsOfDirectory(atPath: tmp.path)) ?? [] where name.hasPrefix(prefix) {
      let pid = name.dropFirst(prefix.count).prefix { $0.isNumber }
      guard let p = Int32(pid), p != getpid(), kill(p, 0) != 0, errno == ESRCH else { continue }
      try? fm.removeItem(at: tmp.appendingPathComponent(name))
    }
  }
}
