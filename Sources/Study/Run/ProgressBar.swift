import Foundation

/// A progress bar on standard error, only when it is a terminal: participants done, rate and
/// time left. It writes nothing else and changes no result. With `ESMSIM_PROGRESS=json` it
/// writes, terminal or not, one JSON line per update instead, for programs that draw their
/// own bar (the R package): `{"progress": {"step": 1, "steps": 2, "label": "…", "done": 128,
/// "participants": 200, "seconds": 1.5, "seconds_left": 0.8}}`.
final class ProgressBar: @unchecked Sendable {
  let enabled: Bool
  let json: Bool
  let total: Int
  var step = 0
  var label = ""
  var participants = 1
  var started = Date()

  init(enabled: Bool, total: Int) {
    json = ProcessInfo.processInfo.environment["ESMSIM_PROGRESS"] == "json"
    self.enabled = enabled && (json || isatty(2) != 0)
    self.total = total
  }

  func start(variant: String, replication: Int, participants: Int) {
    step += 1
    label = "\(variant) r\(replication)"
    self.participants = max(participants, 1)
    started = Date()
    update(0)
  }

  func update(_ done: Int) {
    guard enabled else { return }
    let elapsed = Date().timeIntervalSince(started)
    let rate = elapsed > 0 ? Double(done) / elapsed : 0
    let left = rate > 0 ? Double(participants - done) / rate : 0
    if json {
      let label = self.label.unicodeScalars.map { $0 == "\"" || $0 == "\\" || $0.value < 0x20 ? "_" : String($0) }.joined()
      let line =
        "{\"progress\": {\"step\": \(step), \"steps\": \(total), \"label\": \"\(label)\", \"done\": \(done), \"participants\": \(participants), \"seconds\": \(String(format: "%.3f", elapsed)), \"seconds_left\": \(String(format: "%.3f", left))}}\n"
      FileHandle.standardError.write(Data(line.utf8))
      return
    }
    let width = 30
    let filled = Int(Double(width) * Double(done) / Double(participants))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let line = "\r[\(step)/\(total)] \(label) [\(bar)] \(done)/\(participants) participants, \(Int(rate))/s, \(Int(left)) s left "
    FileHandle.standardError.write(Data(line.utf8))
  }

  func finish() {
    guard enabled, !json else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
