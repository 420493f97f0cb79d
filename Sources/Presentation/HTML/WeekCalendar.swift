import Study
import Foundation
import SimKernel
import Schedules
import StudyModel

/// A participant's week as a calendar (SVG): a row per day, midnight to midnight, with where
/// they were, what the phone and the study app were doing, and every prompt: a filled dot
/// answered, a ring missed (its title says why), placed at its scheduled time.
public enum WeekCalendar {
  /// Fill colours of the contexts.
  static let contextColours: [Context: String] = [
    .asleep: "#4b4f63", .home: "#cfe3c6", .work: "#c9d7ee", .transit: "#f1d9a6", .underground: "#d9b77a",
    .driving: "#f0b48a", .social: "#e6c3e0", .exercise: "#b9e4e0",
  ]
  /// Fill colours of the phone's states.
  static let phoneColours: [ParticipantWeek.PhoneState: String] = [
    .off: "#222222", .notRunning: "#d9453b", .suspended: "#f2a93b", .background: "#7cc47f", .foreground: "#1f8f3a",
  ]

  /// The calendar; `title` heads it (who the participant is).
  public static func svg(_ week: ParticipantWeek, title: String) -> String {
    let (left, width, rowHeight, top) = (64.0, 960.0, 40.0, 76.0)
    let plot = width - left - 10
    func x(_ t: SimTime, day: Int) -> Double { left + Double(t - SimTime(day) * Tick.day) / Double(Tick.day) * plot }
    let height = top + Double(week.days) * rowHeight + 8
    var body = "<text x='0' y='14' class='label' font-weight='600'>\(HTML.escape(title))</text>"
    // Legend: contexts, phone states, prompts.
    var lx = 0.0
    func legend(_ name: String, _ colour: String, y: Double, ring: Bool = false) {
      body += ring
        ? "<circle cx='\(SVGChart.f(lx + 5))' cy='\(SVGChart.f(y - 4))' r='4' fill='white' stroke='\(colour)' stroke-width='2'/>"
        : "<rect x='\(SVGChart.f(lx))' y='\(SVGChart.f(y - 9))' width='10' height='10' fill='\(colour)'/>"
      body += "<text x='\(SVGChart.f(lx + 13))' y='\(SVGChart.f(y))' class='tick'>\(HTML.escape(name))</text>"
      lx += 20 + Double(name.count) * 5.6
    }
    for c in Context.allCases where week.contexts.contains(where: { $0.context == c }) {
      legend(c.description, contextColours[c] ?? "#ccc", y: 30)
    }
    lx = 0
    for s in ParticipantWeek.PhoneState.allCases where week.phone.contains(where: { $0.state == s }) {
      legend("phone: " + s.rawValue, phoneColours[s] ?? "#ccc", y: 46)
    }
    legend("answered", "#1f6fb4", y: 46)
    legend("missed", "#c0392b", y: 46, ring: true)
    for h in stride(from: 0, through: 24, by: 3) {
      let xx = left + Double(h) / 24 * plot
      body += "<line x1='\(SVGChart.f(xx))' y1='\(SVGChart.f(top - 4))' x2='\(SVGChart.f(xx))' y2='\(SVGChart.f(height - 8))' class='grid'/>"
    }
    for d in 0..<week.days {
      let y0 = top + Double(d) * rowHeight
      let (dayStart, dayEnd) = (SimTime(d) * Tick.day, SimTime(d + 1) * Tick.day)
      body += "<text x='0' y='\(SVGChart.f(y0 + 16))' class='tick'>day \(d + 1)</text>"
      func band(_ start: SimTime, _ end: SimTime, y: Double, h: Double, fill: String, title: String) {
        let a = max(start, dayStart)
        let b = min(end, dayEnd)
        guard b > a else { return }
        body += "<rect x='\(SVGChart.f(x(a, day: d)))' y='\(SVGChart.f(y))' width='\(SVGChart.f(max(x(b, day: d) - x(a, day: d), 0.4)))' height='\(SVGChart.f(h))' fill='\(fill)'><title>\(HTML.escape(title)) \(clock(a)) to \(clock(b))</title></rect>"
      }
      for c in week.contexts where c.end > dayStart && c.start < dayEnd {
        band(c.start, c.end, y: y0, h: 14, fill: contextColours[c.context] ?? "#ccc", title: c.context.description)
      }
      for p in week.phone where p.end > dayStart && p.start < dayEnd {
        band(p.start, p.end, y: y0 + 16, h: 7, fill: phoneColours[p.state] ?? "#ccc", title: "phone: " + p.state.rawValue)
      }
      for p in week.prompts where p.scheduled >= dayStart && p.scheduled < dayEnd {
        let cx = SVGChart.f(x(p.scheduled, day: d))
        let answered = p.status == .answered
        let shape =
          answered
          ? "<circle cx='\(cx)' cy='\(SVGChart.f(y0 + 31))' r='4.5' fill='#1f6fb4' class='prompt p-answered'>"
          : "<circle cx='\(cx)' cy='\(SVGChart.f(y0 + 31))' r='4' fill='white' stroke='#c0392b' stroke-width='2' class='prompt p-missed'>"
        body += shape + "<title>\(HTML.escape(describe(p)))</title></circle>"
      }
    }
    for h in stride(from: 0, through: 24, by: 3) {
      let xx = left + Double(h) / 24 * plot
      body += "<text x='\(SVGChart.f(xx))' y='\(SVGChart.f(top - 8))' class='tick' text-anchor='middle'>\(String(format: "%02d:00", h % 24 == 0 && h > 0 ? 24 : h))</text>"
    }
    return "<svg xmlns='http://www.w3.org/2000/svg' class='week' width='100%' viewBox='0 0 \(SVGChart.f(width)) \(SVGChart.f(height))' role='img'>\(body)</svg>"
  }

  /// The calendar of participant `participant` of a run of `plan` with `seed` (replication 1).
  public static func svg(plan: StudyPlan, seed: UInt64, participant: Int, days: Int = 7) -> String {
    let week = ParticipantSimulation.week(plan: plan, seed: seed, participant: UInt32(participant), days: days)
    let answered = week.prompts.filter { $0.status == .answered }.count
    let title = "Participant \(participant + 1): \(week.os == .ios ? "iPhone" : "Android"), \(Labels.device(plan.devices[week.device].profile.name)); "
      + "\(answered) of \(week.prompts.count) prompts answered in \(week.days) days"
    return svg(week, title: title)
  }

  /// A prompt's story: scheduled, delivered, noticed, answered, or missed and why.
  public static func describe(_ p: PromptRecord) -> String {
    var parts = ["scheduled \(clock(p.scheduled))"]
    if p.delivered >= 0 { parts.append("delivered \(clock(p.delivered))") }
    if p.noticed >= 0 { parts.append("noticed \(clock(p.noticed))") }
    if p.status == .answered {
      parts.append("answered \(clock(p.submitted))")
    } else {
      let reason = p.reason == .none ? "" : ": " + p.reason.label
      parts.append(p.status.rawValue.replacingOccurrences(of: "_", with: " ") + reason)
    }
    return parts.joined(separator: ", ")
  }

  static func clock(_ t: SimTime) -> String { ClockTime(minutes: Tick.inMinutes(t)).description }
}
