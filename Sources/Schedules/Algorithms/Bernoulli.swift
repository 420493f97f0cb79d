import SimKernel

/// Each minute of the window is a signal with probability n/W: the "too random" design of
/// MacKerron's thesis ([@MacKerron2012], section "Scheduling": p = 1/720 for one signal a
/// day over 8 am–8 pm).
///
/// The count per day is Binomial(W, n/W) (mean n, variance n(1 − n/W)); gaps are geometric.
/// Instead of one draw per minute, the number of minutes to the next signal is drawn
/// directly, Geometric(p) by inverse CDF, which is the same distribution at the cost of
/// one draw per signal. A signal falls at the start of its minute; W is the window's
/// whole minutes.
public struct Bernoulli: SignalScheduler, Hashable {
  /// The expected number of signals per day.
  public var perDay: Double

  /// Creates the scheduler.
  public init(perDay: Double) { self.perDay = perDay }

  public func validate(for window: Window) throws(ScheduleError) {
    let minutes = window.length.rounded(.down)
    guard perDay > 0, perDay.isFinite, perDay <= minutes else {
      throw ScheduleError(.perDay, "a per-minute chance needs 0 < signals per day ≤ \(Int(minutes)) (the window's minutes), not \(perDay)")
    }
  }

  public func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    let minutes = Int(window.length.rounded(.down))
    let p = perDay / Double(minutes)
    if p >= 1 {
      for m in 0..<minutes { times.append(Double(m)) }
      return
    }
    let logQ = log1p(-p)
    var minute = -1
    while true {
      // Failures before the next success: ⌊log U / log(1 − p)⌋, U in (0, 1).
      let skip = (log(stream.openUniform()) / logQ).rounded(.down)
      guard skip < Double(minutes) else { return }
      minute += 1 + Int(skip)
      guard minute < minutes else { return }
      times.append(Double(minute))
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
