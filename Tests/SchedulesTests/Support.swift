import Schedules
import SimKernel

/// A stream for a test (purpose: schedule), numbered so tests do not share numbers.
func stream(_ seed: UInt64) -> RandomStream {
  RandomStream(StreamAddress(seed: seed, purpose: .schedule))
}

func window(_ text: String) -> Window {
  // Test windows are written correctly; a bad one is a bug in the test.
  try! Window(parsing: text)
}

/// Draws `days` days and hands each to `check`.
func eachDay(_ s: some SignalScheduler, _ w: Window, days: Int, seed: UInt64, _ check: ([Double]) -> Void) {
  var st = stream(seed)
  var times: [Double] = []
  for _ in 0..<days {
    times.removeAll(keepingCapacity: true)
    s.schedule(in: w, into: &times, using: &st)
    check(times)
  }
}

func isSorted(_ t: [Double]) -> Bool { zip(t, t.dropFirst()).allSatisfy { $0 <= $1 } }

func gaps(_ t: [Double]) -> [Double] { zip(t, t.dropFirst()).map { $1 - $0 } }
