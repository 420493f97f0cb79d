import Study
import Presentation
import Measures
import Schedules

/// Schedules as text: CSV and JSON rows, and a terminal timeline for teaching.
public enum ScheduleText {
  /// `day,index,minute` rows.
  public static func csv(_ signals: [ScheduleRun.Signal]) -> String {
    var out = "day,index,minute\n"
    for s in signals { out += "\(s.day),\(s.index),\(NumberText.exact(s.minute))\n" }
    return out
  }

  /// An array of `{"day", "index", "minute"}` objects.
  public static func json(_ signals: [ScheduleRun.Signal]) -> String {
    JSONValue.array(
      signals.map { .object([("day", .int($0.day)), ("index", .int($0.index)), ("minute", .number($0.minute))]) }
    ).text(indent: 0) + "\n"
  }

  /// Characters per hour on the timeline (one character = 10 minutes).
  static let perHour = 6

  /// The hour marks above the timeline.
  public static func timelineHeader(_ window: Window) -> String {
    let width = Int((window.length / 10).rounded(.up))
    var marks = Array(repeating: Character(" "), count: width + 1)
    var labels = ""
    var m = (window.start.minutes / 60).rounded(.up) * 60
    while m - window.start.minutes <= window.length {
      let col = Int(((m - window.start.minutes) / 10).rounded(.down))
      if col <= width { marks[col] = "|" }
      m += 60
    }
    // Label every second hour where it fits.
    var line = Array(repeating: Character(" "), count: width + 6)
    m = (window.start.minutes / 120).rounded(.up) * 120
    while m - window.start.minutes <= window.length {
      let col = Int(((m - window.start.minutes) / 10).rounded(.down))
      let label = Array(ClockTime(minutes: m).description.prefix(2))
      if col + 1 < line.count { line[col] = label[0]; line[col + 1] = label[1] }
      m += 120
    }
    labels = String(line).replacingTrailingSpaces()
    return "        " + labels + "\n        " + String(marks).replacingTrailingSpaces()
  }

  /// One day: the window as dots, one per 10 minutes, a `#` where a signal falls
  /// (a digit when several fall in the same 10 minutes).
  public static func timeline(day: Int, times: [Double], window: Window) -> String {
    let width = Int((window.length / 10).rounded(.up))
    var counts = Array(repeating: 0, count: width)
    for t in times {
      counts[min(max(Int(t / 10), 0), width - 1)] += 1
    }
    let cells = counts.map { c -> Character in
      c == 0 ? "." : (c == 1 ? "#" : Character(String(min(c, 9))))
    }
    let label = "day \(day)"
    return label + String(repeating: " ", count: max(8 - label.count, 1)) + String(cells)
      + "  (\(times.count))"
  }
}

extension String {
  fileprivate func replacingTrailingSpaces() -> String {
    var s = self
    while s.last == " " { s.removeLast() }
    return s
  }
}
