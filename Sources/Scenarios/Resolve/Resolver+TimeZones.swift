import Foundation
import SimKernel
import StudyModel

/// Time zones: `population.time_zones` (IANA names and shares) and
/// `protocol.server_time_zone` (the clock a push server schedules by), with the
/// daylight-saving changes of the IANA database (Foundation's `TimeZone`) over the study.
extension ScenarioResolver {
  /// The zone named `name` over a study of `days` days from `start` (its changes from two
  /// days before to two days after), or nil for a name the database does not know.
  static func zone(_ name: String, start: CalendarDate, days: Int) -> ZoneOffsets? {
    guard knows(name), let tz = TimeZone(identifier: name) else { return nil }
    let origin = Date(timeIntervalSince1970: Double(start.epochMilliseconds) / 1000)
    let from = origin.addingTimeInterval(-2 * 86_400)
    let to = origin.addingTimeInterval(Double(days + 2) * 86_400)
    func ms(_ seconds: Int) -> SimTime { SimTime(seconds) * 1000 }
    var offsets = [ms(tz.secondsFromGMT(for: from))]
    var changes: [SimTime] = []
    var t = from
    while let next = tz.nextDaylightSavingTimeTransition(after: t), next < to, changes.count < 10_000 {
      changes.append(SimTime((next.timeIntervalSince(origin) * 1000).rounded()))
      offsets.append(ms(tz.secondsFromGMT(for: next)))
      t = next
    }
    return ZoneOffsets(name: name, offsets: offsets, changes: changes)
  }

  /// Whether the IANA database has a zone of this name.
  static func knows(_ name: String) -> Bool { name.count <= 100 && TimeZone(identifier: name) != nil }

  /// `population.time_zones`: IANA names and the share of participants living in each
  /// (default: everyone in UTC).
  func timeZones(_ r: Reader, days: Int) throws(ScenarioError) -> [(zone: ZoneOffsets, share: Double)] {
    let names = try r.shares(
      "time_zones", default: [("UTC", 1)], example: "Europe/London", accepts: Self.knows,
      // In the file's order (no rank): the first is the push server's zone by default.
      unknown: { "not a time zone of the IANA database (for example Europe/London, America/New_York, UTC)" })
    return names.map { (Self.zone($0.0, start: startDate, days: days)!, $0.1) }
  }

  /// `protocol.server_time_zone`: the zone a push server schedules by (default: an imported
  /// study's own, else the population's first zone).
  func serverZone(_ r: Reader, plan: StudyPlan, imported: String?) throws(ScenarioError) -> ZoneOffsets {
    let given = r.has("server_time_zone")
    let name = try r.string("server_time_zone", default: imported ?? plan.timeZones[0].zone.name, maxLength: 100)
    // The population's own zone when the server shares it.
    guard let zone = plan.timeZones.first(where: { $0.zone.name == name })?.zone ?? Self.zone(name, start: startDate, days: plan.days + plan.enrolmentDays - 1)
    else {
      let key = given ? r.keyPath("server_time_zone") : "study_time_zone"
      throw ScenarioError(
        file: file, key: key, at: r.raw("server_time_zone")?.location,
        r.context + "'\(name)' is not a time zone of the IANA database (for example Europe/London, America/New_York, UTC)")
    }
    return zone
  }
}
