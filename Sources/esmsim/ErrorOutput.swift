import ArgumentParser
import Foundation
import Presentation
import Reporting
import Scenarios
import Study

/// How esmsim reports a failure on standard error: as text (`esmsim: FILE: KEY (line L,
/// column C): MESSAGE`, or the argument parser's usage message), or, with `--error-format
/// json` or `ESMSIM_ERROR_FORMAT=json` (what the R package sets), as one JSON object on one
/// line, so that callers read the file, key path, line and column instead of parsing English:
///
///     {"esmsim_error": {"kind": "scenario", "file": "s.yaml", "key": "protocol.expiry",
///      "line": 3, "column": 11, "message": "…", "exit": 1}}
///
/// Kinds: `scenario` (a scenario, sweep, imported or pilot file), `usage` (an option; exit
/// 64), `output` (the results folder or a file that cannot be written), `interrupted`,
/// `run` (anything else).
enum ErrorOutput {
  nonisolated(unsafe) static var json = false

  /// Takes `--error-format json|text` out of the arguments (any position) and reads
  /// ESMSIM_ERROR_FORMAT; returns the arguments left.
  static func configure(_ arguments: [String]) -> [String] {
    json = ProcessInfo.processInfo.environment["ESMSIM_ERROR_FORMAT"] == "json"
    var rest: [String] = []
    var i = 0
    while i < arguments.count {
      let a = arguments[i]
      if a == "--error-format", i + 1 < arguments.count {
        json = arguments[i + 1] == "json"
        i += 2
        continue
      }
      if a.hasPrefix("--error-format=") {
        json = a.dropFirst("--error-format=".count) == "json"
        i += 1
        continue
      }
      // `--duration -3d`: a negative number after an option is its value (the parser took it
      // for another option and said the value was missing), so that its own check says why.
      if a.hasPrefix("--"), !a.contains("="), i + 1 < arguments.count, Self.isNegativeNumber(arguments[i + 1]) {
        rest.append("\(a)=\(arguments[i + 1])")
        i += 2
        continue
      }
      rest.append(a)
      i += 1
    }
    return rest
  }

  /// A minus and a digit (or a point): a negative number, with or without a unit.
  static func isNegativeNumber(_ s: String) -> Bool {
    let c = Array(s.prefix(2))
    return c.count == 2 && c[0] == "-" && (c[1].isNumber || c[1] == ".")
  }

  /// Reports a failure esmsim names itself (`esmsim: …`, exit `code`): a scenario, sweep or
  /// pilot file's problem, a sweep folder's, an interrupted run, a port in use.
  static func fail(_ error: Error, code: Int32 = 1) -> Never {
    if json {
      report(error, code: ExitCode(code), message: "\(error)")
    }
    FileHandle.standardError.write(Data("esmsim: \(error)\n".utf8))
    Foundation.exit(code)
  }

  /// Reports `error` and exits with its code; a usage error a subcommand's run found (its
  /// arguments checked against what it read) shows that subcommand's usage, not the root's.
  static func exit(with error: Error, command: ParsableCommand.Type, subcommand: ParsableCommand.Type? = nil) -> Never {
    if let code = error as? ExitCode, code == .success { Foundation.exit(0) }
    // Help and version requests are not failures.
    let code = command.exitCode(for: error)
    if error is ScenarioError { fail(error) }
    if !json, error is ValidationError, let subcommand, subcommand != command {
      // Its path from the root (`sweep run`, not `run`).
      let name = (Self.path(to: subcommand, from: command) ?? [subcommand._commandName]).joined(separator: " ")
      FileHandle.standardError.write(
        Data("Error: \(command.message(for: error))\nUsage: \(command.usageString(for: subcommand))\n  See '\(command._commandName) \(name) --help' for more information.\n".utf8))
      Foundation.exit(code.rawValue)
    }
    if code == .success || !json { command.exit(withError: error) }
    report(error, code: code, message: command.message(for: error))
  }

  /// The names of the subcommands from `root` down to `target` (nil: not among them).
  static func path(to target: ParsableCommand.Type, from root: ParsableCommand.Type) -> [String]? {
    for sub in root.configuration.subcommands {
      if sub == target { return [sub._commandName] }
      if let rest = path(to: target, from: sub) { return [sub._commandName] + rest }
    }
    return nil
  }

  /// Writes the JSON object of `error` and exits with `code`.
  static func report(_ error: Error, code: ExitCode, message: String) -> Never {
    var fields: [(String, JSONValue)] = []
    switch error {
    case let e as ScenarioError:
      fields = [("kind", .string("scenario")), ("file", .string(e.file))]
      fields.append(("key", e.key.isEmpty ? .null : .string(e.key)))
      let located = e.location.map { $0.line > 0 } ?? false
      fields.append(("line", located ? .int(e.location!.line) : .null))
      fields.append(("column", located ? .int(e.location!.column) : .null))
      if e.location?.line == 0 { fields.append(("given_on_command_line", .bool(true))) }
      fields.append(("message", .string(e.message)))
    case let e as StudyFailure:
      fields = [("kind", .string(e.description.hasPrefix("interrupted") ? "interrupted" : "output")), ("message", .string(e.description))]
    case let e as AtomicFile.WriteError:
      fields = [("kind", .string("output")), ("file", .string(e.path)), ("message", .string(e.reason))]
    default:
      fields = [("kind", .string(code.rawValue == 64 ? "usage" : "run")), ("message", .string(message))]
    }
    fields.append(("exit", .int(Int(code.rawValue))))
    FileHandle.standardError.write(Data((JSONValue.object([("esmsim_error", .object(fields))]).text() + "\n").utf8))
    Foundation.exit(code.rawValue)
  }
}
