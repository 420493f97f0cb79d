import SimKernel

/// Silent pushes (background notifications): a server sends one every so often to wake the
/// app (AWARE-iOS's SPN, [@Nishiyama2020]); iOS delivers it and wakes the app with the device
/// condition's chance (``DeviceProfile/silentPushWake``).
enum SilentPush {
  /// From a silent push's arrival to the app running its code (assumption, D: APNs and the
  /// launch take "seconds typically", [@AppleAPNs]).
  static let wakeDelay = Tick.seconds(2)
  /// A push sent while the phone is offline is held by APNs, the newest only, and delivered
  /// when the phone is back if it is at most this old (AWARE's pushes expire after an hour,
  /// [@Nishiyama2020], B).
  static let heldLifetime = Tick.hour
  /// How far ahead the search for the next push that wakes the app looks: a wake further
  /// away is drawn afresh when something changes first (numerical).
  static let searchDays: SimTime = 7
}

extension ParticipantSimulation {
  /// The first silent push after `t` that wakes the app. Pushes go out every `every` from the
  /// study's start; one sent while the phone is offline is held (``SilentPush/heldLifetime``)
  /// and delivered when the phone is back.
  mutating func nextPushWake(after t: SimTime, every: SimTime) -> SimTime? {
    let wakeChance = power.lowPower ? profile.silentPushWakeLowPower : profile.silentPushWake
    var slot = (t / every + 1) * every
    let limit = min(t + SilentPush.searchDays * Tick.day, studyEnd)
    while slot < limit {
      if network(at: slot) != .unreachable {
        if deliveryStream.uniform() < wakeChance { return slot + SilentPush.wakeDelay }
        slot += every
      } else {
        guard let back = nextReachable(after: slot) else { return nil }
        // The newest push sent before the phone came back is the one delivered.
        let newest = ((back - 1) / every) * every
        if back - newest <= SilentPush.heldLifetime && deliveryStream.uniform() < wakeChance {
          return back + SilentPush.wakeDelay
        }
        slot = (back / every + 1) * every
      }
    }
    return nil
  }
}
