import SimKernel

/// One sensor's tallies over a participant's hours.
public struct SensorTally: Sendable, Equatable {
  /// Hours classified Comp, Incomp and Loss (periodic sensors; event sensors only in hours
  /// with at least one event).
  public var comp = 0
  public var incomp = 0
  public var loss = 0
  /// Samples (or events) expected, collected on the phone, received by the server.
  public var expected = 0
  public var collected = 0
  public var received = 0

  /// Creates an empty tally.
  public init() {}

  /// Hours classified.
  public var hours: Int { comp + incomp + loss }

  /// Adds another tally.
  public mutating func add(_ o: SensorTally) {
    comp += o.comp
    incomp += o.incomp
    loss += o.loss
    expected += o.expected
    collected += o.collected
    received += o.received
  }

  mutating func count(_ status: CoverageStatus) {
    switch status {
    case .comp: comp += 1
    case .incomp: incomp += 1
    case .loss: loss += 1
    }
  }
}

/// Counts, after a participant's study, what each sensor collected per participant-hour, what
/// reached the server, and the RAPIDS data yield, all from the stretches in which the app ran
/// (no event per sample).
public struct CoverageCalculator {
  /// The sensors' tallies, in the protocol's order.
  public private(set) var tallies: [SensorTally]
  /// Per participant-hour rows, when asked for.
  public private(set) var rows: [CoverageRecord] = []
  /// RAPIDS data yield over the participant's days.
  public private(set) var yield = DataYield()
  /// The collected share of the first sensor's expected samples per study hour of the first
  /// `heatHours` hours (for the participant × hour heat map), nan where not enrolled.
  public private(set) var heat: [Float] = []

  /// Counts everything.
  ///
  /// - Parameters:
  ///   - sensors: the protocol's sensors.
  ///   - runs: when the app ran; `foreground`: when it was in the foreground.
  ///   - phoneOn: when the phone was on; `lowPower`: when Low Power Mode was on.
  ///   - timeline: the participant's episodes (network, phone at hand, sleep).
  ///   - enrolledUntil: the end of the participant's time in the study.
  ///   - lastSync: data collected before this reached the server.
  ///   - checksPerHour: phone checks per waking hour (screen events).
  ///   - batteryTrace: the battery level at every change of its rate (battery events).
  public init(
    sensors: [SensorPlan], runs: Intervals, foreground: Intervals, phoneOn: Intervals, lowPower: Intervals,
    timeline: Timeline, enrolledUntil: SimTime, lastSync: SimTime, checksPerHour: Double,
    batteryTrace: [(SimTime, Double)], stream: inout RandomStream, keepRows: Bool, heatHours: Int = 0
  ) {
    tallies = Array(repeating: SensorTally(), count: sensors.count)
    let reachable = Self.spans(timeline) { $0.network != .unreachable }
    let usable = reachable.intersection(lowPower.complement(from: 0, to: enrolledUntil).union(foreground))
    let atHand = Self.spans(timeline) { $0.context != .asleep && $0.phoneAtHand }
    let hours = Int(enrolledUntil / Tick.hour)
    var runCursor = Array(repeating: 0, count: sensors.count)
    var onCursor = Array(repeating: 0, count: sensors.count)
    // Sensors sampling at least once a minute fill every minute between their first and last
    // sample of a run stretch; the fastest of them stands for all (slower ones are enumerated).
    let minPeriod = sensors.compactMap { s -> SimTime? in
      if case .periodic(let p) = s.kind, !s.coprocessor, !s.needsNetwork, p <= Tick.minute { return p }
      return nil
    }.min()
    heat = Array(repeating: .nan, count: heatHours)
    var yieldRunCursor = 0
    for h in 0..<hours {
      let lo = SimTime(h) * Tick.hour
      let hi = lo + Tick.hour
      var mask: UInt64 = 0
      for (k, sensor) in sensors.enumerated() {
        var expected = 0
        var collected = 0
        var received = 0
        switch sensor.kind {
        case .periodic(let period):
          expected = sensor.expectedPerHour
          if sensor.coprocessor {
            collected = Yield.coprocessor(on: phoneOn, period: period, from: lo, to: hi, cursor: &onCursor[k])
            var c = onCursor[k]
            received = lastSync >= hi ? collected : Yield.coprocessor(on: phoneOn, period: period, from: lo, to: min(hi, lastSync), cursor: &c)
            Self.markGrid(&mask, origins: phoneOn, fixedOrigin: true, period: period, lo: lo, hi: hi, usable: nil)
          } else {
            let u = sensor.needsNetwork ? usable : nil
            collected = Yield.periodic(runs: runs, period: period, from: lo, to: hi, usable: u, cursor: &runCursor[k])
            var c = runCursor[k]
            received = lastSync >= hi ? collected : Yield.periodic(runs: runs, period: period, from: lo, to: min(hi, max(lastSync, lo)), usable: u, cursor: &c)
            if sensor.needsNetwork || period > Tick.minute {
              Self.markGrid(&mask, origins: runs, fixedOrigin: false, period: period, lo: lo, hi: hi, usable: u)
            }
          }
        case .screen:
          // Screen on and off at each phone check while awake with the phone at hand;
          // recorded only while the app runs.
          let exposure = Yield.overlap(atHand, from: lo, to: hi)
          expected = 2 * stream.poisson(mean: checksPerHour * Double(exposure) / Double(Tick.hour))
          if expected > 0 {
            let seen = Yield.overlap(atHand.clipped(lo, hi).intersection(runs.clipped(lo, hi)), from: lo, to: hi)
            collected = stream.binomial(trials: expected, p: exposure > 0 ? min(Double(seen) / Double(exposure), 1) : 0)
            received = lastSync >= hi ? collected : (lastSync <= lo ? 0 : stream.binomial(trials: collected, p: Double(lastSync - lo) / Double(Tick.hour)))
          }
        case .battery:
          let (e, c, r) = Self.batteryEvents(batteryTrace, runs: runs, lo: lo, hi: hi, lastSync: lastSync)
          expected = e
          collected = c
          received = r
        }
        if case .periodic = sensor.kind {
          tallies[k].count(CoverageStatus.classify(expected: expected, collected: collected))
        } else if expected > 0 {
          tallies[k].count(CoverageStatus.classify(expected: expected, collected: collected))
        }
        tallies[k].expected += expected
        tallies[k].collected += collected
        tallies[k].received += received
        if keepRows {
          rows.append(CoverageRecord(hour: h, sensor: k, expected: expected, collected: collected, received: received))
        }
        if k == 0 && h < heatHours && expected > 0 { heat[h] = Float(min(Double(collected) / Double(expected), 1)) }
      }
      if let p = minPeriod {
        Self.markRuns(&mask, runs: runs, period: p, lo: lo, hi: hi, cursor: &yieldRunCursor)
      }
      let valid = mask.nonzeroBitCount
      yield.observedMinutes += 60
      yield.observedHours += 1
      yield.validMinutes += valid
      if DataYield.isValidHour(validMinutes: valid) { yield.validHours += 1 }
    }
  }

  /// Minutes of `[lo, hi)` holding a sample of a sensor whose period is at most a minute:
  /// between its first and last sample in a run stretch, every minute has one.
  static func markRuns(_ mask: inout UInt64, runs: Intervals, period: SimTime, lo: SimTime, hi: SimTime, cursor: inout Int) {
    let spans = runs.spans
    while cursor < spans.count && spans[cursor].end <= lo { cursor += 1 }
    var i = cursor
    while i < spans.count && spans[i].start < hi {
      let r = spans[i]
      let a = max(r.start, lo)
      let b = min(r.end, hi)
      if a < b {
        let first = r.start + Yield.ceilDiv(a - r.start, period) * period
        if first < b {
          let last = r.start + (Yield.ceilDiv(b - r.start, period) - 1) * period
          let m0 = Int((first - lo) / Tick.minute)
          let m1 = Int((last - lo) / Tick.minute)
          mask |= Self.bits(m0, m1)
        }
      }
      i += 1
    }
  }

  /// Minutes of `[lo, hi)` holding a grid point of a sensor sampled on `origins` (restarting
  /// at each stretch, or on one fixed grid from time 0).
  static func markGrid(
    _ mask: inout UInt64, origins: Intervals, fixedOrigin: Bool, period: SimTime, lo: SimTime, hi: SimTime, usable: Intervals?
  ) {
    var k = origins.startIndex(after: lo)
    while k < origins.spans.count && origins.spans[k].start < hi {
      let r = origins.spans[k]
      k += 1
      let origin = fixedOrigin ? 0 : r.start
      let a = max(r.start, lo)
      let b = min(r.end, hi)
      var g = origin + Yield.ceilDiv(a - origin, period) * period
      while g < b {
        if usable?.contains(g) ?? true { mask |= 1 << UInt64((g - lo) / Tick.minute) }
        g += period
      }
    }
  }

  static func bits(_ m0: Int, _ m1: Int) -> UInt64 {
    guard m1 >= m0 else { return 0 }
    let width = m1 - m0 + 1
    let ones: UInt64 = width >= 64 ? ~0 : (1 << UInt64(width)) - 1
    return ones << UInt64(m0)
  }

  /// Battery events in `[lo, hi)`: each whole percent the level passes (the level is linear
  /// between trace points); collected when the app ran at that moment.
  static func batteryEvents(_ trace: [(SimTime, Double)], runs: Intervals, lo: SimTime, hi: SimTime, lastSync: SimTime)
    -> (Int, Int, Int)
  {
    var expected = 0
    var collected = 0
    var received = 0
    for k in trace.indices where k + 1 < trace.count {
      let (t0, l0) = trace[k]
      let (t1, l1) = trace[k + 1]
      guard t1 > lo, t0 < hi, l1 != l0 else { continue }
      let lower = min(l0, l1)
      let upper = max(l0, l1)
      var level = lower.rounded(.up)
      if level == lower { level += 1 }
      while level <= upper {
        let t = t0 + SimTime(Double(t1 - t0) * (level - l0) / (l1 - l0))
        if t >= lo && t < hi {
          expected += 1
          if runs.contains(t) {
            collected += 1
            if t < lastSync { received += 1 }
          }
        }
        level += 1
      }
    }
    return (expected, collected, received)
  }

  /// The stretches of the timeline where `condition` holds.
  static func spans(_ timeline: Timeline, _ condition: (Episode) -> Bool) -> Intervals {
    var out = Intervals()
    for e in timeline.episodes {
      if condition(e) {
        out.begin(at: e.start)
      } else {
        out.end(at: e.start)
      }
    }
    return out.closed(at: timeline.end)
  }
}

extension Intervals {
  /// The union with another record (both closed).
  public func union(_ other: Intervals) -> Intervals {
    var all = (spans + other.spans).sorted { $0.start < $1.start }
    var out = Intervals()
    guard !all.isEmpty else { return out }
    var current = all.removeFirst()
    for s in all {
      if s.start <= current.end {
        current.end = max(current.end, s.end)
      } else {
        out.begin(at: current.start)
        out.end(at: current.end)
        current = s
      }
    }
    out.begin(at: current.start)
    out.end(at: current.end)
    return out
  }

  /// The record cut to `[lo, hi)`.
  public func clipped(_ lo: SimTime, _ hi: SimTime) -> Intervals {
    var out = Intervals()
    var k = startIndex(after: lo)
    while k < spans.count && spans[k].start < hi {
      out.begin(at: max(spans[k].start, lo))
      out.end(at: min(spans[k].end, hi))
      k += 1
    }
    return out
  }
}
