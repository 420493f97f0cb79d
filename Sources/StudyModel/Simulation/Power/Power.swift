import SimKernel

/// The phone's power: the battery and its drains, the charger, Low Power Mode, the phone on
/// or off, and the stretches of each for the records.
///
/// The level changes linearly between the events that change its rate (``Battery``); the
/// simulation asks ``rate(awake:appRunning:)`` at each of them and arms one event for the
/// next level that matters (``nextLevel(by:)``).
struct Power {
  /// The profile's drains and the charge, percent per tick (``Battery/perTick(_:)``).
  let drain: (awake: Double, asleep: Double, app: Double, charge: Double)
  /// Whether Low Power Mode is the device condition itself (on throughout, never left).
  let lowPowerThroughout: Bool
  var battery: Battery
  /// A daytime charge is planned or under way (at most one at a time).
  var daytimeCharging = false
  /// When the battery next reaches a level that matters (`.max`: not before the next wake or
  /// bedtime), and when the battery event in the queue fires (`.max`: none).
  var due = SimTime.max
  var eventAt = SimTime.max
  /// Stretches in which the phone was on, Low Power Mode was on, the phone was charging:
  /// beginning or ending one switches the state, which is whether it is open.
  var phoneOn = Intervals()
  var lowPowerSpans = Intervals()
  var chargingSpans = Intervals()
  var phoneIsOn: Bool { phoneOn.isOpen }
  var lowPower: Bool { lowPowerSpans.isOpen }
  var charging: Bool { chargingSpans.isOpen }
  /// Battery level over time (time, percent) at every change of rate, when asked for.
  var trace: [(SimTime, Double)] = []
  let traces: Bool

  /// Share of the drain left in Low Power Mode: it saves about a third (assumption, grade D).
  static let lowPowerDrainShare = 0.7
  /// iOS turns Low Power Mode off once a charging phone reaches 80 % ([@AppleLowPower], A).
  static let lowPowerOffLevel = 80.0
  /// The battery's level when the study starts with the phone plugged in (it is full by
  /// morning whatever it was): uniform between these, percent (assumption, D).
  static let startLevels = (low: 60.0, high: 100.0)
  /// A full and an empty battery, percent.
  static let full = 100.0
  static let empty = 0.0
  /// Levels this close count as reached: the moment a level is reached is rounded up to a
  /// whole tick, so the level then differs from it in the last digits (numerical, not a model
  /// parameter).
  static let reached = 0.0001

  /// - Parameter lowPowerHabit: the participant keeps Low Power Mode on throughout
  ///   (``PhoneTraits/lowPowerHabit``), as the Low Power Mode condition does.
  /// - Parameter sensorDrain: what the app's sensors add to its drain while it runs, percent
  ///   per hour (``SensorDrain/perHour(_:)``).
  init(profile: DeviceProfile, lowPowerHabit: Bool = false, sensorDrain: Double = 0, level: Double, traces: Bool) {
    drain = (
      Battery.perTick(profile.drainAwake), Battery.perTick(profile.drainAsleep),
      Battery.perTick(profile.drainApp + sensorDrain),
      Battery.perTick(DeviceProfile.chargePerHour)
    )
    lowPowerThroughout = profile.lowPowerMode || lowPowerHabit
    battery = Battery(level: level)
    self.traces = traces
    // The study starts with the phone on, in Low Power Mode if that is the condition.
    phoneOn.begin(at: 0)
    if lowPowerThroughout { lowPowerSpans.begin(at: 0) }
  }

  /// Notes the battery's level at `t` in the trace. Out of line: only runs that ask for the
  /// trace call it, and the battery's update need not save registers for the append.
  @inline(never)
  mutating func recordTrace(at t: SimTime) {
    trace.append((t, battery.level))
  }

  /// The battery's rate now, percent per tick (negative: draining).
  @inline(__always)
  func rate(awake: Bool, appRunning: Bool) -> Double {
    var rate = 0.0
    if phoneIsOn {
      rate -= awake ? drain.awake : drain.asleep
      if appRunning { rate -= drain.app }
      if lowPower { rate *= Self.lowPowerDrainShare }
    }
    if charging { rate = battery.level >= Self.full ? 0 : drain.charge }
    return rate
  }

  /// Whether iOS would offer Low Power Mode when the level falls to the offer level: only to
  /// a phone not already in it, above that level.
  @inline(__always)
  var offersLowPower: Bool {
    !lowPower && !lowPowerThroughout && battery.level > DeviceProfile.lowPowerOfferLevel
  }

  /// Whether charging will turn Low Power Mode off at ``lowPowerOffLevel``.
  @inline(__always)
  var leavesLowPowerCharging: Bool { lowPower && !lowPowerThroughout }

  /// When the battery, at its current rate, next reaches a level that matters, if that is
  /// no later than `limit`: the low-power offer or empty while draining; 80 % (Low Power Mode
  /// off) or full while charging.
  @inline(__always)
  func nextLevel(by limit: SimTime) -> SimTime? {
    let rate = battery.ratePerTick
    if rate < 0 {
      return battery.time(reaching: offersLowPower ? DeviceProfile.lowPowerOfferLevel : Self.empty, by: limit)
    } else if rate > 0 {
      let back = leavesLowPowerCharging && battery.level < Self.lowPowerOffLevel
      return battery.time(reaching: back ? Self.lowPowerOffLevel : Self.full, by: limit)
    }
    return nil
  }

  /// The study's first night, for a phone not plugged in then: the battery holds what the
  /// day before left. That day began full (the phone plugged in the night before it) and was
  /// awake from `wake` to `bed` (the first day's times a day earlier: negative, before the
  /// study's start) at the profile's waking drain, and the app's where the app runs
  /// throughout (`appRunning`); a phone that reached the low-battery warning while awake was
  /// charged then with the profile's chance (``DeviceProfile/chargeWhenLow``, drawn from
  /// `stream`), as on the study's days; asleep from bedtime to the start; empty at worst.
  /// The nights before a study are like its nights: a start at a level drawn regardless of
  /// the charge (``startLevels``) never ran a phone flat on the first day, which then lost
  /// none of its prompts to a dead phone against about 1 % on each day after it.
  mutating func startUncharged(
    wake: SimTime, bed: SimTime, appRunning: Bool, chargeWhenLow: Double, stream: inout RandomStream
  ) {
    let share = lowPowerThroughout ? Self.lowPowerDrainShare : 1
    let awakeRate = (drain.awake + (appRunning ? drain.app : 0)) * share
    let awake = Double(max(min(bed, 0) - wake, 0))
    var level = Self.full - awakeRate * awake
    let warning = DeviceProfile.lowPowerOfferLevel
    let toWarning = (Self.full - warning) / awakeRate
    if level < warning && stream.bernoulli(chargeWhenLow) {
      // Charged at the warning for the daytime charge's length, then drained to bedtime.
      let charge = Double(Tick.minutes(DeviceProfile.daytimeChargeMinutes))
      level = min(warning + drain.charge * charge, Self.full) - awakeRate * max(awake - toWarning - charge, 0)
    }
    level -= drain.asleep * share * Double(max(-bed, 0))
    // At least just above empty: the battery's event then switches the phone off at once
    // (a level already at empty would wait for a crossing that never comes).
    battery = Battery(level: max(level, 2 * Self.reached))
  }

  /// Closes the stretches still open at `t`, in place.
  mutating func close(at t: SimTime) {
    phoneOn.end(at: t)
    lowPowerSpans.end(at: t)
    chargingSpans.end(at: t)
  }
}
