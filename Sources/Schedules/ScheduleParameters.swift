/// The parameters of a schedule as a user gives them (command line or scenario file), before
/// they are checked and turned into an ``AnyScheduler``. A `nil` takes the algorithm's
/// default, which each algorithm's file documents with its source.
public struct ScheduleParameters: Sendable, Hashable {
  /// Signals per day (a whole number except for `bernoulli`).
  public var perDay: Double?
  /// Mappiness: minutes before the end of the hours at which signalling stops.
  public var endMargin: Double?
  /// Fixed blocks: the minimum gap between signals, minutes.
  public var minGap: Double?
  /// Fixed blocks: how the gap is enforced.
  public var gapMethod: GapMethod?
  /// Fixed blocks: custom blocks as clock times.
  public var blocks: [ClockRange]?
  /// Fixed times: the clock times.
  public var times: [ClockTime]?
  /// Fixed times: ± jitter in whole minutes, redrawn daily.
  public var jitter: Int?
  /// Chain: the fixed lag, minutes.
  public var fixedLag: Double?
  /// Chain: the largest random lag, minutes.
  public var randomLag: Double?
  /// Buffered blocks: the share of each block excluded at each end.
  public var buffer: Double?

  /// Creates parameters; every one defaults to the algorithm's own default.
  public init(
    perDay: Double? = nil, endMargin: Double? = nil, minGap: Double? = nil, gapMethod: GapMethod? = nil,
    blocks: [ClockRange]? = nil, times: [ClockTime]? = nil, jitter: Int? = nil, fixedLag: Double? = nil,
    randomLag: Double? = nil, buffer: Double? = nil
  ) {
    self.perDay = perDay
    self.endMargin = endMargin
    self.minGap = minGap
    self.gapMethod = gapMethod
    self.blocks = blocks
    self.times = times
    self.jitter = jitter
    self.fixedLag = fixedLag
    self.randomLag = randomLag
    self.buffer = buffer
  }

  /// The parameters the algorithm `name` reads besides `per-day` (which every one reads), in
  /// ``ScheduleParameter`` order.
  public static func read(by name: AnyScheduler.Name) -> [ScheduleParameter] {
    switch name {
    case .mappiness: [.endMargin]
    case .fixedBlocks: [.minGap, .gapMethod, .blocks]
    case .bernoulli: []
    case .fixedTimes: [.times, .jitter]
    case .chain: [.fixedLag, .randomLag]
    case .bufferedBlocks: [.buffer]
    }
  }

  /// The parameters given (not nil) that the algorithm `name` does not read, in
  /// ``ScheduleParameter`` order: a scenario file refuses them as unknown keys, the command
  /// line by flag.
  public func unread(by name: AnyScheduler.Name) -> [ScheduleParameter] {
    let given: [(ScheduleParameter, Bool)] = [
      (.endMargin, endMargin != nil), (.minGap, minGap != nil), (.gapMethod, gapMethod != nil),
      (.blocks, blocks != nil), (.times, times != nil), (.jitter, jitter != nil), (.fixedLag, fixedLag != nil),
      (.randomLag, randomLag != nil), (.buffer, buffer != nil),
    ]
    let reads = Self.read(by: name)
    return given.filter { $0.1 && !reads.contains($0.0) }.map(\.0)
  }

  /// These parameters with those the algorithm `name` does not read left out (what
  /// `esmsim schedule compare` gives each algorithm it runs).
  public func keepingRead(by name: AnyScheduler.Name) -> ScheduleParameters {
    var p = self
    for parameter in unread(by: name) {
      switch parameter {
      case .endMargin: p.endMargin = nil
      case .minGap: p.minGap = nil
      case .gapMethod: p.gapMethod = nil
      case .blocks: p.blocks = nil
      case .times: p.times = nil
      case .jitter: p.jitter = nil
      case .fixedLag: p.fixedLag = nil
      case .randomLag: p.randomLag = nil
      case .buffer: p.buffer = nil
      case .algorithm, .window, .perDay: break
      }
    }
    return p
  }

  /// A minimum gap given without a method that keeps it (fixed blocks keep one only with a
  /// ``gapMethod`` other than ``GapMethod/none``): said, since it changes nothing.
  public var unkeptMinGap: Double? {
    guard let gap = minGap, gap > 0, (gapMethod ?? GapMethod.none) == GapMethod.none else { return nil }
    return gap
  }
}

extension AnyScheduler {
  /// Builds a scheduler from its name and parameters, and checks it against the window.
  ///
  /// - Throws: ``ScheduleError`` naming the parameter that is missing or impossible.
  public init(_ name: Name, _ p: ScheduleParameters, window: Window) throws(ScheduleError) {
    func whole(_ value: Double?, default d: Int?) throws(ScheduleError) -> Int {
      guard let value else {
        if let d { return d }
        throw ScheduleError(.perDay, "\(name.rawValue) needs the number of signals per day")
      }
      guard value.isFinite, value == value.rounded() else {
        throw ScheduleError(.perDay, "signals per day must be a whole number for \(name.rawValue), not \(value)")
      }
      guard abs(value) < 1e6 else {
        throw ScheduleError(.perDay, "at most 999,999 signals a day, not \(Int(exactly: value).map(String.init) ?? "\(value)")")
      }
      return Int(value)
    }
    switch name {
    case .mappiness:
      self = .mappiness(
        Mappiness(
          perDay: try whole(p.perDay, default: Mappiness.defaultPerDay),
          endMargin: p.endMargin ?? Mappiness.defaultEndMargin))
    case .fixedBlocks:
      let layout: FixedBlocks.Layout
      if let blocks = p.blocks {
        if let n = p.perDay, Int(exactly: n) != blocks.count {
          throw Self.countGiven(blocks.count, "block", perDay: n)
        }
        layout = .custom(blocks)
      } else {
        layout = .equal(try whole(p.perDay, default: nil))
      }
      self = .fixedBlocks(FixedBlocks(layout: layout, minGap: p.minGap ?? 0, method: p.gapMethod ?? .none))
    case .bernoulli:
      guard let n = p.perDay else { throw ScheduleError(.perDay, "bernoulli needs the expected signals per day") }
      self = .bernoulli(Bernoulli(perDay: n))
    case .fixedTimes:
      guard let times = p.times else { throw ScheduleError(.times, "fixed-times needs clock times, for example 09:00,17:00") }
      if let n = p.perDay, Int(exactly: n) != times.count {
        throw Self.countGiven(times.count, "clock time", perDay: n)
      }
      self = .fixedTimes(FixedTimes(times: times, jitter: p.jitter ?? 0))
    case .chain:
      let d = Chain()
      self = .chain(
        Chain(
          perDay: try whole(p.perDay, default: d.perDay), fixedLag: p.fixedLag ?? d.fixedLag,
          randomLag: p.randomLag ?? d.randomLag))
    case .bufferedBlocks:
      self = .bufferedBlocks(
        BufferedBlocks(perDay: try whole(p.perDay, default: nil), buffer: p.buffer ?? BufferedBlocks.defaultBuffer))
    }
    try validate(for: window)
  }
}

extension AnyScheduler {
  /// `per_day` against the count of blocks or clock times that set it: "1 clock time gives
  /// 1 signal a day, not 3".
  static func countGiven(_ count: Int, _ what: String, perDay n: Double) -> ScheduleError {
    let one = count == 1
    return ScheduleError(
      .perDay,
      "\(count) \(what)\(one ? " gives" : "s give") \(count) signal\(one ? "" : "s") a day, not \(Int(exactly: n).map(String.init) ?? "\(n)")")
  }
}
