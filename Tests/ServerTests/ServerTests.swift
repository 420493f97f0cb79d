import Foundation
import Planner
import Testing

@testable import Server

/// A raw HTTP/1.1 exchange with the server on 127.0.0.1: the request's bytes exactly as
/// written (two Host headers, none, a Content-Length without a body), the reply read to its end.
enum RawHTTP {
  struct Reply {
    var status: Int
    var headers: [String: String]
    var body: Data
  }

  /// A socket connected to the server on 127.0.0.1 (the caller closes it).
  static func connected(port: Int) -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #expect(fd >= 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    #expect(connected == 0)
    return fd
  }

  static func send(port: Int, _ request: String, body: Data = Data()) throws -> Reply {
    let fd = connected(port: port)
    defer { close(fd) }
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    let bytes = Array(request.replacingOccurrences(of: "\n", with: "\r\n").utf8) + Array(body)
    var sent = 0
    while sent < bytes.count {
      let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if n <= 0 { break }  // the server may answer and close before reading a large body
      sent += n
    }
    var reply = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = read(fd, &buffer, buffer.count)
      if n <= 0 { break }
      reply.append(contentsOf: buffer[..<n])
    }
    guard let end = reply.range(of: Data("\r\n\r\n".utf8)) else { return Reply(status: 0, headers: [:], body: reply) }
    let head = String(decoding: reply[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
    let status = Int(head[0].split(separator: " ")[1]) ?? 0
    var headers: [String: String] = [:]
    for line in head.dropFirst() {
      let parts = line.split(separator: ":", maxSplits: 1)
      if parts.count == 2 { headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces) }
    }
    return Reply(status: status, headers: headers, body: Data(reply[end.upperBound...]))
  }
}

/// A server on an ephemeral port of 127.0.0.1 for the length of `body`, which runs on a
/// thread of its own: its blocking socket calls must not hold the threads of Swift's
/// concurrency pool, on which the server's handlers run (two on this machine).
func withServer(
  limits: Planner.Limits = .init(participantDays: 20_000), queue: Int = 4, log: (@Sendable (String) -> Void)? = nil,
  _ body: @escaping @Sendable (Int) throws -> Void
) async throws {
  let (urls, continuation) = AsyncStream<String>.makeStream()
  let options = PlannerServer.Options(host: "127.0.0.1", port: 0, threads: 2, limits: limits, queue: queue, version: "test", log: log)
  let app = PlannerServer.application(options) { continuation.yield($0) }
  let task = Task { try await app.runService() }
  var iterator = urls.makeAsyncIterator()
  let url = try #require(await iterator.next())
  let port = try #require(Int(url.split(separator: ":").last!.dropLast()))
  let outcome: Result<Void, any Error> = await withCheckedContinuation { done in
    Thread { done.resume(returning: Result { try body(port) }) }.start()
  }
  task.cancel()
  try outcome.get()
  _ = try? await task.value
}

func post(_ port: Int, path: String = "/api/run", json: String, type: String = "application/json", extra: String = "") throws
  -> RawHTTP.Reply
{
  let body = Data(json.utf8)
  return try RawHTTP.send(
    port: port,
    "POST \(path) HTTP/1.1\nHost: 127.0.0.1:\(port)\nContent-Type: \(type)\nContent-Length: \(body.count)\n\(extra)Connection: close\n\n",
    body: body)
}

func scenarioJSON(_ yaml: String, files: [String: String] = [:]) -> String {
  let data = try! JSONSerialization.data(withJSONObject: ["scenario": yaml, "files": files])
  return String(decoding: data, as: UTF8.self)
}

/// The planner's server, request by request, at every guard and limit (`esmsim serve`); the
/// browser test keeps what only a browser shows.
@Suite("esmsim serve: guards, limits and the export", .serialized)
struct ServerTests {
  @Test("Host is this machine at the bound port, exactly, once: 127.attacker.example, a missing or a second Host are refused")
  func host() async throws {
    try await withServer { port in
      func get(_ hostLines: String) throws -> Int {
        try RawHTTP.send(port: port, "GET / HTTP/1.1\n\(hostLines)Connection: close\n\n").status
      }
      for ok in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
        let status = try get("Host: \(ok)\n")
        #expect(status == 200, "\(ok)")
      }
      for refused in ["127.attacker.example:\(port)", "127.0.0.1", "127.0.0.1:1", "evil.example", "127.0.0.1.evil.example:\(port)"] {
        let status = try get("Host: \(refused)\n")
        #expect(status == 403, "\(refused)")
      }
      let r1 = try get("")
      #expect(r1 == 400)
      let r2 = try get("Host: \n")
      #expect(r2 == 400)
      let r3 = try get("Host: 127.0.0.1:\(port)\nHost: evil.example\n")
      #expect(r3 == 400)
    }
  }

  @Test("Origin: this machine's page only; another site, null or two Origins are refused")
  func origin() async throws {
    try await withServer { port in
      func get(_ origin: String) throws -> Int {
        try RawHTTP.send(port: port, "GET / HTTP/1.1\nHost: 127.0.0.1:\(port)\n\(origin)Connection: close\n\n").status
      }
      let r4 = try get("Origin: http://127.0.0.1:\(port)\n")
      #expect(r4 == 200)
      let r5 = try get("Origin: http://localhost:\(port)\n")
      #expect(r5 == 200)
      let r6 = try get("Origin: http://evil.example\n")
      #expect(r6 == 403)
      let r7 = try get("Origin: http://127.attacker.example:\(port)\n")
      #expect(r7 == 403)
      let r8 = try get("Origin: null\n")
      #expect(r8 == 403)
      let r9 = try get("Origin: http://127.0.0.1:\(port)\nOrigin: http://127.0.0.1:\(port)\n")
      #expect(r9 == 400)
    }
  }

  @Test("HEAD of a page is 200 with its length; a method a path does not take is 405 with Allow; a path not served is a JSON 404")
  func methods() async throws {
    try await withServer { port in
      let head = try RawHTTP.send(port: port, "HEAD / HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      #expect(head.status == 200 && Int(head.headers["content-length"] ?? "") == PlannerPage.html.utf8.count)
      let delete = try RawHTTP.send(port: port, "DELETE / HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      #expect(delete.status == 405 && delete.headers["allow"] == "GET, HEAD")
      let getAPI = try RawHTTP.send(port: port, "GET /api/run HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      #expect(getAPI.status == 405 && getAPI.headers["allow"] == "POST")
      let missing = try RawHTTP.send(port: port, "GET /../../etc/passwd HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      #expect(missing.status == 404)
      // A path the planner does not serve: its JSON refusal with the pages' headers (it was an
      // empty 404 without them).
      let unknown = try RawHTTP.send(port: port, "GET /api/nope HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      #expect(unknown.status == 404 && unknown.headers["content-type"] == "application/json")
      #expect(unknown.headers["x-content-type-options"] == "nosniff")
      let said = try JSONSerialization.jsonObject(with: unknown.body) as? [String: Any]
      #expect(said?["ok"] as? Bool == false && (said?["error"] as? String ?? "").contains("/api/run"), "\(String(decoding: unknown.body, as: UTF8.self))")
    }
  }

  @Test("bodies: a huge Content-Length is refused before any body is read; JSON in any case of its type; other types 415")
  func bodies() async throws {
    try await withServer { port in
      let huge = try RawHTTP.send(
        port: port,
        "POST /api/run HTTP/1.1\nHost: 127.0.0.1:\(port)\nContent-Type: application/json\nContent-Length: 1000000000000000\nConnection: close\n\n")
      #expect(huge.status == 413)
      let small = scenarioJSON("name: x\npopulation: {size: 5}\nduration: 2d\n")
      let r10 = try post(port, json: small, type: "APPLICATION/JSON; charset=UTF-8").status
      #expect(r10 == 200)
      let r11 = try post(port, json: small, type: "text/plain").status
      #expect(r11 == 415)
      // A body that is not the request's JSON is a bad request (400; it was 422, the status
      // of a well-formed request whose scenario is wrong).
      let r12 = try post(port, json: "{not json").status
      #expect(r12 == 400)
      let noScenario = try post(port, json: #"{"files": {}}"#).status
      #expect(noScenario == 400)
      let badName = try post(port, json: #"{"scenario": "name: x", "files": {"../a": "x"}}"#).status
      #expect(badName == 400)
      let wrong = try post(port, json: scenarioJSON("name: x\nprotocol: {expiry: -3m}\n"))
      #expect(wrong.status == 422 && String(decoding: wrong.body, as: UTF8.self).contains("protocol.expiry"), "\(wrong.status)")
    }
  }

  @Test("work limits: participant-days, variants (8,000 one-day variants were 53 s and 633 MB), 257 schedules served, a chain of follow-ups refused by its prompts")
  func workLimits() async throws {
    try await withServer { port in
      let days = try post(port, json: scenarioJSON("name: x\npopulation: {size: 1000}\nduration: 365d\n"))
      #expect(days.status == 413 && String(decoding: days.body, as: UTF8.self).contains("participant-days"))
      let variants = "name: x\npopulation: {size: 1}\nduration: 1d\nvariants:\n" + (0..<9).map { "  - {name: v\($0)}\n" }.joined()
      let many = try post(port, json: scenarioJSON(variants))
      #expect(many.status == 413 && String(decoding: many.body, as: UTF8.self).contains("at most 8"), "\(many.status)")
      let thousands = "name: x\npopulation: {size: 1}\nduration: 1d\nvariants:\n" + (0..<8_000).map { "  - {name: v\($0)}\n" }.joined()
      let r13 = try post(port, json: scenarioJSON(thousands)).status
      #expect(r13 == 422)
      // An ESMira study of 257 signal times: one request killed the server before.
      let times = (0..<257).map { #"{"startTimeOfDay": \#(21_600_000 + $0 * 60_000), "random": false}"# }.joined(separator: ",")
      let study = """
        {"id": 1, "title": "Many", "questionnaires": [{"title": "Mood",
          "pages": [{"inputs": [{"name": "mood", "text": "How do you feel?", "responseType": "likert"}]}],
          "actionTriggers": [{"actions": [{"type": 1, "msgText": "Now", "timeout": 30}],
            "schedules": [{"dailyRepeatRate": 1, "weekdays": 0, "signalTimes": [\(times)]}]}]}]}
        """
      let reply = try post(port, json: scenarioJSON("name: x\npopulation: {size: 1}\nduration: 1d\nprotocol: {esmira_study: s.json}\n", files: ["s.json": study]))
      #expect(reply.status == 200)
      let r14 = try RawHTTP.send(port: port, "GET / HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n").status
      #expect(r14 == 200)
      // A questionnaire sent on its own notification, at once: a chain of up to 200 a day
      // (ESMira sets no limit), refused by its prompts within the participant-days.
      let chain = """
        {"title": "Chain", "questionnaires": [{"title": "Mood", "pages": [{"inputs": [{"name": "mood"}]}],
          "actionTriggers": [{"actions": [{"type": 1, "timeout": 30}], "eventTriggers": [{"cueCode": "invitation"}],
            "schedules": [{"userEditable": false, "signalTimes": [{"startTimeOfDay": 36000000}]}]}]}]}
        """
      let chained = try post(
        port,
        json: scenarioJSON(
          "name: x\npopulation: {size: 100}\nduration: 180d\nprotocol: {esmira_study: c.json}\n", files: ["c.json": chain]))
      #expect(chained.status == 413 && String(decoding: chained.body, as: UTF8.self).contains("prompts"), "\(String(decoding: chained.body, as: UTF8.self))")
      // 100,000 one-day replications are within the participant-days but took a minute.
      let replications = try post(port, json: scenarioJSON("name: x\nreplications: 101\npopulation: {size: 1}\nduration: 1d\n"))
      #expect(replications.status == 413 && String(decoding: replications.body, as: UTF8.self).contains("replications: 101"))
      // A results archive of a 1,000 Hz sensor's rows: gigabytes from one participant-day.
      let rows = "name: x\npopulation: {size: 1}\nduration: 1d\nprotocol: {sensors: {accelerometer: {hz: 1000}}}\noutputs: {beiwe_sensors: true}\n"
      let results = try post(port, path: "/api/results", json: scenarioJSON(rows))
      #expect(results.status == 413 && String(decoding: results.body, as: UTF8.self).contains("of files"), "\(results.status)")
    }
  }

  @Test("one simulation at a time: with no room to wait, a second request is told the server is busy (503, Retry-After)")
  func busy() async throws {
    try await withServer(limits: .init(participantDays: 200_000), queue: 0) { port in
      // As long as the limit allows (seconds in a test build): 1,000 participants for 20 days
      // were done within the 0.4 s wait on a quiet machine once the simulation ran optimised.
      let long = scenarioJSON("name: x\npopulation: {size: 10000}\nduration: 20d\n")
      nonisolated(unsafe) var firstStatus = 0
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        firstStatus = (try? post(port, json: long).status) ?? -1
        done.signal()
      }
      Thread.sleep(forTimeInterval: 0.4)
      let busy = try post(port, json: scenarioJSON("name: y\npopulation: {size: 1}\nduration: 1d\n"))
      #expect(busy.status == 503 && busy.headers["retry-after"] == "2", "\(busy.headers)")
      done.wait()
      #expect(firstStatus == 200)
    }
  }

  @Test("bodies sent slowly by many requests are read 16 at a time (their memory grew without bound); the server serves again after")
  func slowBodies() async throws {
    try await withServer { port in
      // 16 requests that send their headers and part of a body, and wait.
      var held: [Int32] = []
      defer { for fd in held { close(fd) } }
      for _ in 0..<PlannerServer.bodiesAtOnce {
        let fd = RawHTTP.connected(port: port)
        let head = "POST /api/run HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"scenario\": \""
        _ = Array(head.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        held.append(fd)
      }
      Thread.sleep(forTimeInterval: 0.5)
      let refused = try post(port, json: scenarioJSON("name: y\npopulation: {size: 1}\nduration: 1d\n"))
      #expect(refused.status == 503 && String(decoding: refused.body, as: UTF8.self).contains("reading too many requests"))
      for fd in held { close(fd) }
      held = []
      Thread.sleep(forTimeInterval: 0.5)
      #expect(try post(port, json: scenarioJSON("name: y\npopulation: {size: 1}\nduration: 1d\n")).status == 200)
    }
  }

  @Test("a request's participant, truth and keys are checked: a wrong kind or an unknown key is 400 naming it; no refusal header when quiet")
  func requestKeys() async throws {
    try await withServer(log: nil) { port in
      let scenario = "\"scenario\": \"name: y\\npopulation: {size: 2}\\nduration: 1d\\n\""
      for (extra, names) in [
        (#""participant": "1""#, "participant"), (#""participant": true"#, "participant"), (#""participant": 1.5"#, "participant"),
        (#""participant": -7"#, "participant"), (#""participant": 1e300"#, "participant"), (#""truth": "yes""#, "truth"),
        (#""truth": 1"#, "truth"), (#""scenari": 1"#, "scenari"),
      ] {
        let r = try post(port, json: "{\(scenario), \(extra)}")
        #expect(r.status == 400 && String(decoding: r.body, as: UTF8.self).contains(names), "\(extra): \(r.status)")
        #expect(r.headers["x-esmsim-refusal"] == nil)
      }
      for extra in [#""participant": 1"#, #""participant": 1000000000000000000"#, #""truth": true"#] {
        #expect(try post(port, json: "{\(scenario), \(extra)}").status == 200, "\(extra)")
      }
    }
  }

  @Test("a log line per request: method, path, status, milliseconds, and a refusal's reason")
  func log() async throws {
    let lines = LogLines()
    try await withServer(log: { lines.append($0) }) { port in
      _ = try RawHTTP.send(port: port, "GET /teach HTTP/1.1\nHost: 127.0.0.1:\(port)\nConnection: close\n\n")
      _ = try post(port, json: "{}", type: "text/plain")
    }
    let all = lines.all
    #expect(all.count == 2, "\(all)")
    #expect(all.first?.contains("GET /teach 200 ") == true)
    #expect(all.last?.contains("POST /api/run 415 ") == true && all.last?.contains("application/json") == true)
  }

  @Test("the results zip streams from a file: a valid archive, and the temporary folder is gone")
  func resultsZip() async throws {
    try await withServer { port in
      let reply = try post(port, path: "/api/results", json: scenarioJSON("name: x\npopulation: {size: 4}\nduration: 2d\noutputs: {beiwe: true}\n"))
      #expect(reply.status == 200 && reply.headers["content-type"] == "application/zip")
      #expect(Int(reply.headers["content-length"] ?? "") == reply.body.count)
      let names = try ZipCheck.names(reply.body)
      #expect(names.contains("results/summary.csv") && names.contains { $0.hasPrefix("results/beiwe/") }, "\(names.prefix(5))")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
      .filter { $0.hasPrefix("esmsim-serve-\(getpid())-") }
    #expect(left.isEmpty, "\(left)")
  }
}

final class LogLines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) { lock.withLock { lines.append(line) } }
  var all: [String] { lock.withLock { lines } }
}

/// Reads a zip with Python's zipfile (an independent reader): its names, after checking every
/// member's CRC.
enum ZipCheck {
  static func names(_ zip: Data) throws -> [String] {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-zipcheck-\(UUID().uuidString).zip")
    try zip.write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    return try names(file: path.path)
  }

  static func names(file: String) throws -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", "-c",
      "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); bad = z.testzip(); assert bad is None, bad; print('\\n'.join(z.namelist()))",
      file,
    ]
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "python's zipfile could not read the archive")
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}

@Suite("The zip writer")
struct ZipWriterTests {
  /// Packs `count` one-byte files and returns the archive's path.
  func archive(files count: Int) throws -> String {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("esmsim-zip-\(UUID().uuidString)").path
    try fm.createDirectory(atPath: root, withIntermediateDirectories: false)
    let file = root + "/f"
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let fd = open(root + "/a.zip", O_RDWR | O_CREAT, 0o600)
    defer { close(fd) }
    var writer = ZipWriter(fd: fd)
    for i in 0..<count { try writer.add("d/\(i)", path: file) }
    _ = try writer.finish()
    return root + "/a.zip"
  }

  @Test("65,534 files fit the classic records; from 65,535 (0xFFFF marks ZIP64) they get ZIP64's (a 16-bit count trapped the server before); both read back")
  func zip64Boundary() throws {
    for count in [65_534, 65_536] {
      let path = try archive(files: count)
      defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
      let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
      let zip64 = bytes.range(of: Data([0x50, 0x4b, 0x06, 0x06])) != nil
      #expect(zip64 == (count >= 65_535), "\(count) files")
      let names = try ZipCheck.names(file: path)
      #expect(names.count == count && names.last == "d/\(count - 1)")
    }
  }
}
