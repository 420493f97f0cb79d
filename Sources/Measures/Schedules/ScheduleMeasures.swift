import Schedules

/// Uniformity and predictability of a signal schedule, accumulated day by day.
///
/// Every measure is computed on times normalised to each participant-day's sampling window
/// (``SignalScheduler/samplingWindow(for:)``), cut into slots of `slotMinutes` of a
/// reference window of `referenceMinutes` (the last slot may be partial and is weighted by
/// its width). Accumulators merge (``merge(_:)``) so that days simulated apart can be
/// pooled; merging in a fixed order gives identical results.
public struct ScheduleMeasures: Sendable {
  /// The slot width in minutes (default 10).
  public let slotMinutes: Double
  /// The reference window length in minutes that the slots cut.
  public let referenceMinutes: Double
  /// The number of slots.
  public let slotCount: Int

  var slotSignals: [Int]
  /// The normalised times of the detailed days (the Kolmogorov–Smirnov sample), in the order
  /// they were added; sorted only in ``summary()``.
  var normalized: [Double] = []
  var days = 0
  var zeroSignalDays = 0
  var gaps = GapStatistics()
  var predictability = Predictability()

  /// Default slot width: 10 minutes ([@SlotMeasure]).
  public static let defaultSlotMinutes = 10.0

  /// Creates an empty accumulator.
  public init(referenceMinutes: Double, slotMinutes: Double = ScheduleMeasures.defaultSlotMinutes) {
    precondition(referenceMinutes > 0 && slotMinutes > 0)
    self.slotMinutes = slotMinutes
    self.referenceMinutes = referenceMinutes
    slotCount = Int((referenceMinutes / slotMinutes).rounded(.up))
    slotSignals = Array(repeating: 0, count: slotCount)
  }

  /// The slot of a time `x` minutes into a sampling window `length` minutes long.
  ///
  /// Slot `j` of the reference window, stretched to this window, holds the times with
  /// `j·slot·length ≤ x·reference < (j+1)·slot·length`; the rule compares these products
  /// rather than dividing, so that a whole minute on a slot's edge (230 in a 720-minute
  /// window of 10-minute slots) belongs to the slot it starts. For whole minutes and whole
  /// window lengths every product is an exact integer in a `Double`.
  @inlinable
  public func slot(at x: Double, inWindowOf length: Double) -> Int {
    let scaled = x * referenceMinutes
    let edge = slotMinutes * length
    var j = Int(scaled / edge)
    if Double(j + 1) * edge <= scaled {
      j += 1
    } else if Double(j) * edge > scaled {
      j -= 1
    }
    return min(max(j, 0), slotCount - 1)
  }

  /// The width of slot `j` as a share of the window.
  public func width(ofSlot j: Int) -> Double {
    j < slotCount - 1 ? slotMinutes / referenceMinutes : 1 - Double(slotCount - 1) * slotMinutes / referenceMinutes
  }

  /// Adds one participant-day.
  ///
  /// - Parameters:
  ///   - day: the day's index in the study (even days fit the predictability model, odd
  ///     days score it).
  ///   - times: the day's signal times, minutes after the window start, sorted.
  ///   - sampling: the part of the window the scheduler samples that day.
  ///   - detailed: whether the day also feeds the Kolmogorov–Smirnov sample and the
  ///     predictability model (large runs restrict these to the first participants, so that
  ///     memory stays bounded; the choice must not depend on how days are grouped).
  public mutating func add(day: Int, times: [Double], sampling: Block, detailed: Bool = true) {
    times.withUnsafeBufferPointer { add(day: day, times: $0, sampling: sampling, detailed: detailed) }
  }

  /// Adds one participant-day whose times are in a buffer (``add(day:times:sampling:detailed:)``).
  public mutating func add(day: Int, times: UnsafeBufferPointer<Double>, sampling: Block, detailed: Bool = true) {
    days += 1
    if times.isEmpty { zeroSignalDays += 1 }
    // The day's times and slots go to buffers on the stack first, so that each array is
    // written once a day: every write to an array checks that it is not shared, three a
    // signal before (half a million checks in the city workload, 3.1 M instructions).
    withUnsafeTemporaryAllocation(of: Double.self, capacity: times.count) { u in
      withUnsafeTemporaryAllocation(of: Int32.self, capacity: times.count) { slots in
        for (k, t) in times.enumerated() {
          let x = min(max(t - sampling.start, 0), sampling.length)
          u[k] = x / sampling.length
          slots[k] = Int32(slot(at: x, inWindowOf: sampling.length))
        }
        slotSignals.withUnsafeMutableBufferPointer { counts in
          for s in slots { counts[Int(s)] += 1 }
        }
        if detailed {
          normalized.append(contentsOf: UnsafeBufferPointer(u))
          predictability.record(day: day, slots: UnsafeBufferPointer(slots))
        }
      }
    }
    gaps.add(times)
  }

  /// Pools another accumulator's days into this one (same slots).
  public mutating func merge(_ other: ScheduleMeasures) {
    precondition(other.slotCount == slotCount && other.referenceMinutes == referenceMinutes)
    for j in 0..<slotCount { slotSignals[j] += other.slotSignals[j] }
    normalized += other.normalized
    days += other.days
    zeroSignalDays += other.zeroSignalDays
    gaps.merge(other.gaps)
    predictability.merge(other.predictability)
  }

  /// The whole Kolmogorov–Smirnov sample, sorted (``UnitIntervalSort``: the normalised
  /// times lie in [0, 1]). The sorted sample is the same however the days were grouped.
  func sortedSample() -> [Double] {
    UnitIntervalSort.sorted(normalized)
  }

  /// Intensity per slot (see ``ScheduleSummary/intensity``) alone: cheap, unlike ``summary()``.
  public var intensity: [Double] {
    let total = slotSignals.reduce(0, +)
    return (0..<slotCount).map { j in
      total == 0 ? 0 : Double(slotSignals[j]) / (width(ofSlot: j) * Double(total))
    }
  }

  /// The summaries of a run's scheduled and answered times, computed side by side: at the
  /// end of a run the workers are done and the cores free.
  public static func summaries(
    scheduled: ScheduleMeasures, answered: ScheduleMeasures
  ) -> (scheduled: ScheduleSummary, answered: ScheduleSummary) {
    let (a, s) = sideBySide({ answered.summary() }) { scheduled.summary() }
    return (s, a)
  }

  /// The measures of every day added so far.
  public func summary() -> ScheduleSummary {
    let total = slotSignals.reduce(0, +)
    let intensity = self.intensity
    let ks = KolmogorovSmirnov.uniform(sorted: sortedSample())
    let fit = predictability.result(slotCount: slotCount)
    return ScheduleSummary(
      days: days, signals: total, signalsPerDay: days == 0 ? 0 : Double(total) / Double(days),
      intensity: intensity, intensityMin: intensity.min() ?? 0, intensityMax: intensity.max() ?? 0,
      ksD: ks.d, ksP: ks.p, minGap: gaps.minimum, shareGapsUnder60: gaps.shareUnder60,
      maxGap: gaps.count == 0 ? .nan : gaps.max, zeroSignalDayShare: days == 0 ? 0 : Double(zeroSignalDays) / Double(days),
      bitsPerSignal: fit.bitsPerSignal, bitsPerDay: fit.bitsPerDay, forcedShare: fit.forcedShare,
      maxHazard: fit.maxHazard, heldOutDays: fit.heldOutDays)
  }
}

/// The measures of a schedule (see ``ScheduleMeasures``).
public struct ScheduleSummary: Sendable, Equatable {
  /// Participant-days measured.
  public var days: Int
  /// Signals counted.
  public var signals: Int
  /// Mean signals per day.
  public var signalsPerDay: Double
  /// Intensity per slot: (signals in slot / slot width) / (all signals / window); 1 is flat.
  public var intensity: [Double]
  /// The lowest slot intensity.
  public var intensityMin: Double
  /// The highest slot intensity.
  public var intensityMax: Double
  /// Kolmogorov–Smirnov D of the normalised times against Uniform(0, 1).
  public var ksD: Double
  /// Its p-value (as `scipy.stats.kstest`).
  public var ksP: Double
  /// The shortest in-day gap between signals, minutes; also the guaranteed quiet time
  /// after a signal (`nan` when no day had two signals).
  public var minGap: Double
  /// The share of in-day gaps under 60 minutes.
  public var shareGapsUnder60: Double
  /// The longest in-day gap, minutes.
  public var maxGap: Double
  /// The share of days without any signal.
  public var zeroSignalDayShare: Double
  /// Log-loss of the predictability model on held-out days, bits per signal.
  public var bitsPerSignal: Double
  /// The same, bits per day.
  public var bitsPerDay: Double
  /// The share of held-out signals that fell in a slot the model gave probability ≥ 0.5.
  public var forcedShare: Double
  /// The largest fitted probability among states visited at least 100 times.
  public var maxHazard: Double
  /// The days the predictability model scored (the odd days of the detailed ones).
  public var heldOutDays: Int

  /// Held-out days from which the predictability figures are stable: fitted on too few
  /// days the model overfits and overstates the surprise (5 a day in 08:00–22:00, 10-minute
  /// slots: 13.3 bits per signal at 20 days against 4.25 at 100,000 for Mappiness). At 1,500
  /// held-out days Mappiness is within 8 % and fixed blocks within 5 % of their 100,000-day
  /// values, at 1,000 Mappiness is 11 % over (docs/schedules.md; tested). More signals a day
  /// or more slots need more days.
  public static let stableHeldOutDays = 1_500

  /// Whether the predictability figures rest on enough held-out days to be stable.
  public var predictabilityIsStable: Bool { heldOutDays >= Self.stableHeldOutDays }
}
