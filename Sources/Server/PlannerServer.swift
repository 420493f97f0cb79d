import Study
import Presentation
import Dispatch
import Foundation
import Hummingbird
import Planner
import Reporting
import Scenarios

/// `esmsim serve`: the planner page and its API on a local port. Everything the page needs is
/// served from here (no CDN): it works offline.
///
/// Routes: `GET /` (the planner), `GET /teach` (the sampling-bias lesson), `GET /app.js`,
/// `GET /app.css`, `POST /api/run` (a scenario's figures as JSON), `POST /api/results` (its
/// results folder as a zip). Every request is bounded: bodies by ``Options/maxBody``, work by
/// the planner's ``Planner/Limits``, and one simulation runs at a time with at most
/// ``Options/queue`` waiting (more are told the server is busy).
public enum PlannerServer {
  /// How to serve.
  public struct Options: Sendable {
    /// The address to bind (loopback unless asked).
    public var host: String
    /// The port (0: any free port).
    public var port: Int
    /// Worker threads of each simulation.
    public var threads: Int
    /// Work and size limits of a request.
    public var limits: Planner.Limits
    /// Simulations that may wait for the one running.
    public var queue: Int
    /// The version written into exported results.
    public var version: String
    /// Where each request's log line goes (method, path, status, milliseconds, and a refusal's
    /// reason); nil: nowhere (`--quiet`).
    public var log: (@Sendable (String) -> Void)?
    /// Polled by a running simulation between participants, and by an archive between files:
    /// true once the server is asked to stop, which cancels them.
    public var shouldStop: @Sendable () -> Bool = { false }

    public init(
      host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, limits: Planner.Limits = .init(), queue: Int = 4,
      version: String, log: (@Sendable (String) -> Void)? = nil
    ) {
      self.host = host
      self.port = port
      self.threads = threads
      self.limits = limits
      self.queue = queue
      self.version = version
      self.log = log
    }

    /// The largest request body accepted.
    public var maxBody: Int { PlannerRequest.maxBody(maxBytes: limits.bytes, maxFiles: limits.files) }
  }

  /// Whether `host` is a loopback address (only this machine can connect): `127.0.0.1` and
  /// the rest of 127.0.0.0/8 written as four numbers, `localhost`, `::1`.
  public static func isLoopback(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { p in UInt8(p) != nil && p.allSatisfy(\.isASCII) }
  }

  /// The request bodies read at once (each up to `maxBody`): 16 × 5 MB at most in memory.
  static let bodiesAtOnce = 16

  /// The pages: path, content and type.
  static let pages: [(path: String, body: String, type: String)] = [
    ("/", PlannerPage.html, "text/html; charset=utf-8"), ("/teach", TeachPage.html, "text/html; charset=utf-8"),
    ("/app.js", PlannerScript.js, "text/javascript; charset=utf-8"), ("/app.css", PlannerStyle.css, "text/css; charset=utf-8"),
  ]

  /// Builds the router: the pages, the API, and the guards in front of them.
  static func router(_ options: Options, port: BoundPort) -> Router<PlannerContext> {
    let gate = Gate(waiting: options.queue)
    let reads = BodyReads(limit: Self.bodiesAtOnce)
    let router = Router(context: PlannerContext.self)
    // Also quiet (no log), the refusal's reason header is removed before sending.
    router.middlewares.add(RequestLog(log: options.log ?? { _ in }))
    let served = Dictionary(uniqueKeysWithValues: pages.map { ($0.path, "GET, HEAD") } + [
      ("/api/run", "POST"), ("/api/results", "POST"), ("/api/choices", "GET"),
    ])
    router.middlewares.add(Methods(allowed: served))
    router.middlewares.add(Guard(loopback: isLoopback(options.host), port: port, maxBody: options.maxBody))
    router.middlewares.add(Known(paths: Set(served.keys)))
    for page in pages {
      router.get(RouterPath(page.path)) { _, _ in Self.response(.ok, page.body, type: page.type) }
      router.head(RouterPath(page.path)) { _, _ in
        var r = Self.response(.ok, "", type: page.type)
        r.headers[.contentLength] = String(page.body.utf8.count)
        return r
      }
    }
    // The form's choices, from esmsim's own lists (the page restates none).
    let choices = Planner.choices().text()
    router.get("/api/choices") { _, _ in Self.response(.ok, choices, type: "application/json") }
    router.post("/api/run") { request, context in
      try await Self.api(request, context: context, options: options, gate: gate, reads: reads) { scenario, r in
        let json = try Planner.run(
          scenario, participant: r.participant, truth: r.truth, threads: options.threads, shouldStop: options.shouldStop)
        return Self.response(.ok, json.text(), type: "application/json")
      }
    }
    router.post("/api/results") { request, context in
      try await Self.api(request, context: context, options: options, gate: gate, reads: reads) { scenario, _ in
        // The files' size bounded as the work is: a small request can ask for gigabytes.
        let bytes = WorkEstimate.run(scenario, threads: 1).outputBytes
        guard bytes <= options.limits.resultsBytes else {
          return Self.refusal(
            .contentTooLarge,
            "scenario.yaml: the results would take about \(WorkEstimate.size(bytes)) of files; the planner writes at most \(WorkEstimate.size(options.limits.resultsBytes)) (fewer participants, days or per-row outputs, slower sensors; `esmsim run` writes more)")
        }
        let zip = try ResultsArchive.zip(scenario, threads: options.threads, version: options.version, shouldStop: options.shouldStop)
        var r = Self.response(.ok, "", type: "application/zip")
        r.headers[.contentDisposition] = "attachment; filename=\"esmsim-results.zip\""
        r.body = ResponseBody(contentLength: zip.size) { writer in
          // Read in 1 MB pieces: the archive is never in memory whole.
          var at = 0
          while at < zip.size {
            if options.shouldStop() { throw ResultsArchive.Stopped() }
            var piece = ByteBuffer()
            let n = min(1 << 20, zip.size - at)
            let got = piece.writeWithUnsafeMutableBytes(minimumWritableBytes: n) { pread(zip.fd, $0.baseAddress, n, off_t(at)) }
            guard got > 0 else { throw ResultsArchive.ReadFailure() }
            try await writer.write(piece)
            at += got
          }
          try await writer.finish(nil)
        }
        return r
      }
    }
    return router
  }

  /// Serves until interrupted; `ready` receives the URL once the port is bound.
  public static func serve(_ options: Options, ready: @escaping @Sendable (String) -> Void) async throws {
    ResultsArchive.removeStale()
    try await application(options, ready: ready).runService()
  }

  /// The server, ready to run (``serve(_:ready:)`` runs it; the tests run it on any port).
  public static func application(
    _ options: Options, ready: @escaping @Sendable (String) -> Void
  ) -> Application<RouterResponder<PlannerContext>> {
    let port = BoundPort()
    return Application(
      router: router(options, port: port),
      server: .http1(configuration: .init(idleTimeout: .seconds(60))),
      configuration: .init(address: .hostname(options.host, port: options.port), serverName: "esmsim"),
      onServerRunning: { channel in
        let bound = channel.localAddress?.port ?? options.port
        port.value.store(bound, ordering: .relaxed)
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        ready("http://\(host):\(bound)/")
      })
  }

  /// Reads the request, checks it, and runs `work` on a thread of its own, one at a time;
  /// a refused request gets its reason as JSON (`{"ok": false, "error": …}`).
  static func api(
    _ request: Request, context: PlannerContext, options: Options, gate: Gate, reads: BodyReads,
    work: @escaping @Sendable (Scenario, Planner.Request) throws -> Response
  ) async throws -> Response {
    guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
      return refusal(.unsupportedMediaType, "send the request as application/json")
    }
    // At most `bodiesAtOnce` bodies read at a time: many requests sending their bodies slowly
    // held up to 5 MB each, without a bound.
    guard await reads.take() else {
      var busy = refusal(.serviceUnavailable, "the planner is reading too many requests at once; try again")
      busy.headers[.retryAfter] = "2"
      return busy
    }
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: options.maxBody)
      await reads.give()
    } catch {
      await reads.give()
      return refusal(.contentTooLarge, "the request is larger than \(options.maxBody) bytes")
    }
    let scenario: Scenario
    let parsed: Planner.Request
    do {
      parsed = try Planner.request(json: Data(buffer: body), limits: options.limits)
      scenario = try Planner.scenario(parsed, limits: options.limits)
    } catch {
      let status: HTTPResponse.Status
      switch error.kind {
      case .malformed: status = .badRequest
      case .tooLarge: status = .contentTooLarge
      case .invalid: status = .unprocessableContent
      }
      return refusal(status, error.description)
    }
    guard await gate.enter() else {
      var busy = refusal(.serviceUnavailable, "the planner is busy with other requests; try again")
      busy.headers[.retryAfter] = "2"  // seconds: a change takes about that long
      return busy
    }
    defer { Task { await gate.leave() } }
    return await withCheckedContinuation { done in
      DispatchQueue.global().async {
        do {
          done.resume(returning: try work(scenario, parsed))
        } catch let stopped as ResultsArchive.Stopped {
          done.resume(returning: refusal(.serviceUnavailable, stopped.description))
        } catch let large as ResultsArchive.TooLarge {
          done.resume(returning: refusal(.init(code: 507, reasonPhrase: "Insufficient Storage"), large.description))
        } catch {
          // A simulation cancelled by the server's stop ends as an interrupted run.
          done.resume(returning: options.shouldStop() ? refusal(.serviceUnavailable, ResultsArchive.Stopped().description) : refusal(.internalServerError, "\(error)"))
        }
      }
    }
  }

  static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
    var r = response(status, JSONValue.object([("ok", .bool(false)), ("error", .string(message))]).text(), type: "application/json")
    r.headers[.init(RequestLog.reason)!] = String(message.prefix(300).map { $0.isASCII && !$0.isNewline ? $0 : "?" })
    return r
  }

  static func response(_ status: HTTPResponse.Status, _ text: String, type: String) -> Response {
    var headers = HTTPFields()
    headers[.contentType] = type
    headers[.cacheControl] = "no-store"
    headers[.init("X-Content-Type-Options")!] = "nosniff"
    headers[.init("Content-Security-Policy")!] =
      "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'none'"
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }
}

/// The request context: bodies up to the planner's limit are collected by the handlers.
public struct PlannerContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  public init(source: Source) { coreContext = .init(source: source) }
  public var maxUploadSize: Int { 8 * 1024 * 1024 }
}

/// One simulation at a time, at most `waiting` more queued.
/// How many request bodies are being read at once, at most `limit`.
actor BodyReads {
  let limit: Int
  var reading = 0
  init(limit: Int) { self.limit = limit }

  func take() -> Bool {
    guard reading < limit else { return false }
    reading += 1
    return true
  }

  func give() { reading -= 1 }
}

actor Gate {
  let waiting: Int
  var busy = false
  var queue: [CheckedContinuation<Void, Never>] = []
  init(waiting: Int) { self.waiting = waiting }

  func enter() async -> Bool {
    if !busy {
      busy = true
      return true
    }
    guard queue.count < waiting else { return false }
    await withCheckedContinuation { queue.append($0) }
    return true
  }

  func leave() {
    if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
  }
}
