import Dispatch
import Foundation

/// Runs `side` on a thread of its own while `main` runs on the calling thread, and returns
/// both results: for the independent pieces of work at the end of a run, when the workers
/// have finished and the cores are free. The results do not depend on which finishes first.
func sideBySide<A: Sendable, B>(_ side: @escaping @Sendable () -> A, _ main: () -> B) -> (A, B) {
  let box = SideResult<A>()
  let done = DispatchSemaphore(value: 0)
  let thread = Thread {
    box.value = side()
    done.signal()
  }
  thread.stackSize = 8 << 20
  thread.start()
  let b = main()
  done.wait()  // the semaphore orders the write to `box` before this read
  return (box.value!, b)
}

/// The result of the side thread of ``sideBySide(_:_:)``, written once before it signals.
private final class SideResult<A>: @unchecked Sendable {
  var value: A?
}
