import Foundation

/// The results folder a run writes: where it goes, whether it may replace what is there, and
/// the lock that keeps a second run out while this one writes.
///
/// Rules (each refused with one message before anything is simulated):
/// - the folder's parent must exist; the folder itself must not be a symbolic link, a file,
///   `.`, `/`, the home folder, the working folder or one of its parents;
/// - an existing folder is replaced only with `force`, and only when it is empty or a results
///   folder esmsim wrote (its `manifest.json` is esmsim's, and it holds nothing the manifest
///   does not list), so that `--force` never removes a user's own files;
/// - one run at a time writes a folder: a lock file beside it (`.NAME.lock`, `flock`, released
///   by the system if the process dies) holds the writer's process id, and a second run is
///   refused at once, naming it;
/// - what an interrupted run left beside the folder (`.NAME.partial-PID`, `.NAME.old-PID`) is
///   removed once the lock is held: no other run can be using it then.
public final class OutputFolder {
  /// The folder, as given and as an absolute, standardised path.
  public let given: String
  public let url: URL
  /// The open, locked lock file and its path.
  private let lockDescriptor: Int32
  private let lockPath: String

  /// A problem with the destination.
  public typealias Failure = StudyRun.Failure

  /// Checks `directory` against the rules above and takes its lock.
  public init(_ directory: String, force: Bool) throws(Failure) {
    given = directory
    guard !directory.isEmpty else { throw Failure("--output is empty: name the results folder to create") }
    let fm = FileManager.default
    let cwd = URL(fileURLWithPath: fm.currentDirectoryPath).standardizedFileURL.resolvingSymlinksInPath()
    let dest = URL(fileURLWithPath: directory).standardizedFileURL
    url = dest
    let parent = dest.deletingLastPathComponent()
    let name = dest.lastPathComponent
    var isDir: ObjCBool = false
    guard fm.fileExists(atPath: parent.path, isDirectory: &isDir), isDir.boolValue else {
      throw Failure("cannot write \(directory): the folder \(parent.path) does not exist (create it first, or name a folder in one that does)")
    }
    // Compared with links resolved, so that `..` or a link to the working folder is caught too.
    let resolved = parent.resolvingSymlinksInPath().appendingPathComponent(name).standardizedFileURL
    let home = URL(fileURLWithPath: NSHomeDirectory()).standardizedFileURL.resolvingSymlinksInPath()
    if name.isEmpty || name == "/" || name == "." || name == ".." || resolved.path == "/" || resolved.path == home.path
      || Self.isAncestor(resolved.path, of: cwd.path)
    {
      throw Failure(
        "refusing to write results to \(directory) (\(resolved.path)): it is the root, your home folder, or the working folder or one of its parents; name a new folder")
    }
    var info = stat()
    let exists = lstat(dest.path, &info) == 0
    if exists && info.st_mode & S_IFMT == S_IFLNK {
      let target = (try? fm.destinationOfSymbolicLink(atPath: dest.path)) ?? "?"
      throw Failure("\(directory) is a symbolic link (to \(target)); give the folder itself, or a new name")
    }
    if exists && info.st_mode & S_IFMT != S_IFDIR {
      throw Failure("\(directory) exists and is not a folder; choose another name")
    }
    // The lock, before anything beside the folder is looked at or removed.
    let lockPath = parent.appendingPathComponent(".\(name).lock").path
    let fd = try Self.lock(lockPath, folder: directory)
    do throws(Failure) {
      if exists {
        guard force else { throw Failure("\(directory) already exists; choose another folder or add --force to replace it") }
        try Self.checkReplaceable(dest, given: directory)
      }
      // What interrupted runs left behind: stale, since this run holds the lock.
      if let leftovers = try? fm.contentsOfDirectory(atPath: parent.path) {
        let (partial, old) = (".\(name).partial-", ".\(name).old-")
        for f in leftovers where f.hasPrefix(partial) || f.hasPrefix(old) {
          try? fm.removeItem(at: parent.appendingPathComponent(f))
        }
      }
    } catch {
      Self.unlock(fd, lockPath)
      throw error
    }
    self.lockPath = lockPath
    lockDescriptor = fd
  }

  deinit { Self.unlock(lockDescriptor, lockPath) }

  /// Whether `path` is `other` or one of its parents.
  static func isAncestor(_ path: String, of other: String) -> Bool {
    other == path || other.hasPrefix(path.hasSuffix("/") ? path : path + "/")
  }

  /// Refuses to replace a folder esmsim did not write: not empty and without esmsim's
  /// manifest, or holding entries the manifest does not list.
  static func checkReplaceable(_ dest: URL, given: String) throws(Failure) {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: dest.path) else {
      throw Failure("cannot read \(given) to check that it is a results folder")
    }
    if entries.isEmpty { return }
    let manifest = dest.appendingPathComponent("manifest.json")
    guard let data = fm.contents(atPath: manifest.path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      object["esmsim_version"] is String, let files = object["files"] as? [String]
    else {
      throw Failure(
        "\(given) is not a results folder esmsim wrote (no esmsim manifest.json); --force replaces only those, or an empty folder")
    }
    let listed = Set(files + ["manifest.json"])
    if let foreign = entries.sorted().first(where: { !listed.contains($0) }) {
      throw Failure(
        "\(given) holds \(foreign), which its manifest.json does not list; --force replaces only what esmsim wrote (move it out first)")
    }
    // A folder of files (beiwe/) must hold exactly what the manifest counted: a file a user
    // put inside is not removed.
    let counted = object["folders"] as? [String: Any] ?? [:]
    for name in entries.sorted() {
      var isDir: ObjCBool = false
      let path = dest.appendingPathComponent(name).path
      guard fm.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue else { continue }
      guard let record = counted[name] as? [String: Any], let n = record["files"] as? Int, let digest = record["paths_sha256"] as? String,
        let now = Manifest.FolderDigest.of(path, name: name), now.files == n, now.digest == digest
      else {
        throw Failure(
          "\(given)/\(name) holds files its manifest.json does not count (added or renamed since esmsim wrote them); --force replaces only what esmsim wrote (move them out first)")
      }
    }
  }

  /// Opens and locks the lock file; refuses, naming the holder, if another run has it.
  static func lock(_ path: String, folder: String) throws(Failure) -> Int32 {
    while true {
      let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
      guard fd >= 0 else { throw Failure("cannot write \(folder): cannot create \(path): \(String(cString: strerror(errno)))") }
      if flock(fd, LOCK_EX | LOCK_NB) != 0 {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &buffer, 31)
        close(fd)
        let pid = n > 0 ? String(decoding: buffer[..<n], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) : "?"
        throw Failure("\(folder) is being written by another esmsim run (pid \(pid)); wait for it, or choose another folder")
      }
      // The holder before us may have removed the file after we opened it: then lock afresh.
      var open = stat()
      var named = stat()
      if fstat(fd, &open) == 0 && stat(path, &named) == 0 && open.st_ino == named.st_ino && open.st_dev == named.st_dev {
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        return fd
      }
      close(fd)
    }
  }

  static func unlock(_ fd: Int32, _ path: String) {
    unlink(path)
    close(fd)
  }
}
