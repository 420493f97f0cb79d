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

    public init(host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, limits: Planner.Limits = .init(), queue: Int = 4, version: String) {
      self.host = host
      self.port = port
      self.threads = threads
      self.limits = limits
      self.queue = queue
      self.version = version
    }

    /// The largest request body accepted.
    public var maxBody: Int { PlannerRequest.maxBody(maxBytes: limits.bytes, maxFiles: limits.files) }
  }

  /// Whether `host` is a loopback address (only this machine can connect).
  public static func isLoopback(_ host: String) -> Bool {
    host == "127.0.0.1" || host == "localhost" || host == "::1" || host.hasPrefix("127.")
  }

  /// Serves until interrupted; `ready` receives the URL once the port is bound.
  public static func serve(_ options: Options, ready: @escaping @Sendable (String) -> Void) async throws {
    let gate = Gate(waiting: options.queue)
    let router = Router(context: PlannerContext.self)
    router.middlewares.add(Guard(loopback: isLoopback(options.host)))
    router.get("/") { _, _ in Self.response(.ok, PlannerPage.html, type: "text/html; charset=utf-8") }
    router.get("/teach") { _, _ in Self.response(.ok, TeachPage.html, type: "text/html; charset=utf-8") }
    router.get("/app.js") { _, _ in Self.response(.ok, PlannerScript.js, type: "text/javascript; charset=utf-8") }
    router.get("/app.css") { _, _ in Self.response(.ok, PlannerStyle.css, type: "text/css; charset=utf-8") }
    router.post("/api/run") { request, context in
      try await Self.api(request, context: context, options: options, gate: gate) { scenario, r in
        let json = try Planner.run(scenario, participant: r.participant, truth: r.truth, threads: options.threads)
        return Self.response(.ok, json.text(), type: "application/json")
      }
    }
    router.post("/api/results") { request, context in
      try await Self.api(request, context: context, options: options, gate: gate) { scenario, _ in
        let zip = try ResultsArchive.zip(scenario, threads: options.threads, version: options.version)
        var r = Self.response(.ok, "", type: "application/zip")
        r.headers[.contentDisposition] = "attachment; filename=\"esmsim-results.zip\""
        r.body = .init(byteBuffer: ByteBuffer(bytes: zip))
        return r
      }
    }
    let app = Application(
      router: router,
      server: .http1(configuration: .init(idleTimeout: .seconds(60))),
      configuration: .init(address: .hostname(options.host, port: options.port), serverName: "esmsim"),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? options.port
        let host = options.host.contains(":") ? "[\(options.host)]" : options.host
        ready("http://\(host):\(port)/")
      })
    try await app.runService()
  }

  /// Reads the request, checks it, and runs `work` on a thread of its own, one at a time;
  /// a refused request gets its reason as JSON (`{"ok": false, "error": …}`).
  static func api(
    _ request: Request, context: PlannerContext, options: Options, gate: Gate,
    work: @escaping @Sendable (Scenario, Planner.Request) throws -> Response
  ) async throws -> Response {
    guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
      return refusal(.unsupportedMediaType, "send the request as application/json")
    }
    let body: ByteBuffer
    do {
      body = try await request.body.collect(upTo: options.maxBody)
    } catch {
      return refusal(.contentTooLarge, "the request is larger than \(options.maxBody) bytes")
    }
    let scenario: Scenario
    let parsed: Planner.Request
    do {
      parsed = try Planner.request(json: Data(buffer: body), limits: options.limits)
      scenario = try Planner.scenario(parsed, limits: options.limits)
    } catch {
      return refusal(error.tooLarge ? .contentTooLarge : .unprocessableContent, error.description)
    }
    guard await gate.enter() else { return refusal(.serviceUnavailable, "the planner is busy with other requests; try again") }
    defer { Task { await gate.leave() } }
    return await withCheckedContinuation { done in
      DispatchQueue.global().async {
        do {
          done.resume(returning: try work(scenario, parsed))
        } catch {
          done.resume(returning: refusal(.internalServerError, "\(error)"))
        }
      }
    }
  }

  static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
    response(status, JSONValue.object([("ok", .bool(false)), ("error", .string(message))]).text(), type: "application/json")
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

/// Refuses what a page on another site could send: on a loopback server, a Host header
/// that is not this machine (DNS rebinding); any request with an Origin of another host.
struct Guard: RouterMiddleware {
  let loopback: Bool
  func handle(_ request: Request, context: PlannerContext, next: (Request, PlannerContext) async throws -> Response) async throws
    -> Response
  {
    let host = request.head.authority ?? ""
    let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }.dropFirst()) : String(host.prefix { $0 != ":" })
    if loopback && !(name == "localhost" || PlannerServer.isLoopback(name)) {
      return PlannerServer.refusal(.forbidden, "this planner answers only to localhost and 127.0.0.1")
    }
    if let origin = request.headers[.origin], !origin.hasSuffix("://" + host) {
      return PlannerServer.refusal(.forbidden, "requests from another site are refused")
    }
    return try await next(request, context)
  }
}

/// One simulation at a time, at most `waiting` more queued.
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
