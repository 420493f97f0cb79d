import Schedules
import SimKernel

// Delivery channels: silent pushes and the app's own background task.
extension ParticipantSimulation {
  /// The first silent push after `t` that wakes the app. Pushes go out every `every` from the
  /// study's start; one sent while the phone is offline is held (the newest only, for AWARE's
  /// one-hour expiry) and delivered when the phone is back.
  mutating func nextPushWake(after t: SimTime, every: SimTime) -> SimTime? {
    let wakeChance = lowPower ? profile.silentPushWakeLowPower : profile.silentPushWake
    var slot = (t / every + 1) * every
    let limit = min(t + 7 * Tick.day, studyEnd)
    while slot < limit {
      if network(at: slot) != .unreachable {
        if deliveryStream.uniform() < wakeChance { return slot + Tick.seconds(2) }
        slot += every
      } else {
        guard let back = nextReachable(after: slot) else { return nil }
        // The newest push sent before the phone came back is the one delivered.
        let newest = ((back - 1) / every) * every
        if back - newest <= Tick.hour && deliveryStream.uniform() < wakeChance { return back + Tick.seconds(2) }
        slot = (back / every + 1) * every
      }
    }
    return nil
  }

  mutating func backgroundTask(_ sim: inout Simulator) {
    guard let hours = proto.channel.backgroundTaskHours else { return }
    if phoneIsOn && !lowPower && !forceQuit && !droppedOut && phoneStream.bernoulli(proto.channel.backgroundTaskSuccess) {
      planner.refill(at: sim.now, times: times, days: days, today: life.day(at: sim.now))
    }
    sim.schedule(at: sim.now + Tick.minutes(hours * 60), kind: EventKind.backgroundTask.rawValue)
  }
}
