import ArgumentParser
import Foundation

/// The options `run` and `sweep run` share: how many threads, and whether a very large run
/// may go ahead.
struct ExecutionOptions: ParsableArguments {
  @Option(help: "Worker threads (default: all cores; for sweep run, per unit). Results do not depend on it.")
  var threads: Int?
  @Flag(help: "Run even when the estimated work or output is very large (over 4e9 participant-days, 50 GB or a million files of output; for esmsim design, over 2e9 participant-days searched).")
  var allowLarge = false

  func validate() throws {
    if let threads, threads < 1 || threads > 1024 { throw ValidationError("--threads must be between 1 and 1024") }
  }

  /// The threads to use: the option, or every core.
  var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }
}
