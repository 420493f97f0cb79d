import SimKernel

/// Equal blocks with a buffer at both ends of each: mEMA ([@mEMA]: "Survey Timing Basics"
/// and "Momentary Surveys": with Randomize, a random time inside each interval, with a 10 %
/// buffer at each interval edge).
///
/// The draw is uniform on `[a + f·B, b − f·B]` in each block `[a, b)` of length B.
/// Choice: mEMA's docs give no distribution; uniform is assumed.
public struct BufferedBlocks: SignalScheduler, Hashable {
  /// Signals per day (one per block).
  public var perDay: Int
  /// The share of each block excluded at each end (mEMA: 0.10).
  public var buffer: Double

  /// mEMA's buffer: 10 % of the interval at each edge.
  public static let defaultBuffer = 0.10

  /// Creates the scheduler.
  public init(perDay: Int, buffer: Double = BufferedBlocks.defaultBuffer) {
    self.perDay = perDay
    self.buffer = buffer
  }

  public func validate(for window: Window) throws(ScheduleError) {
    guard perDay >= 1 else { throw ScheduleError(.perDay, "at least 1 signal a day, not \(perDay)") }
    guard buffer >= 0, buffer < 0.5 else {
      throw ScheduleError(.buffer, "the buffer is a share of each block in [0, 0.5), not \(buffer)")
    }
  }

  public func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    let block = window.length / Double(perDay)
    for i in 0..<perDay {
      let a = Double(i) * block + buffer * block
      times.append(a + stream.uniform() * (1 - 2 * buffer) * block)
    }
  }
}
