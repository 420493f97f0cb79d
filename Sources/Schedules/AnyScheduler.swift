import SimKernel

/// Every algorithm by name, behind one concrete type: what the command line and scenario
/// files build, and what the simulator stores (an enum, so the hot path has no existentials).
public enum AnyScheduler: SignalScheduler, Hashable {
  case mappiness(Mappiness)
  case fixedBlocks(FixedBlocks)
  case bernoulli(Bernoulli)
  case fixedTimes(FixedTimes)
  case chain(Chain)
  case bufferedBlocks(BufferedBlocks)

  /// The algorithms' names as users type them.
  public enum Name: String, Sendable, CaseIterable {
    case mappiness, fixedBlocks = "fixed-blocks", bernoulli, fixedTimes = "fixed-times", chain
    case bufferedBlocks = "buffered-blocks"
  }

  /// The algorithm's name.
  public var name: Name {
    switch self {
    case .mappiness: .mappiness
    case .fixedBlocks: .fixedBlocks
    case .bernoulli: .bernoulli
    case .fixedTimes: .fixedTimes
    case .chain: .chain
    case .bufferedBlocks: .bufferedBlocks
    }
  }

  /// The gap method, for fixed blocks.
  public var gapMethod: GapMethod? {
    if case .fixedBlocks(let f) = self { return f.method }
    return nil
  }

  @usableFromInline
  var scheduler: any SignalScheduler {
    switch self {
    case .mappiness(let s): s
    case .fixedBlocks(let s): s
    case .bernoulli(let s): s
    case .fixedTimes(let s): s
    case .chain(let s): s
    case .bufferedBlocks(let s): s
    }
  }

  public func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream) {
    switch self {
    case .mappiness(let s): s.schedule(in: window, into: &times, using: &stream)
    case .fixedBlocks(let s): s.schedule(in: window, into: &times, using: &stream)
    case .bernoulli(let s): s.schedule(in: window, into: &times, using: &stream)
    case .fixedTimes(let s): s.schedule(in: window, into: &times, using: &stream)
    case .chain(let s): s.schedule(in: window, into: &times, using: &stream)
    case .bufferedBlocks(let s): s.schedule(in: window, into: &times, using: &stream)
    }
  }

  public func samplingWindow(for window: Window) -> Block { scheduler.samplingWindow(for: window) }

  public func validate(for window: Window) throws(ScheduleError) {
    try scheduler.validate(for: window)
  }
}

extension AnyScheduler {
  /// What `esmsim schedule compare` runs, in order: every algorithm, fixed blocks once per
  /// gap method.
  public static let comparisonLineUp: [(Name, GapMethod?)] =
    [(.mappiness, nil)] + GapMethod.allCases.map { (.fixedBlocks, $0) }
    + [(.bernoulli, nil), (.fixedTimes, nil), (.chain, nil), (.bufferedBlocks, nil)]
}
