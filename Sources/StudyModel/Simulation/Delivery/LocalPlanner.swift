import SimKernel

/// The notifications an app has planned on the phone: the prompts from ``start`` up to (not
/// including) ``end`` in time order, topped up whenever the app gets to run code.
///
/// iOS holds at most `cap` pending notifications, the soonest kept and the rest silently
/// dropped ([@AppleLocalNotifications], A); each prompt takes
/// one notification plus one per reminder. An app plans `horizonDays` days ahead, or the next
/// `repetitions` occurrences of each schedule's times of day (ESMira: 4, and never more than
/// 55, [@ESMiraNotes]: a schedule repeating every 2 days plans 8 days, a Monday-only one 4
/// weeks), as far as the cap allows. A prompt whose time comes while it is not planned is lost: "cap" if
/// the last top-up stopped at the cap before reaching it, "not_refilled" if the plan had
/// simply run out (the app did not run in time).
public struct LocalPlanner: Sendable {
  let channel: ChannelPlan
  let notificationsPerPrompt: Int
  /// Prompts planned so far: indices below this are on the phone (if still in the future).
  public private(set) var end = 0
  /// Whether the last top-up was cut short by the cap.
  public private(set) var cutByCap = false
  /// The end of the prompts the last top-up wanted on the phone (its horizon or repetitions):
  /// a prompt past it that was not planned was lost because the app did not run again, not
  /// to the cap.
  public private(set) var wantedEnd = 0
  /// Prompts planned beyond ``end`` (in time order): with a cap per schedule, a schedule that
  /// has used its share leaves its later prompts out while the others' are still planned.
  public private(set) var beyond: [Int] = []

  /// A planner for `channel`, each prompt taking `1 + reminders` notifications.
  public init(channel: ChannelPlan, reminders: Int) {
    self.channel = channel
    notificationsPerPrompt = 1 + max(reminders, 0)
  }

  /// Tops up the plan at time `t`: `times` are every prompt's scheduled times in order,
  /// `days` their study days, `parts` their schedules (of `schedules`), `today` the study day of `t`.
  public mutating func refill(
    at t: SimTime, times: [SimTime], days: [Int32], parts: [UInt16], schedules: Int, today: Int
  ) {
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
      // ESMira: the next r occurrences of each time of day, fewer when r would pass the cap.
      let perPromptCap = channel.cap / notificationsPerPrompt
      let ends = Self.occurrenceEnds(most: r, from: first, days: days, parts: parts, schedules: schedules)
      var count = r
      while count > 1 && ends[count - 1] - first > perPromptCap { count -= 1 }
      wanted = min(wanted, ends[count - 1])
    }
    wantedEnd = wanted
    if let each = channel.perScheduleCap {
      planEach(from: first, to: wanted, each: each, parts: parts, schedules: schedules)
      return
    }
    let capEnd = first + channel.cap / notificationsPerPrompt
    let newEnd = min(wanted, capEnd)
    cutByCap = wanted > capEnd
    end = max(end, newEnd)
  }

  /// AWARE's plugin: each schedule plans its next `each` notifications (its counter runs per
  /// schedule), and iOS keeps the soonest ``ChannelPlan/cap`` of them all. The plan replaces
  /// the last one (the plugin cancels its pending notifications first): the prompts from
  /// `first` up to the first one left out, and the later ones still planned in ``beyond``.
  mutating func planEach(from first: Int, to wanted: Int, each: Int, parts: [UInt16], schedules: Int) {
    var used = [Int](repeating: 0, count: schedules)
    var pooled = 0
    var prefixEnd: Int?
    beyond.removeAll(keepingCapacity: true)
    var i = first
    while i < wanted && pooled + notificationsPerPrompt <= channel.cap {
      let p = Int(parts[i])
      if used[p] + notificationsPerPrompt <= each {
        used[p] += notificationsPerPrompt
        pooled += notificationsPerPrompt
        if prefixEnd != nil { beyond.append(i) }
      } else if prefixEnd == nil {
        prefixEnd = i
      }
      i += 1
    }
    end = prefixEnd ?? i
    cutByCap = i < wanted || prefixEnd != nil
  }

  /// The end of the prompts from `first` that fall on each schedule's next `r` days with
  /// prompts (its occurrences: a schedule repeating every 2 days has them 2 days apart, a
  /// Monday-only one a week apart), in time order: the plan stops at the first prompt past
  /// its schedule's `r`-th occurrence.
  static func occurrences(_ r: Int, from first: Int, days: [Int32], parts: [UInt16]) -> Int {
    occurrenceEnds(most: r, from: first, days: days, parts: parts, schedules: Int(parts.max() ?? 0) + 1)[r - 1]
  }

  /// ``occurrences(_:from:days:parts:)`` for every r from 1 to `most` (entry r − 1), in one
  /// walk: the plan of r occurrences ends at the first prompt that starts some schedule's
  /// (r + 1)-th, and these come in order of r. `parts` are below `schedules`.
  static func occurrenceEnds(most: Int, from first: Int, days: [Int32], parts: [UInt16], schedules: Int) -> [Int] {
    var ends = [Int](repeating: days.count, count: most)
    var found = 0
    var seen = [Int32](repeating: -1, count: schedules)  // each schedule's last occurrence day counted
    var counted = [Int](repeating: 0, count: schedules)
    var i = first
    while i < days.count && found < most {
      let p = Int(parts[i])
      if days[i] != seen[p] {
        if counted[p] == found + 1 {
          ends[found] = i
          found += 1
        }
        counted[p] += 1
        seen[p] = days[i]
      }
      i += 1
    }
    return ends
  }

  /// Everything planned at once (Android alarms: no practical cap, re-armed when each fires).
  public mutating func planAll(count: Int) {
    end = count
    wantedEnd = count
    cutByCap = false
    beyond = []
  }

  /// Why prompt `i`, not planned, is lost: to the cap if the last top-up wanted it but the cap
  /// cut the plan short; otherwise because the plan ran out (the app did not run in time).
  public func lossReason(_ i: Int) -> MissReason { cutByCap && i < wantedEnd ? .cap : .notRefilled }

  /// Whether prompt `i` is on the phone when its time comes.
  public func isPlanned(_ i: Int) -> Bool { i < end || (!beyond.isEmpty && Self.sortedContains(beyond, i)) }

  static func sortedContains(_ a: [Int], _ x: Int) -> Bool {
    var lo = 0
    var hi = a.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if a[mid] < x { lo = mid + 1 } else { hi = mid }
    }
    return lo < a.count && a[lo] == x
  }
}
