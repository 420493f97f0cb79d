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

  /// Counts one hour of the given status.
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
  /// Periodic sensors are counted stretch by stretch (an hour wholly inside a stretch holds
  /// exactly hour/period samples, since periods divide the hour: such hours are counted at
  /// once) and each hour is classified as the next one starts (``HourCounts``); event
  /// sensors hour by hour.
  ///
  /// - Parameters:
  ///   - sensors: the protocol's sensors.
  ///   - runs: when the app ran; `phoneOn`: when the phone was on.
  ///   - locationRuns: when the app could record the location (nil: whenever it ran).
  ///   - networkUsable: when the app could use the network in the background
  ///     (``Upload/backgroundNetwork(timeline:lowPower:foreground:until:)``; only read when
  ///     a sensor needs the network).
  ///   - timeline: the participant's episodes (phone at hand, sleep).
  ///   - enrolledUntil: the end of the participant's time in the study.
  ///   - lastSync: data collected before this reached the server.
  ///   - checks: the participant's phone checks (screen events).
  ///   - batteryTrace: the battery level at every change of its rate (battery events).
  public init(
    sensors: [SensorPlan], runs: Intervals, locationRuns: Intervals? = nil, phoneOn: Intervals,
    networkUsable usable: Intervals, timeline: Timeline,
    enrolledUntil: SimTime, lastSync: SimTime, checks: PhoneChecks = PhoneChecks(),
    batteryTrace: [(SimTime, Double)], keepRows: Bool, heatHours: Int = 0
  ) {
    let screenEvents = sensors.contains { $0.kind == .screen } ? checks.screenEvents : []
    tallies = Array(repeating: SensorTally(), count: sensors.count)
    heat = Array(repeating: .nan, count: heatHours)
    let hours = Int(enrolledUntil / Tick.hour)
    guard hours > 0, !sensors.isEmpty else { return }
    let end = SimTime(hours) * Tick.hour
    // Minutes with a row (RAPIDS data yield). Sensors sampling at least once a minute fill
    // every minute between their first and last sample of a run stretch; the fastest of them
    // stands for all, and hours it fills need no other sensor's grid marked.
    var mask = [UInt64](repeating: 0, count: hours)
    // A sensor that needs the location permission runs on stretches of its own.
    func ownRuns(_ s: SensorPlan) -> Bool { s.usesLocation && locationRuns != nil }
    let minPeriod = sensors.compactMap { s -> SimTime? in
      if case .periodic(let p) = s.kind, !s.coprocessor, !s.needsNetwork, !ownRuns(s), p <= Tick.minute { return p }
      return nil
    }.min()
    if let p = minPeriod { Self.markRuns(&mask, runs: runs, period: p, end: end) }

    var kept: [(expected: [Int32], collected: [Int32], received: [Int32])] = []
    for (k, sensor) in sensors.enumerated() {
      // Per-hour counts are kept only for the rows and the heat map; the tallies need none.
      let keepHours = keepRows || (k == 0 && heatHours > 0)
      var expected: [Int32] = []
      var collected: [Int32] = []
      var received: [Int32] = []
      switch sensor.kind {
      case .periodic(let periodTicks):
        let period = Yield.Divisor(periodTicks)
        var counts = HourCounts(expectedPerHour: Int32(sensor.expectedPerHour), hours: keepHours ? hours : 0)
        // The fast sensor's minutes (markRuns) already hold every sample of a sensor that
        // samples on the same run stretches from their starts at a multiple of its period
        // (its grid points are the fast sensor's); fast sensors themselves are in the mask.
        let implied = minPeriod.map { !sensor.coprocessor && !ownRuns(sensor) && periodTicks % $0 == 0 } ?? false
        let marks = (sensor.needsNetwork || sensor.coprocessor || periodTicks > Tick.minute) && !implied
        sensor.sampledStretches(
          runs: runs, locationRuns: locationRuns, phoneOn: phoneOn, networkUsable: usable, end: end
        ) { origin, a, b in
          Self.addStretch(
            origin: origin, period: period, from: a, to: b, lastSync: lastSync, marks: marks, &counts, &mask)
        }
        counts.close()
        tallies[k] = counts.tally(hours: hours)
        if keepHours {
          expected = Array(repeating: counts.expectedPerHour, count: hours)
          collected = counts.collected
          received = counts.received
        }
      case .screen:
        // Screen on and off at each phone check (PhoneChecks); recorded only while the app runs.
        (expected, collected, received) = Self.hourArrays(hours)
        for t in screenEvents {
          let h = Int(t / Tick.hour)
          guard h < hours else { break }
          expected[h] += 1
          guard runs.contains(t) else { continue }
          collected[h] += 1
          if t < lastSync { received[h] += 1 }
          mask[h] |= 1 << UInt64((t - SimTime(h) * Tick.hour) / Tick.minute)
        }
        tallies[k] = Self.tally(expected: expected, collected: collected, received: received)
      case .battery:
        (expected, collected, received) = Self.hourArrays(hours)
        var cursor = 0
        for h in 0..<hours {
          let lo = SimTime(h) * Tick.hour
          let (e, c, r) = Self.batteryEvents(
            batteryTrace, runs: runs, lo: lo, hi: lo + Tick.hour, lastSync: lastSync, cursor: &cursor, &mask[h])
          expected[h] = Int32(e)
          collected[h] = Int32(c)
          received[h] = Int32(r)
        }
        tallies[k] = Self.tally(expected: expected, collected: collected, received: received)
      }
      if k == 0 && heatHours > 0 {
        for h in 0..<min(heatHours, hours) where expected[h] > 0 {
          heat[h] = Float(min(Double(collected[h]) / Double(expected[h]), 1))
        }
      }
      if keepRows { kept.append((expected, collected, received)) }
    }
    if keepRows {
      rows.reserveCapacity(hours * sensors.count)
      for h in 0..<hours {
        for k in sensors.indices {
          rows.append(
            CoverageRecord(
              hour: h, sensor: k, expected: Int(kept[k].expected[h]), collected: Int(kept[k].collected[h]),
              received: Int(kept[k].received[h])))
        }
      }
    }
    for h in 0..<hours {
      let valid = mask[h].nonzeroBitCount
      yield.validMinutes += valid
      yield.validHours += DataYield.isValidHour(validMinutes: valid) ? 1 : 0
    }
    yield.observedMinutes = 60 * hours
    yield.observedHours = hours
  }

  /// Zeroed per-hour expected, collected and received counts.
  static func hourArrays(_ hours: Int) -> ([Int32], [Int32], [Int32]) {
    let zeros = [Int32](repeating: 0, count: hours)
    return (zeros, zeros, zeros)
  }

  /// Classifies an event sensor's hours (only those with an event count) and sums them.
  static func tally(expected: [Int32], collected: [Int32], received: [Int32]) -> SensorTally {
    var t = SensorTally()
    for h in expected.indices {
      let (e, c) = (Int(expected[h]), Int(collected[h]))
      t.expected += e
      t.collected += c
      t.received += Int(received[h])
      if e > 0 { t.count(CoverageStatus.classify(expected: e, collected: c)) }
    }
    return t
  }

  /// One periodic sensor's samples per hour, added stretch by stretch in time order (the
  /// hours never go back, since the stretches neither overlap nor go back). Only the hour
  /// being filled is held, and classified (``CoverageStatus/classify(expected:collected:)``)
  /// when the next one starts; the whole hours inside a stretch are counted at once, and
  /// hours no stretch reaches hold no sample. So the cost goes with the stretches, not with
  /// the hours, and no per-hour arrays are needed unless kept (`hours` > 0: the rows, the
  /// heat map).
  struct HourCounts {
    /// Samples an hour is expected to hold.
    let expectedPerHour: Int32
    /// Per-hour counts, when kept (empty otherwise).
    private(set) var collected: [Int32]
    private(set) var received: [Int32]
    /// The hour being filled (-1: none) and its counts.
    private var hour = -1
    private var c: Int32 = 0
    private var r: Int32 = 0
    /// Classified hours with every expected sample, with some but not all; the sums.
    private var full = 0
    private var partial = 0
    private var totalCollected = 0
    private var totalReceived = 0

    init(expectedPerHour: Int32, hours: Int) {
      self.expectedPerHour = expectedPerHour
      collected = [Int32](repeating: 0, count: hours)
      received = collected
    }

    /// Whether per-hour counts are kept.
    var keeps: Bool { !collected.isEmpty }

    /// Keeps an hour's counts (out of line: the arrays are touched only when kept).
    @inline(never)
    private mutating func keep(hour h: Int, collected n: Int32, received m: Int32) {
      collected[h] = n
      received[h] = m
    }

    /// Adds `n` samples collected and `m` of them received in hour `h` (this hour or a later one).
    @inline(__always)
    mutating func add(hour h: Int, collected n: Int32, received m: Int32) {
      if h != hour {
        close()
        hour = h
      }
      c &+= n
      r &+= m
    }

    /// Adds the whole hours `hours`, after the one being filled: each holds `n` samples, all
    /// received in the first `receivedWhole` of them, `m` in the next one, none after.
    mutating func addWhole(_ hours: Range<Int>, collected n: Int32, receivedWhole: Int, received m: Int32) {
      close()
      classify(n, count: hours.count)
      totalCollected &+= Int(n) * hours.count
      totalReceived &+= Int(n) * receivedWhole + (receivedWhole < hours.count ? Int(m) : 0)
      if keeps {
        for (i, h) in hours.enumerated() {
          keep(hour: h, collected: n, received: i < receivedWhole ? n : i == receivedWhole ? m : 0)
        }
      }
    }

    /// Counts `count` hours holding `n` samples each as complete, incomplete or (by
    /// omission: see ``tally(hours:)``) lost.
    private mutating func classify(_ n: Int32, count: Int) {
      let isFull = n >= expectedPerHour ? count : 0
      full &+= isFull
      partial &+= n > 0 ? count &- isFull : 0
    }

    /// Classifies the hour being filled.
    mutating func close() {
      guard hour >= 0 else { return }
      classify(c, count: 1)
      totalCollected &+= Int(c)
      totalReceived &+= Int(r)
      if keeps { keep(hour: hour, collected: c, received: r) }
      hour = -1
      c = 0
      r = 0
    }

    /// The tally over `hours` hours, after ``close()``: every hour counts (a periodic
    /// sensor always expects samples), and those without a sample are lost.
    func tally(hours: Int) -> SensorTally {
      var t = SensorTally()
      t.expected = Int(expectedPerHour) * hours
      t.collected = totalCollected
      t.received = totalReceived
      if expectedPerHour <= 0 {
        t.comp = hours  // nothing expected: every hour is complete
      } else {
        t.comp = full
        t.incomp = partial
        t.loss = hours - full - partial
      }
      return t
    }
  }

  /// Counts one stretch of a periodic sensor (``addGrid``) and, if `marks`, marks its
  /// minutes (``markGrid``).
  static func addStretch(
    origin: SimTime, period: Yield.Divisor, from a: SimTime, to b: SimTime, lastSync: SimTime, marks: Bool,
    _ counts: inout HourCounts, _ mask: inout [UInt64]
  ) {
    addGrid(origin: origin, period: period, from: a, to: b, lastSync: lastSync, &counts)
    if marks { markGrid(&mask, origin: origin, period: period, from: a, to: b) }
  }

  /// Adds the grid points `origin + k·period` in `[a, b)` to the hours they fall in, and
  /// those before `lastSync` as received. A whole hour holds hour/period points (periods
  /// divide the hour), so only a stretch's first and last hours need dividing, and the
  /// whole hours between them are added at once.
  static func addGrid(
    origin: SimTime, period: Yield.Divisor, from a: SimTime, to b: SimTime, lastSync: SimTime, _ counts: inout HourCounts
  ) {
    guard a < b else { return }
    var h = Int(a / Tick.hour)
    var lo = SimTime(h) * Tick.hour
    if b < lo + Tick.hour || (a > lo && b == lo + Tick.hour) {
      // The usual stretch (a background run of seconds): inside one hour, not the whole of it.
      return addPart(hour: h, origin: origin, period: period, from: a, to: b, lastSync: lastSync, &counts)
    }
    while lo < b {
      let hi = lo + Tick.hour
      if a <= lo && hi <= b {
        // Hours h..<last lie wholly inside the stretch; those ending by lastSync are received.
        let perHour = Int32(period.quotient(Tick.hour))
        let last = Int(b / Tick.hour)
        let receivedWhole = min(max(Int(lastSync / Tick.hour) - h, 0), last - h)
        let syncHour = SimTime(h + receivedWhole) * Tick.hour
        let m = Int32(Yield.gridCount(origin: origin, period: period, from: syncHour, to: min(lastSync, syncHour + Tick.hour)))
        counts.addWhole(h..<last, collected: perHour, receivedWhole: receivedWhole, received: m)
        h = last
        lo = SimTime(h) * Tick.hour
        continue
      }
      addPart(hour: h, origin: origin, period: period, from: max(a, lo), to: min(b, hi), lastSync: lastSync, &counts)
      h += 1
      lo = hi
    }
  }

  /// Adds the grid points in `[from, to)`, part of hour `h`, and those before `lastSync` as
  /// received.
  @inline(__always)
  static func addPart(
    hour h: Int, origin: SimTime, period: Yield.Divisor, from: SimTime, to: SimTime, lastSync: SimTime,
    _ counts: inout HourCounts
  ) {
    let n = Int32(Yield.gridCount(origin: origin, period: period, from: from, to: to))
    let m =
      lastSync >= to ? n : lastSync > from ? Int32(Yield.gridCount(origin: origin, period: period, from: from, to: lastSync)) : 0
    counts.add(hour: h, collected: n, received: m)
  }
}
