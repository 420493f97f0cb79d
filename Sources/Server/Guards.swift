import Foundation
import Hummingbird
import Synchronization

/// The port the server is bound to, known once it is (`--port 0` picks any).
final class BoundPort: Sendable {
  let value = Atomic<Int>(0)
}

/// Refuses what a page on another site could send, and what no page sends:
/// - on a loopback server, a `Host` other than this machine at the bound port, exactly
///   (`localhost`, `127.0.0.1` or `[::1]`, each with `:PORT`; without it only on port 80):
///   a DNS-rebinding page names its own host; more than one `Host`, or none, is refused too;
/// - an `Origin` other than such a host (a page elsewhere posting to the planner);
/// - a body announced larger than the largest the API reads, before any of it is read.
struct Guard: RouterMiddleware {
  let loopback: Bool
  let port: BoundPort
  let maxBody: Int

  /// The names this machine answers to, lower case.
  static let names = ["localhost", "127.0.0.1", "[::1]"]

  /// Whether `authority` (a Host header's value, or an origin's host and port) is this
  /// machine on `port`.
  static func isThisMachine(_ authority: String, port: Int) -> Bool {
    let a = authority.lowercased()
    return names.contains { a == "\($0):\(port)" || (port == 80 && a == $0) }
  }

  func handle(_ request: Request, context: PlannerContext, next: (Request, PlannerContext) async throws -> Response) async throws
    -> Response
  {
    let hosts = request.headers[values: .init("Host")!]
    guard let host = request.head.authority, !host.isEmpty, hosts.isEmpty else {
      return PlannerServer.refusal(.badRequest, "a request names exactly one Host")
    }
    let port = port.value.load(ordering: .relaxed)
    if loopback && !Self.isThisMachine(host, port: port) {
      return PlannerServer.refusal(.forbidden, "this planner answers only to localhost:\(port) and 127.0.0.1:\(port)")
    }
    let origins = request.headers[values: .origin]
    if origins.count > 1 { return PlannerServer.refusal(.badRequest, "a request names at most one Origin") }
    if let origin = origins.first {
      let prefix = "http://"
      let authority = origin.lowercased().hasPrefix(prefix) ? String(origin.dropFirst(prefix.count)) : ""
      let same = loopback ? Self.isThisMachine(authority, port: port) : authority == host.lowercased()
      guard same else { return PlannerServer.refusal(.forbidden, "requests from another site are refused") }
    }
    if let length = request.headers[.contentLength] {
      guard let n = Int(length), n >= 0 else { return PlannerServer.refusal(.badRequest, "Content-Length is not a number") }
      guard n <= maxBody else { return PlannerServer.refusal(.contentTooLarge, "the request is larger than \(maxBody) bytes") }
    }
    return try await next(request, context)
  }
}

/// Answers a known path asked with a method it does not take with 405 and the methods it
/// takes (`Allow`), instead of "not found".
struct Methods: RouterMiddleware {
  let allowed: [String: String]

  func handle(_ request: Request, context: PlannerContext, next: (Request, PlannerContext) async throws -> Response) async throws
    -> Response
  {
    if let methods = allowed[request.uri.path], !methods.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == request.method.rawValue }) {
      var r = PlannerServer.refusal(.methodNotAllowed, "\(request.uri.path) takes \(methods)")
      r.headers[.allow] = methods
      return r
    }
    return try await next(request, context)
  }
}

/// Answers a path the planner does not serve with its JSON refusal (404), as every error is,
/// instead of an empty response without the pages' headers. After the guards, so that a
/// request from elsewhere is refused as such first.
struct Known: RouterMiddleware {
  let paths: Set<String>

  func handle(_ request: Request, context: PlannerContext, next: (Request, PlannerContext) async throws -> Response) async throws
    -> Response
  {
    guard paths.contains(request.uri.path) else {
      let shown = String(request.uri.path.prefix(100).map { $0.isASCII && !$0.isNewline ? $0 : "?" })
      return PlannerServer.refusal(.notFound, "nothing at \(shown): the planner serves \(paths.sorted().joined(separator: ", "))")
    }
    return try await next(request, context)
  }
}

/// One line per request on standard error: when, method, path, status, milliseconds, and a
/// refusal's reason.
struct RequestLog: RouterMiddleware {
  /// The header a refusal carries its reason in, for this log (removed before sending).
  static let reason = "X-Esmsim-Refusal"
  let log: @Sendable (String) -> Void

  func handle(_ request: Request, context: PlannerContext, next: (Request, PlannerContext) async throws -> Response) async throws
    -> Response
  {
    let start = DispatchTime.now().uptimeNanoseconds
    let path = String(request.uri.path.prefix(200).map { $0.isASCII && !$0.isNewline ? $0 : "?" })
    func line(_ status: Int, _ reason: String?) {
      let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      log("\(Self.timestamp()) \(request.method.rawValue) \(path) \(status) \(String(format: "%.0f", ms)) ms\(reason.map { ": " + $0 } ?? "")")
    }
    do {
      var response = try await next(request, context)
      let reason = response.headers[.init(Self.reason)!]
      response.headers[.init(Self.reason)!] = nil
      line(response.status.code, reason)
      return response
    } catch let error as HTTPResponseError {
      line(error.status.code, nil)
      throw error
    } catch {
      line(500, "\(error)")
      throw error
    }
  }

  static func timestamp() -> String {
    var t = time(nil)
    var parts = tm()
    gmtime_r(&t, &parts)
    return String(
      format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
  }
}
