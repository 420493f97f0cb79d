import SimKernel

/// One simulated participant's first days as a calendar draws them (the planner's and the
/// report's "participant's week"): where they were, what the phone and the study app were
/// doing, and what became of every prompt. Times are the participant's own clock from the
/// study's first midnight.
public struct ParticipantWeek: Sendable {
  /// What the phone and the app were doing.
  public enum PhoneState: String, Sendable, CaseIterable {
    /// The phone is off.
    case off
    /// The app is not running: killed, force-quit or not started since the phone came on.
    case notRunning = "not running"
    /// Suspended by the operating system.
    case suspended
    /// Running in the background.
    case background = "running"
    /// Open in the foreground.
    case foreground = "open"
  }

  /// The participant's index.
  public var participant: Int
  /// Their phone's operating system.
  public var os: OperatingSystem
  /// Index of their device profile in the plan.
  public var device: Int
  /// The days drawn.
  public var days: Int
  /// Contexts (asleep included), consecutive stretches of one context merged.
  public var contexts: [(start: SimTime, end: SimTime, context: Context)]
  /// The phone's and the app's state, stretch by stretch.
  public var phone: [(start: SimTime, end: SimTime, state: PhoneState)]
  /// The prompts scheduled in those days.
  public var prompts: [PromptRecord]
}

extension ParticipantSimulation {
  /// Simulates participant `participant` (the same draw as in a run of `plan` with `seed`)
  /// and returns their first `days` days.
  public static func week(plan: StudyPlan, seed: UInt64, replication: UInt32 = 0, participant: UInt32, days: Int = 7)
    -> ParticipantWeek
  {
    var sim = ParticipantSimulation(plan: plan, seed: seed, replication: replication, participant: participant)
    sim.app.trace = true
    sim.run()
    let end = min(sim.enrolledUntil, SimTime(min(days, plan.days)) * Tick.day)
    sim.closeRecords(at: sim.enrolledUntil)
    var contexts: [(start: SimTime, end: SimTime, context: Context)] = []
    for e in sim.life.timeline.episodes where e.start < end {
      let stop = min(e.end, end)
      if let last = contexts.last, last.context == e.context, last.end == e.start {
        contexts[contexts.count - 1].end = stop
      } else {
        contexts.append((e.start, stop, e.context))
      }
    }
    var phone: [(start: SimTime, end: SimTime, state: ParticipantWeek.PhoneState)] = []
    let modes = sim.app.modes
    for (k, (t, mode)) in modes.enumerated() where t < end {
      let stop = min(k + 1 < modes.count ? modes[k + 1].0 : end, end)
      guard stop > t else { continue }
      let state: ParticipantWeek.PhoneState =
        switch mode {
        case .off: .off
        case .notRunning: .notRunning
        case .suspended: .suspended
        case .anchored, .bounded: .background
        case .foreground: .foreground
        }
      if let last = phone.last, last.state == state, last.end == t {
        phone[phone.count - 1].end = stop
      } else {
        phone.append((t, stop, state))
      }
    }
    return ParticipantWeek(
      participant: Int(participant), os: sim.person.os, device: sim.person.device, days: min(days, plan.days),
      contexts: contexts, phone: phone, prompts: sim.prompts.filter { $0.scheduled < end })
  }
}

extension ParticipantSimulation {
  /// The participant's true state by hour of the day over their waking moments, looked at
  /// every `step` (the teaching page's "true day"): sums and counts per hour 0–23. Drawn
  /// from the participant's own days and state process, looked at on a grid rather than at
  /// the prompts, so the values are those of the same person, not of the same moments.
  public static func trueDay(plan: StudyPlan, seed: UInt64, participant: UInt32, step: SimTime = 10 * Tick.minute)
    -> (sum: [Double], count: [Int])
  {
    var sim = ParticipantSimulation(plan: plan, seed: seed, replication: 0, participant: participant)
    var sum = [Double](repeating: 0, count: 24)
    var count = [Int](repeating: 0, count: 24)
    var k = 0
    let episodes = sim.life.timeline.episodes
    var t: SimTime = 0
    while t < SimTime(plan.days) * Tick.day {
      while k + 1 < episodes.count && episodes[k].end <= t { k += 1 }
      if episodes.indices.contains(k), episodes[k].context != .asleep {
        let h = Int((t % Tick.day) / Tick.hour)
        sum[h] += sim.lookAtState(t).value
        count[h] += 1
      }
      t += step
    }
    return (sum, count)
  }
}
