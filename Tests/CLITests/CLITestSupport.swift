import Foundation
import Testing

/// Runs the built `esmsim` executable and captures what it prints.
struct CommandResult {
  var status: Int32
  var stdout: String
  var stderr: String
}

enum ESMSimBinary {
  /// The `esmsim` executable beside the test bundle (`swift test` builds it).
  static var url: URL {
    let dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for candidate in [dir, dir.deletingLastPathComponent()] {
      let url = candidate.appendingPathComponent("esmsim")
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return packageRoot.appendingPathComponent(".build/debug/esmsim")
  }

  /// The package's root folder.
  static var packageRoot: URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Runs `esmsim` with `arguments` in `directory` (default: the package root), with `environment` added.
  static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> CommandResult {
    let process = Process()
    process.executableURL = url
    process.arguments = arguments
    if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
    process.currentDirectoryURL = directory ?? packageRoot
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting so that a large output cannot block the child.
    let group = DispatchGroup()
    nonisolated(unsafe) var errData = Data()
    group.enter()
    DispatchQueue.global().async {
      errData = err.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}
