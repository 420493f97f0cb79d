import Presentation
import Study
import Foundation
import Testing

@testable import Reporting
@testable import Scenarios

/// The results folder: `--force` replaces only what esmsim wrote, one run at a time writes a
/// folder, and what killed runs left is cleared. Before these rules `--output . --force`
/// removed the working folder, `--force` removed a folder of the user's own files, and two
/// runs into one folder both succeeded with files missing from the survivor.
@Suite("The results folder: replaced only when esmsim wrote it, one writer at a time")
struct OutputFolderTests {
  let root: String

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-out-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

  static let scenario = try! Readers.scenario(Data("name: small\nduration: 1d\npopulation: {size: 3}\n".utf8))

  func run(_ name: String, force: Bool = false) throws -> StudyRun.Outcome {
    try StudyRun.run(Self.scenario, to: path(name), options: .init(threads: 1, force: force), version: "test")
  }

  func refusal(_ directory: String, force: Bool = true) -> String? {
    do {
      _ = try OutputFolder(directory, force: force)
      return nil
    } catch {
      return error.description
    }
  }

  @Test("the working folder, its parents, the root, the home folder and an empty name are refused")
  func dangerousNames() throws {
    let cwd = FileManager.default.currentDirectoryPath
    for name in ["", ".", cwd, (cwd as NSString).deletingLastPathComponent, "/", NSHomeDirectory(), cwd + "/.."] {
      #expect(refusal(name) != nil, "\(name) was accepted")
    }
  }

  @Test("--force replaces an empty folder or esmsim's own results, nothing else")
  func replaceOnlyOwn() throws {
    let fm = FileManager.default
    // A folder of the user's own files.
    try fm.createDirectory(atPath: path("mine"), withIntermediateDirectories: false)
    try "draft".write(toFile: path("mine/thesis.txt"), atomically: true, encoding: .utf8)
    #expect(throws: StudyRun.Failure.self) { try run("mine", force: true) }
    #expect(fm.fileExists(atPath: path("mine/thesis.txt")))
    // An empty folder.
    try fm.createDirectory(atPath: path("empty"), withIntermediateDirectories: false)
    _ = try run("empty", force: true)
    #expect(fm.fileExists(atPath: path("empty/manifest.json")))
    // esmsim's own results, replaced; but not once a file of the user's is added to them.
    _ = try run("results")
    _ = try run("results", force: true)
    try "notes".write(toFile: path("results/notes.txt"), atomically: true, encoding: .utf8)
    let error = #expect(throws: StudyRun.Failure.self) { try run("results", force: true) }
    #expect(error?.description.contains("notes.txt") == true)
    #expect(fm.fileExists(atPath: path("results/notes.txt")))
    // Without --force an existing folder is refused.
    #expect(throws: StudyRun.Failure.self) { try run("empty") }
  }

  @Test("a symbolic link (dangling or not) is refused before anything runs")
  func symbolicLink() throws {
    try FileManager.default.createSymbolicLink(atPath: path("dangling"), withDestinationPath: "/nonexistent/esmsim")
    #expect(refusal(path("dangling"), force: false)?.contains("symbolic link") == true)
  }

  @Test("a second run into a folder in use is refused at once with the first run's process id")
  func lock() throws {
    do {
      let first = try OutputFolder(path("busy"), force: false)
      let second = refusal(path("busy"), force: false)
      #expect(second?.contains("pid \(getpid())") == true, "\(String(describing: second))")
      withExtendedLifetime(first) {}
    }
    // Released when the first is done with the folder.
    #expect(refusal(path("busy"), force: false) == nil)
    #expect(!FileManager.default.fileExists(atPath: path(".busy.lock")))
  }

  @Test("what killed runs left beside the folder (.NAME.partial-PID, .NAME.old-PID) is removed")
  func leftovers() throws {
    let fm = FileManager.default
    for f in [".r.partial-999999", ".r.old-999999"] {
      try fm.createDirectory(atPath: path(f), withIntermediateDirectories: false)
    }
    _ = try run("r")
    #expect(try fm.contentsOfDirectory(atPath: root).sorted() == ["r"])
  }
}
