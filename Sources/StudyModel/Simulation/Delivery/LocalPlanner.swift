import SimKernel

/// The notifications an app has planned on the phone: the prompts from ``start`` up to (not
/// including) ``end`` in time order, topped up whenever the app gets to run code.
///
/// iOS holds at most `cap` pending notifications, the soonest kept and the rest silently
/// dropped ([@AppleLocalNotifications], A); each prompt takes
/// one notification plus one per reminder. An app plans `horizonDays` days ahead, or the next
/// `repetitions` occurrences of each time of day (ESMira: 4, and never more than 55), as far
/// as the cap allows. A prompt whose time comes while it is not planned is lost: "cap" if
/// the last top-up stopped at the cap before reaching it, "not_refilled" if the plan had
/// simply run out (the app did not run in time).
public struct LocalPlanner: Sendable {
  let channel: ChannelPlan
  let notificationsPerPrompt: Int
  /// Prompts planned so far: indices below this are on the phone (if still in the future).
  public private(set) var end = 0
  /// Whether the last top-up was cut short by the cap.
  public private(set) var cutByCap = false

  /// A planner for `channel`, each prompt taking `1 + reminders` notifications.
  public init(channel: ChannelPlan, reminders: Int) {
    self.channel = channel
    notificationsPerPrompt = 1 + max(reminders, 0)
  }

  /// Tops up the plan at time `t`: `times` are every prompt's scheduled times in order,
  /// `days` their study days, `today` the study day of `t`.
  public mutating func refill(at t: SimTime, times: [SimTime], days: [Int32], today: Int) {
    // The first prompt still to come.
    var first = end
    while first > 0 && times[first - 1] > t { first -= 1 }
    while first < times.count && times[first] <= t { first += 1 }
    var wanted = times.count
    if let h = channel.horizonDays {
      let lastDay = today + h
      wanted = first
      while wanted < times.count && Int(days[wanted]) <= lastDay { wanted += 1 }
    }
    if let r = channel.repetitions {
      // The next r occurrences of each time of day: r study days' worth from the first.
      let perDayCap = channel.cap / notificationsPerPrompt
      let lastDay = first < days.count ? Int(days[first]) + r - 1 : today
      var upTo = first
      while upTo < times.count && Int(days[upTo]) <= lastDay { upTo += 1 }
      // ESMira: fewer repetitions when r would pass the cap.
      var dayCount = r
      while dayCount > 0 && upTo - first > perDayCap {
        dayCount -= 1
        let d = first < days.count ? Int(days[first]) + dayCount - 1 : today
        upTo = first
        while upTo < times.count && Int(days[upTo]) <= d { upTo += 1 }
      }
      wanted = min(wanted, upTo)
    }
    let capEnd = first + channel.cap / notificationsPerPrompt
    let newEnd = min(wanted, capEnd)
    cutByCap = wanted > capEnd
    end = max(end, newEnd)
  }

  /// Everything planned at once (Android alarms: no practical cap, re-armed when each fires).
  public mutating func planAll(count: Int) {
    end = count
    cutByCap = false
  }

  /// Whether prompt `i` is on the phone when its time comes.
  public func isPlanned(_ i: Int) -> Bool { i < end }
}
