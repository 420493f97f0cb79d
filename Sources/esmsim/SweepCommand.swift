import Presentation
import Study
import ArgumentParser
import Foundation
import Reporting
import Scenarios

/// `esmsim sweep …`: parameter sweeps on one machine or as a Slurm job array.
struct SweepCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sweep",
    abstract: "Run a parameter sweep: a scenario over a grid of values, replicated, split into shards.",
    discussion: """
      A sweep file names a base scenario, a grid (or list of points) of key paths with values, \
      and a replication count (docs/sweeps.md). Work units are (point, replication) pairs; \
      shards run contiguous blocks of them, and results do not depend on the shard count.
      """,
    subcommands: [Plan.self, Run.self, Merge.self, SlurmScript.self]
  )

  /// Loads a sweep file; its problems are one-line errors with exit code 1.
  static func load(_ path: String) throws -> SweepSpec {
    do { return try SweepSpec.load(path: path) } catch {
      ErrorOutput.fail(error)
    }
  }

  /// Runs `body`, turning sweep failures into one-line errors with exit code 1.
  static func reporting<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let e as ExitCode { throw e } catch let e as ValidationError { throw e } catch {
      ErrorOutput.fail(error)
    }
  }

  struct Plan: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "plan",
      abstract: "Print the sweep's points, work units, spec hash and suggested shard counts.")

    @Argument(help: "The sweep file.") var sweep: String

    func run() throws {
      let spec = try SweepCommand.load(sweep)
      let first = try SweepCommand.reporting { try spec.point(0).scenario }
      let plan = first.variants[0].plan
      // Every point resolved in turn (none kept): a bad value anywhere is reported here.
      let participantDays = try SweepCommand.reporting { try spec.checkPoints() } * spec.replications
      print("sweep: \(spec.name)")
      print("spec: \(spec.hash)")
      print("parameters: \(spec.parameters.joined(separator: ", "))")
      print("points: \(spec.pointCount) (every one checked), replications: \(spec.replications), units: \(spec.unitCount)")
      print("variants per point: \(first.variants.count); first point: \(plan.participants) participants × \(plan.days) days")
      print("participant-days in all: \(participantDays)")
      let suggestions = SlurmScript.suggestedShards(units: spec.unitCount, participantDays: participantDays)
      // Each suggestion with its shard's work, at the rate runs are estimated by (2 cores).
      let rate = WorkEstimate.ratePerCore * 2
      let each = suggestions.map { "\($0) (about \(WorkEstimate.duration(Double(participantDays) / rate / Double($0))) each)" }
      print("suggested shards: \(each.joined(separator: ", ")), at about \(Int(rate)) participant-days a second on 2 cores")
    }
  }

  struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "run",
      abstract: "Run one shard's work units (all of them by default) into a sweep folder.",
      discussion: """
        --shard and --num-shards default from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT \
        when set. Each unit is written when complete; a rerun skips finished units.
        """
    )

    @Argument(help: "The sweep file.") var sweep: String
    @Option(name: .shortAndLong, help: "The sweep folder.") var output: String
    @Option(help: "This shard's index, from 0.") var shard: Int?
    @Option(help: "The number of shards.") var numShards: Int?
    @OptionGroup var execution: ExecutionOptions
    @Flag(help: "Merge after running; only without shards (one run of every unit).") var merge = false

    func run() throws {
      let env = ProcessInfo.processInfo.environment
      // Slurm's variables, when they stand in for the options, must be whole numbers.
      func fromSlurm(_ name: String) throws -> Int? {
        guard let text = env[name] else { return nil }
        guard let n = Int(text) else { throw ValidationError("\(name) is '\(text.prefix(40))', not a whole number; give --shard and --num-shards") }
        return n
      }
      let k = try numShards ?? fromSlurm("SLURM_ARRAY_TASK_COUNT") ?? 1
      let i = try shard ?? fromSlurm("SLURM_ARRAY_TASK_ID") ?? 0
      guard k >= 1 else { throw ValidationError("--num-shards must be at least 1 (found \(k))") }
      guard i >= 0 && i < k else { throw ValidationError("--shard must be between 0 and \(k - 1) (found \(i))") }
      // Refused before any unit runs: a shard's merge would find the others' units missing
      // and fail after the shard itself had succeeded.
      guard !merge || k == 1 else {
        throw ValidationError("--merge needs the whole sweep in this run; with \(k) shards, run esmsim sweep merge once every shard is done (slurm-script's merge job does)")
      }
      let spec = try SweepCommand.load(sweep)
      let cores = execution.threadCount
      let block = spec.units(shard: i, of: k)
      if block.isEmpty {
        // More shards than units (a job array sized by hand): this one has nothing to do.
        print("shard \(i) of \(k): no work units (the sweep has \(spec.unitCount); more shards than units leave some empty)")
        return
      }
      // The shard's points, each resolved once (units run point by point).
      var days = 0.0
      var lastPoint = -1
      var pointDays = 0.0
      for u in block {
        let p = spec.unit(u).point
        if p != lastPoint {
          pointDays = try SweepCommand.reporting { WorkEstimate(try spec.point(p).scenario, threads: cores).participantDays }
          lastPoint = p
        }
        days += pointDays
      }
      if days > WorkEstimate.limit && !execution.allowLarge {
        FileHandle.standardError.write(
          Data(
            "esmsim: shard \(i) of \(k) of \(sweep) holds \(WorkEstimate.count(days)) participant-days (about \(WorkEstimate.duration(days / (WorkEstimate.ratePerCore * Double(cores)))) on \(cores) cores); refusing unless you add --allow-large, or split it into more shards\n"
              .utf8))
        throw ExitCode(1)
      }
      Interrupts.install()
      let stderr = FileHandle.standardError
      let result = try SweepCommand.reporting {
        try SweepRun.run(
          spec, directory: output, shard: i, of: k, threads: cores,
          version: ESMSimVersion.string, shouldStop: { Interrupts.requested },
          log: { line in if isatty(2) != 0 { stderr.write(Data("\r\(line)\u{1B}[K".utf8)) } })
      }
      if isatty(2) != 0 { stderr.write(Data("\r\u{1B}[K".utf8)) }
      guard let result else {
        stderr.write(Data("esmsim: interrupted; finished units are kept, rerun to resume\n".utf8))
        throw ExitCode(Interrupts.exitCode)
      }
      print("shard \(i) of \(k): units \(block.lowerBound)–\(max(block.upperBound - 1, block.lowerBound)): \(result.ran) run, \(result.skipped) already done")
      if merge {
        let files = try SweepCommand.reporting { try SweepRun.merge(spec, directory: output) }
        print("merged \(spec.unitCount) units into \(output)/ (\(files.joined(separator: ", ")))")
      }
    }
  }

  struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "merge",
      abstract: "Check that every unit is present exactly once and write summary.csv and results.sqlite.")

    @Argument(help: "The sweep folder.") var directory: String
    @Option(help: "The sweep file the folder was run from.") var spec: String

    func run() throws {
      let s = try SweepCommand.load(spec)
      let files = try SweepCommand.reporting { try SweepRun.merge(s, directory: directory) }
      print("merged \(s.unitCount) units (\(s.pointCount) points × \(s.replications) replications) into \(directory)/ (\(files.joined(separator: ", ")))")
    }
  }
}

extension SweepCommand {
  struct SlurmScript: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "slurm-script",
      abstract: "Write sbatch scripts: a job array of shards and a merge job that waits for it.",
      discussion: """
        Writes DIR/slurm/array-<n>.sh (arrays of at most 1,000 tasks, Slurm's default \
        MaxArraySize being 1001), merge.sh (--dependency=afterok on every array) and submit.sh, \
        which submits them all. Size shards to minutes: Slurm takes seconds to start each task.
        """
    )

    @Argument(help: "The sweep file.") var sweep: String
    @Option(name: .shortAndLong, help: "The sweep folder the jobs write into.") var output: String
    @Option(help: "The number of shards (array tasks).") var shards: Int
    @Option(help: "At most this many tasks of each job array at once (its %limit; a sweep of over 1,000 shards has several arrays, submitted together).") var maxConcurrent: Int?
    @Option(help: "Wall time per task, HH:MM:SS.") var time = "00:30:00"
    @Option(help: "The partition.") var partition: String?
    @Option(help: "CPUs per task (threads per unit).") var cpus = 2
    @Option(help: "The esmsim binary the jobs run (default: this one).") var esmsim: String?

    /// The binary the jobs run without `--esmsim`: this one when it is the self-contained
    /// build (`make dist`); otherwise the self-contained build unpacked under `dist/` or
    /// `.build/dist/` of the working folder, when there is one (compute nodes rarely have
    /// Swift); otherwise this one. Says which on standard error.
    static func defaultBinary(cwd: String) -> String {
      #if os(Linux) && !ESMSIM_CHECK_DARWIN
        let this = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
      #else
        // No /proc elsewhere (macOS): the path the program was started by.
        let this = URL(fileURLWithPath: Bundle.main.executablePath ?? CommandLine.arguments[0]).resolvingSymlinksInPath().path
      #endif
      if ESMSimVersion.build.hasPrefix("(make dist") { return this }
      let name = "esmsim-\(ESMSimVersion.string)-linux-x86_64/esmsim"
      for folder in ["dist", ".build/dist"] {
        let candidate = (cwd as NSString).appendingPathComponent("\(folder)/\(name)")
        if FileManager.default.isExecutableFile(atPath: candidate) {
          FileHandle.standardError.write(Data("slurm-script: the jobs run the self-contained build \(candidate) (make dist); --esmsim to choose another\n".utf8))
          return candidate
        }
      }
      FileHandle.standardError.write(
        Data(
          "slurm-script: the jobs run this build, \(this): the nodes need GSL and SQLite (and the Swift runtime, unless make release built it) and, for make release's build, this machine's processor generation (make release CPU= builds for any x86-64); make dist builds one that needs none of these\n"
            .utf8))
      return this
    }

    /// Tasks per array: Slurm's default MaxArraySize is 1001 (indices 0–1000).
    static let arrayLimit = 1000

    /// Shard counts that give tasks of about 2, 5 and 15 minutes on tasks of two cores (the
    /// default `--cpus`), at the measured rate (``WorkEstimate/ratePerCore``).
    static func suggestedShards(units: Int, participantDays: Int) -> [Int] {
      let seconds = Double(participantDays) / (2 * WorkEstimate.ratePerCore)
      return Array(Set([120.0, 300, 900].map { max(1, min(units, Int((seconds / $0).rounded(.up)))) })).sorted()
    }

    func validate() throws {
      guard shards >= 1 else { throw ValidationError("--shards must be at least 1") }
      if let maxConcurrent, maxConcurrent < 1 { throw ValidationError("--max-concurrent must be at least 1") }
      guard time.range(of: #"^(\d+-)?\d{1,2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil else {
        throw ValidationError("--time must be HH:MM:SS or D-HH:MM:SS (found \(time))")
      }
      guard cpus >= 1 && cpus <= 1024 else { throw ValidationError("--cpus must be between 1 and 1024") }
      if let partition, partition.isEmpty || !partition.allSatisfy({ $0.isLetter || $0.isNumber || "_-.,".contains($0) }) {
        throw ValidationError("--partition: letters, digits, _ - . and , only")
      }
    }

    func run() throws {
      let spec = try SweepCommand.load(sweep)
      guard shards <= spec.unitCount else {
        throw ValidationError("--shards \(shards) is more than the sweep's \(spec.unitCount) work units")
      }
      let fm = FileManager.default
      let cwd = fm.currentDirectoryPath
      func absolute(_ p: String) -> String { p.hasPrefix("/") ? p : (cwd as NSString).appendingPathComponent(p) }
      let binary = esmsim.map(absolute) ?? Self.defaultBinary(cwd: cwd)
      let dir = absolute(output)
      let scripts = (dir as NSString).appendingPathComponent("slurm")
      let logs = (scripts as NSString).appendingPathComponent("logs")
      // sbatch reads #SBATCH lines with double quotes around a value; a path it cannot take
      // that way (a quote, a backslash, a newline, or % which starts its file patterns) is refused.
      guard !logs.contains(where: { "\"\\%\n\r".contains($0) }) else {
        throw ValidationError("--output: \(dir) has a character sbatch's --output cannot take (\", \\, % or a line break); choose another folder")
      }
      try SweepCommand.reporting { try fm.createDirectory(atPath: logs, withIntermediateDirectories: true) }
      func q(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
      let jobName = "esmsim-" + String(spec.name.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }.prefix(30))
      let header = { (name: String, log: String) -> String in
        var h = "#!/bin/bash\n#SBATCH --job-name=\(name)\n#SBATCH --time=\(time)\n#SBATCH --output=\"\(logs)/\(log)\"\n"
        if let partition { h += "#SBATCH --partition=\(partition)\n" }
        return h
      }
      var files: [String] = []
      var offset = 0
      var index = 0
      while offset < shards {
        let n = min(Self.arrayLimit, shards - offset)
        var s = header(jobName, "shard-%A_%a.out")
        s += "#SBATCH --array=0-\(n - 1)\(maxConcurrent.map { "%\($0)" } ?? "")\n#SBATCH --cpus-per-task=\(cpus)\n"
        s += "# esmsim sweep, spec \(spec.hash): shards \(offset)–\(offset + n - 1) of \(shards)\n"
        s += "set -euo pipefail\n"
        s += "exec \(q(binary)) sweep run \(q(absolute(sweep))) --output \(q(dir)) --shard $((\(offset) + SLURM_ARRAY_TASK_ID)) --num-shards \(shards) --threads \"${SLURM_CPUS_PER_TASK:-\(cpus)}\"\n"
        let name = "array-\(index).sh"
        try SweepCommand.reporting { try AtomicFile.write(s, to: (scripts as NSString).appendingPathComponent(name)) }
        files.append(name)
        offset += n
        index += 1
      }
      var merge = header(jobName + "-merge", "merge-%j.out")
      merge += "set -euo pipefail\nexec \(q(binary)) sweep merge \(q(dir)) --spec \(q(absolute(sweep)))\n"
      try SweepCommand.reporting { try AtomicFile.write(merge, to: (scripts as NSString).appendingPathComponent("merge.sh")) }
      var submit = "#!/bin/bash\n# Submits the shards of the sweep and a merge job that runs when all of them succeed.\n"
      submit += "set -euo pipefail\ncd \"$(dirname \"$0\")\"\nids=()\n"
      for f in files { submit += "ids+=(\"$(sbatch --parsable \(f) | cut -d';' -f1)\")\n" }
      submit += "dependency=$(IFS=:; echo \"${ids[*]}\")\n"
      submit += "merge=$(sbatch --parsable --dependency=afterok:\"$dependency\" merge.sh | cut -d';' -f1)\n"
      submit += "echo \"array job(s) ${ids[*]}; merge job $merge\"\n"
      try SweepCommand.reporting { try AtomicFile.write(submit, to: (scripts as NSString).appendingPathComponent("submit.sh")) }
      for f in files + ["merge.sh", "submit.sh"] {
        chmod((scripts as NSString).appendingPathComponent(f), 0o755)
      }
      print("wrote \(scripts)/: \((files + ["merge.sh", "submit.sh"]).joined(separator: ", "))")
      print("\(shards) shard(s) of about \(spec.unitCount / shards) unit(s) each; submit with: bash \(scripts)/submit.sh")
    }
  }
}
