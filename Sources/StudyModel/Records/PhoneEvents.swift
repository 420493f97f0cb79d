import SimKernel

/// What the study app itself observes of the phone, as Beiwe's iOS app records it
/// ([@Beiwe]): the network at every change of it (Reachability) and every change of charging
/// with the battery level in percent (PowerState). The file format's names for them are
/// Reporting's. The app observes only while it runs: each run begins with the state
/// it finds, and nothing is recorded while it is suspended or killed.
public struct PhoneEvents: Sendable {
  /// Network changes seen by the app.
  public var reachability: [(time: SimTime, network: Network)] = []
  /// Charging changes seen by the app, with the battery level.
  public var power: [(time: SimTime, event: PowerChange, level: Double)] = []

  /// A change of charging the app observes.
  public enum PowerChange: Sendable, Equatable {
    /// Plugged in (or found plugged in when the app starts).
    case charging
    /// Unplugged (or found unplugged when the app starts).
    case unplugged
    /// A charging battery reached 100 %.
    case full
    /// The phone was unlocked, and locked (Beiwe 1.0.1+: at each phone check).
    case unlocked, locked

    /// The order of events at the same moment.
    var order: Int {
      switch self {
      case .charging: 0
      case .unplugged: 1
      case .full: 2
      case .unlocked: 3
      case .locked: 4
      }
    }
  }

  /// Derives the events from the participant's record.
  ///
  /// - Parameters:
  ///   - runs: when the app ran (closed); `charging`: when the phone was charging (closed).
  ///   - timeline: the participant's episodes (the network).
  ///   - batteryTrace: the level at every change of its rate (linear in between).
  ///   - checks: the phone checks (unlocked at each, locked when the screen goes off).
  public init(
    runs: Intervals, timeline: Timeline, charging: Intervals, batteryTrace: [(SimTime, Double)],
    checks: PhoneChecks = PhoneChecks()
  ) {
    let episodes = timeline.episodes
    var k = 0
    var c = 0
    var f = 0
    // The level at a moment: the trace's line there (found by a search).
    func level(at t: SimTime) -> Double {
      guard let first = batteryTrace.first else { return .nan }
      guard t >= first.0 else { return first.1 }
      var lo = 0
      var hi = batteryTrace.count - 1
      while lo < hi {
        let mid = (lo + hi + 1) / 2
        if batteryTrace[mid].0 <= t { lo = mid } else { hi = mid - 1 }
      }
      let (t0, l0) = batteryTrace[lo]
      guard lo + 1 < batteryTrace.count, t > t0 else { return l0 }
      let (t1, l1) = batteryTrace[lo + 1]
      return l0 + (l1 - l0) * Double(t - t0) / Double(t1 - t0)
    }
    let chargingSpans = charging.spans
    func isCharging(_ t: SimTime) -> Bool {
      while c < chargingSpans.count && chargingSpans[c].end <= t { c += 1 }
      return c < chargingSpans.count && chargingSpans[c].start <= t
    }
    for run in runs.spans {
      // Network: the state found at the start, then every change.
      while k + 1 < episodes.count && episodes[k].end <= run.start { k += 1 }
      var current: Network?
      var i = k
      while i < episodes.count && episodes[i].start < run.end {
        let t = max(episodes[i].start, run.start)
        if episodes[i].network != current {
          reachability.append((t, episodes[i].network))
          current = episodes[i].network
        }
        i += 1
      }
      // Charging: the state found at the start, then every plug and unplug, and Full.
      var plugged = isCharging(run.start)
      power.append((run.start, plugged ? .charging : .unplugged, level(at: run.start)))
      var full = false
      for s in chargingSpans[c...] where s.start < run.end {
        for (t, event) in [(s.start, PowerChange.charging), (s.end, .unplugged)] where t > run.start && t < run.end {
          if (event == .charging) != plugged {
            plugged = event == .charging
            power.append((t, event, level(at: t)))
            full = false
          }
        }
      }
      // The moment a charging battery reaches 100 % inside the run (the trace is in time
      // order, like the runs: walk it forward).
      while f < batteryTrace.count && batteryTrace[f].0 <= run.start { f += 1 }
      var j = f
      while !full && j < batteryTrace.count && batteryTrace[j].0 < run.end {
        let (t, l) = batteryTrace[j]
        if l >= 100 && charging.contains(t) {
          power.append((t, .full, 100))
          full = true
        }
        j += 1
      }
    }
    // Unlocked and Locked at each phone check the running app sees.
    for t in checks.times {
      if runs.contains(t) { power.append((t, .unlocked, level(at: t))) }
      let off = t + PhoneChecks.screenOn
      if runs.contains(off) { power.append((off, .locked, level(at: off))) }
    }
    power.sort { $0.time < $1.time || ($0.time == $1.time && $0.event.order < $1.event.order) }
  }
}
