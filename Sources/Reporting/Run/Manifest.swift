import Presentation
import Foundation
import Scenarios
import SimKernel
import StudyModel

/// `manifest.json`: what produced a results folder (STRESS-DES asks simulation reports to
/// say how seeds and streams were allocated). It holds nothing that changes between runs of
/// the same scenario and seed on the same platform and toolchain (no wall times, no thread
/// counts), so the folder is byte-identical from run to run.
public enum Manifest {
  /// The manifest of a run.
  /// `tables`: the tables written, each with its columns' types (what the R package reads
  /// them by).
  public static func json(
    scenario: Scenario, version: String, files: [String], tables: [TableSchema] = [], folders: [FolderDigest] = []
  ) -> JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("esmsim_version", .string(version)),
      ("scenario", .object([("name", .string(scenario.name)), ("file", .string((scenario.file as NSString).lastPathComponent)), ("sha256", .string(scenario.hash))]
        // The protocol files it imports: the scenario's hash covers their bytes.
        + (scenario.imports.isEmpty ? [] : [("imports", .object(scenario.imports.map { ($0.name, .string($0.sha256)) }))]))),
      ("seed", .int(Int(scenario.seed))),
      ("replications", .int(scenario.replications)),
      ("start_date", .string(scenario.startDate.description)),
      ("variants", .array(scenario.variants.map { .string($0.name) })),
      // Each variant's answers target (`protocol.answers_target`): what "reaching" counts.
      ("answers_target", .object(scenario.variants.map { ($0.name, .int($0.plan.protocolPlan.answersTarget)) })),
      // Each variant of esmsim's default people: how far a real study's answered share lies
      // from theirs 95 % of the time, in percentage points (null: people of the scenario's own).
      (
        "between_studies_points",
        .object(scenario.variants.map { ($0.name, BetweenStudies.defaultPeople($0.plan) ? .finite(BetweenStudies.answeredHalfWidthPoints) : .null) })
      ),
      // What the scenario asks for that esmsim simulates otherwise or not at all.
      ("warnings", .array(scenario.warnings.map { .string("\($0.key): \($0.message)") })),
      ("random_numbers", .string("Philox4x32-10 streams keyed by (seed, replication, participant, purpose)")),
      ("swift_version", .string(toolchain)),
      ("gsl_version", .string(GSL.version)),
      ("platform", .string(platform)),
      ("files", .array(files.map { .string($0) })),
      ("tables", .object(tables.map { ($0.name, $0.json) })),
    ]
    // The folders of files (beiwe/): how many files each holds and a digest of their paths,
    // so that --force can tell a folder esmsim wrote from one a user added to.
    if !folders.isEmpty {
      pairs.append(("folders", .object(folders.map { ($0.name, .object([("files", .int($0.files)), ("paths_sha256", .string($0.digest))])) })))
    }
    return .object(pairs)
  }

  /// A folder of the results: its name, its files (at any depth) and the SHA-256 of their
  /// paths relative to it, sorted, one a line.
  public struct FolderDigest: Sendable, Equatable {
    public var name: String
    public var files: Int
    public var digest: String

    /// The digest of `folder`'s files as they are on disk now (nil when it is not a folder or
    /// cannot be read).
    public static func of(_ folder: String, name: String) -> FolderDigest? {
      let fm = FileManager.default
      var isFolder: ObjCBool = false
      guard fm.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue,
        let walker = fm.enumerator(atPath: folder)
      else { return nil }
      var paths: [String] = []
      while let p = walker.nextObject() as? String {
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: (folder as NSString).appendingPathComponent(p), isDirectory: &isDir), !isDir.boolValue {
          paths.append(p)
        }
      }
      paths.sort()
      return FolderDigest(name: name, files: paths.count, digest: SHA256.hex(Array(paths.joined(separator: "\n").utf8)))
    }
  }

  /// The Swift compiler this program was built with.
  public static var toolchain: String {
    #if compiler(>=6.4)
      return "6.4 or later"
    #elseif compiler(>=6.3)
      return "6.3"
    #elseif compiler(>=6.2)
      return "6.2"
    #else
      return "6.0 or 6.1"
    #endif
  }

  /// The operating system and processor.
  public static var platform: String {
    #if os(Linux) && !ESMSIM_CHECK_DARWIN
      let os = "Linux"
    #elseif os(macOS)
      let os = "macOS"
    #else
      let os = "other"
    #endif
    #if arch(x86_64)
      let arch = "x86_64"
    #elseif arch(arm64)
      let arch = "arm64"
    #else
      let arch = "other"
    #endif
    return "\(os) \(arch)"
  }
}
