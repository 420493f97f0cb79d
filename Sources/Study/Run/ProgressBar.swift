import Foundation

/// A progress bar on standard error, only when it is a terminal: participants done, rate and
/// time left. It writes nothing else and changes no result.
final class ProgressBar: @unchecked Sendable {
  let enabled: Bool
  let total: Int
  var step = 0
  var label = ""
  var participants = 1
  var started = Date()

  init(enabled: Bool, total: Int) {
    self.enabled = enabled && isatty(2) != 0
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
    let width = 30
    let filled = Int(Double(width) * Double(done) / Double(participants))
    let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
    let line = "\r[\(step)/\(total)] \(label) [\(bar)] \(done)/\(participants) participants, \(Int(rate))/s, \(Int(left)) s left "
    FileHandle.standardError.write(Data(line.utf8))
  }

  func finish() {
    guard enabled else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
