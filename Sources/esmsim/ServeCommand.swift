import ArgumentParser
import Dispatch
import Foundation
import Planner
import Server
import Synchronization

/// `esmsim serve`: the interactive planner in the browser.
struct ServeCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Try a protocol in the browser: the interactive planner on a local port.",
    discussion: """
      Prints the page's URL. Bound to 127.0.0.1 (this machine only) unless --host says \
      otherwise. Each change of the form is one simulation, up to --max-participant-days \
      over every variant and replication. Ctrl-C stops it.
      """
  )

  @Option(help: "The address to listen on (a warning unless loopback).") var host = "127.0.0.1"
  @Option(help: "The port (0: any free port).") var port = 8080
  @Option(help: "Worker threads of each simulation (default: the processor count).") var threads: Int?
  @Option(help: "The most participant-days one change may simulate.") var maxParticipantDays = 200_000
  @Flag(help: "No log line per request on standard error.") var quiet = false

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    guard maxParticipantDays >= 1 else { throw ValidationError("--max-participant-days must be at least 1") }
    if let threads, threads < 1 || threads > 1024 { throw ValidationError("--threads must be between 1 and 1024") }
  }

  /// A request's log line, on standard error.
  @Sendable static func log(_ line: String) {
    let text = Array(("esmsim serve: " + line + "\n").utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
  }

  func run() throws {
    if !PlannerServer.isLoopback(host) {
      FileHandle.standardError.write(
        Data("warning: listening on \(host): anyone who can reach this machine can use the planner and make it simulate\n".utf8))
    }
    let log: (@Sendable (String) -> Void)? = quiet ? nil : Self.log
    var options = PlannerServer.Options(
      host: host, port: port, threads: threads ?? ProcessInfo.processInfo.activeProcessorCount,
      limits: Planner.Limits(participantDays: Double(maxParticipantDays)), version: ESMSimVersion.string,
      log: log)
    options.shouldStop = { ServeStop.requested.load(ordering: .relaxed) }
    ServeStop.install()
    let done = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var failure: Error?
    Task {
      do {
        try await PlannerServer.serve(options) { url in
          FileHandle.standardOutput.write(Data("esmsim planner: \(url)  (Ctrl-C to stop)\n".utf8))
        }
      } catch {
        failure = error
      }
      done.signal()
    }
    done.wait()
    if let failure {
      FileHandle.standardError.write(Data("esmsim: cannot serve on \(host):\(port): \(failure)\n".utf8))
      throw ExitCode(1)
    }
  }
}

/// Stopping the server (SIGINT, SIGTERM): a running simulation or archive is cancelled at once
/// (it polls ``requested``), the server's own graceful shutdown then ends the requests, and
/// whatever still runs 1.5 s later ends with the process: the server stops within 2 s
/// whatever it was doing.
enum ServeStop {
  static let requested = Atomic<Bool>(false)
  nonisolated(unsafe) static var sources: [DispatchSourceSignal] = []

  static func install() {
    for number in [SIGINT, SIGTERM] {
      signal(number, SIG_IGN)  // delivered to the dispatch sources (the server's own included)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler {
        requested.store(true, ordering: .relaxed)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { exit(0) }
      }
      source.resume()
      sources.append(source)
    }
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGTERM)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
  }
}
