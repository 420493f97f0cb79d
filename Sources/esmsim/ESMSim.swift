import ArgumentParser
import SimKernel

/// The `esmsim` command: a thin front end, no model logic.
@main
struct ESMSim: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "esmsim",
    abstract: "Simulate experience-sampling (ESM/EMA) studies before running them.",
    discussion: """
      Try a signal schedule, a device mix and a compliance model on thousands of simulated \
      participants, and see uniformity, predictability, coverage and sampling bias.
      """,
    version: ESMSimVersion.string + " " + ESMSimVersion.build,
    subcommands: [
      RunCommand.self, ShowCommand.self, ValidateCommand.self, ScheduleCommand.self, SweepCommand.self, CalibrateCommand.self,
      DesignCommand.self, ServeCommand.self, Bench.self, RandomNumbers.self,
    ]
  )

  static func main() {
    GSL.start()
    let arguments = ErrorOutput.configure(Array(CommandLine.arguments.dropFirst()))
    // The subcommand parsed, so that a usage error its run finds shows its own usage.
    var parsed: ParsableCommand.Type = self
    do {
      var command = try parseAsRoot(arguments)
      parsed = type(of: command)
      try command.run()
    } catch {
      ErrorOutput.exit(with: error, command: self, subcommand: parsed)
    }
  }
}

/// The version printed by `--version` and written into run manifests.
enum ESMSimVersion {
  static let string = "0.1.0"
  /// How this binary was built (`esmsim --version` prints it after the version).
  #if ESMSIM_DIST
    static let build = "(make dist: Swift runtime, Foundation, GSL and SQLite linked statically; x86-64 baseline)"
  #else
    static let build = "(built from source)"
  #endif
}
