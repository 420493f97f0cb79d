import SimKernel

/// Silent pushes (background notifications): a server sends one every so often to wake the
/// app (AWARE-iOS's SPN, [@Nishiyama2020]); iOS delivers it within its budget and wakes the
/// app with the device condition's chance (``DeviceProfile/silentPushWake``).
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

/// iOS's budget for background pushes: they are low priority and throttled, "don't try to
/// send more than two or three per hour" ([@AppleBackgroundUpdates]: A for the figure). The
/// mechanics are esmsim's (D): a bucket of 3 pushes refilled at 3 an hour; a push that finds
/// it empty is held on the phone and delivered when the next one accrues, a newer push
/// replacing it; a held push is discarded when the app is killed (Apple, same page). Pushes
/// are spent whether the app runs or not, so the deliveries depend only on the server's
/// pushes and the network: they are worked out ahead, without drawing.
public struct PushBudget {
  /// Pushes delivered per hour at most, and the bucket's size.
  public static let perHour = 3.0
  /// Ticks for one push to accrue.
  public static let refill = Double(Tick.hour) / perHour

  /// Pushes in the bucket at ``clock``.
  var tokens = PushBudget.perHour
  var clock: SimTime = 0
  /// The next push the server sends.
  var nextSend: SimTime

  /// A push delivered to the app: when, and when it reached the phone (earlier when iOS held it).
  struct Delivered {
    var time: SimTime
    var arrived: SimTime
  }

  init(every: SimTime) { nextSend = every }

  mutating func refill(to t: SimTime) {
    tokens = min(Self.perHour, tokens + Double(t - clock) / Self.refill)
    clock = t
  }
}

extension PushBudget {
  /// The next push iOS delivers, advancing the budget, or nil before `limit`. Pushes go out
  /// every `every` from the study's start; one sent while the phone is offline is held by APNs
  /// (``SilentPush/heldLifetime``) and arrives when the phone is back.
  ///
  /// - Parameters:
  ///   - reachable: whether the phone is online at a time.
  ///   - nextReachable: when an offline phone is next online (nil: not in the study).
  mutating func next(
    every: SimTime, limit: SimTime, reachable: (SimTime) -> Bool, nextReachable: (SimTime) -> SimTime?
  ) -> Delivered? {
    while nextSend < limit {
      let sent = nextSend
      var arrival = sent
      if reachable(sent) {
        nextSend = sent + every
      } else {
        guard let back = nextReachable(sent) else { return nil }
        // The newest push sent before the phone came back is the one APNs delivers.
        let newest = ((back - 1) / every) * every
        nextSend = (back / every + 1) * every
        guard back - newest <= SilentPush.heldLifetime else { continue }
        arrival = back
      }
      refill(to: arrival)
      if tokens >= 1 {
        tokens -= 1
        return Delivered(time: arrival, arrived: arrival)
      }
      // Over budget: held on the phone until a push accrues; pushes arriving meanwhile
      // replace it (the delivery time stays).
      let at = arrival + SimTime(((1 - tokens) * Self.refill).rounded(.up))
      refill(to: at)
      tokens = max(tokens - 1, 0)
      nextSend = max(nextSend, (at / every + 1) * every)
      return Delivered(time: at, arrived: arrival)
    }
    return nil
  }
}

extension ParticipantSimulation {
  /// The next push iOS delivers to this phone after the budget's state `b`. (The closures
  /// capture the timeline and the cursor, not the simulation: capturing it copied it whole.)
  func nextPushDelivery(_ b: inout PushBudget, every: SimTime, limit: SimTime) -> PushBudget.Delivered? {
    let timeline = life.timeline
    let hint = timelineCursor
    return b.next(
      every: every, limit: limit, reachable: { timeline.episode(at: $0, from: hint).network != .unreachable },
      nextReachable: { timeline.first(from: $0, hint: hint) { $0.network != .unreachable } })
  }

  /// The first silent push after `t` that wakes the app: the deliveries up to `t` are spent
  /// (the app ran, or was stopped and not woken), then each later delivery wakes the app
  /// with the device's chance. A push iOS held from before the app was killed is discarded.
  mutating func nextPushWake(after t: SimTime, every: SimTime) -> SimTime? {
    var committed: PushBudget
    if Double(every) >= PushBudget.refill {
      // Within the budget every push is delivered when it arrives (the bucket never runs
      // out: arrivals are a refill apart but for one held by APNs): start at the first push
      // after t without walking the ones before.
      committed = PushBudget(every: every)
      committed.nextSend = (t / every + 1) * every
      committed.clock = t
    } else {
      if delivery.pushBudget == nil { delivery.pushBudget = PushBudget(every: every) }
      committed = delivery.pushBudget!
      var look = committed
      while let d = nextPushDelivery(&look, every: every, limit: t + 1), d.time <= t { committed = look }
      delivery.pushBudget = committed
    }
    let wakeChance = power.lowPower ? profile.silentPushWakeLowPower : profile.silentPushWake
    let limit = min(t + SilentPush.searchDays * Tick.day, studyEnd)
    var b = committed
    while let d = nextPushDelivery(&b, every: every, limit: limit) {
      guard d.time > t else { continue }
      if d.arrived < app.killedAt { continue }  // held when the app was killed: discarded
      if streams.delivery.uniform() < wakeChance { return d.time + SilentPush.wakeDelay }
    }
    return nil
  }
}
