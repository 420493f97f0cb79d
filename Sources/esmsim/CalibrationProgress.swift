import Calibration
import Foundation

/// `esmsim calibrate`'s progress on standard error, as `esmsim run` draws it: a bar on a
/// terminal, or with `ESMSIM_PROGRESS=json` one JSON line per update (what R's
/// `esm_calibrate()` draws its bar from; the same fields as a run's: step, steps, label, done
/// and participants, here the simulations of the step and its budget). At most five updates
/// a second.
final class CalibrationProgress: @unchecked Sendable {
  let json = ProcessInfo.processInfo.environment["ESMSIM_PROGRESS"] == "json"
  let enabled: Bool
  var started = Date()
  var last = Date.distantPast
  var step = 0

  init() { enabled = json || isatty(2) != 0 }

  func update(_ p: CalibrationRun.Progress) {
    guard enabled else { return }
    if p.step != step {
      step = p.step
      started = Date()
    }
    let now = Date()
    guard now.timeIntervalSince(last) >= 0.2 || p.done >= p.of else { return }
    last = now
    let elapsed = now.timeIntervalSince(started)
    let left = p.done > 0 ? elapsed / Double(p.done) * Double(max(p.of - p.done, 0)) : 0
    if json {
      let line =
        "{\"progress\": {\"step\": \(p.step), \"steps\": \(p.steps), \"label\": \"\(p.stage)\", \"done\": \(min(p.done, p.of)), \"participants\": \(p.of), \"seconds\": \(String(format: "%.3f", elapsed)), \"seconds_left\": \(String(format: "%.3f", left))}}\n"
      FileHandle.standardError.write(Data(line.utf8))
    } else {
      let line = "\r[\(p.step)/\(p.steps)] \(p.stage): \(min(p.done, p.of)) of up to \(p.of) simulations, \(Int(100 * p.share)) % "
      FileHandle.standardError.write(Data(line.utf8))
    }
  }

  func finish() {
    guard enabled, !json else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
  }
}
