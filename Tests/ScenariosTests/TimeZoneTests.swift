import Foundation
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

/// Time zones and daylight-saving changes: local notifications by the phone's clock, pushes
/// by the server's.
@Suite("Time zones")
struct TimeZoneTests {
  /// London's changes around the last Sunday of March 2026 (29 March, 01:00 UTC), for a study
  /// from Monday 23 March.
  static let start = CalendarDate(iso: "2026-03-23")!
  static let london = ScenarioResolver.zone("Europe/London", start: start, days: 14)!
  static let change = SimTime(6) * Tick.day + Tick.hour  // 29 March 01:00 UTC

  @Test("London's offsets from the IANA database: +0 before 29 March 01:00 UTC, +1 h after; wall and instant convert both ways")
  func londonOffsets() {
    let z = Self.london
    #expect(z.changes == [Self.change])
    #expect(z.offsets == [0, Tick.hour])
    #expect(z.offset(atInstant: Self.change - 1) == 0 && z.offset(atInstant: Self.change) == Tick.hour)
    // 09:00 wall on the 29th is 08:00 UTC; on the 28th 09:00 UTC.
    #expect(z.instant(ofWall: 6 * Tick.day + 9 * Tick.hour) == 6 * Tick.day + 8 * Tick.hour)
    #expect(z.instant(ofWall: 5 * Tick.day + 9 * Tick.hour) == 5 * Tick.day + 9 * Tick.hour)
    // 01:30 wall on the 29th never shows: the alarm comes at 02:30 (the instant 01:30 UTC).
    let skipped = 6 * Tick.day + 90 * Tick.minute
    #expect(z.instant(ofWall: skipped) == skipped && z.wall(ofInstant: skipped) == skipped + Tick.hour)
    // Every instant round-trips through the wall clock away from the change.
    for h in stride(from: 0, to: 14 * 24, by: 5) {
      let u = SimTime(h) * Tick.hour + 17 * Tick.minute
      #expect(z.instant(ofWall: z.wall(ofInstant: u)) == u)
    }
    #expect(ScenarioResolver.zone("Mars/Olympus_Mons", start: Self.start, days: 14) == nil)
  }

  @Test("October's repeated hour: 01:30 wall is the earlier of its two instants")
  func repeatedHour() throws {
    let z = try #require(ScenarioResolver.zone("Europe/London", start: CalendarDate(iso: "2026-10-19")!, days: 14))
    // 25 October 2026 01:00 UTC: BST ends; 01:30 wall happens at 00:30 UTC and at 01:30 UTC.
    let wall = 6 * Tick.day + 90 * Tick.minute
    #expect(z.instant(ofWall: wall) == wall - Tick.hour)
  }

  static let study = """
    name: over the change to summer time in London
    start_date: 2026-03-23
    duration: 14d
    seed: 4
    population: {size: 30, time_zones: {Europe/London: 1}}
    protocol:
      schedule: {algorithm: fixed-times, times: ["09:00", "13:00", "19:00"]}
    variants:
      - name: local
      - name: utc server
        protocol: {channel: push, server_time_zone: UTC}
      - name: london server
        protocol: {channel: push}
    """

  @Test("over the last Sunday of March in Europe/London: local notifications stay at 09:00, 13:00, 19:00; pushes from a UTC server come an hour later from the 29th")
  func lastSundayOfMarch() throws {
    let s = try resolve(Self.study)
    #expect(s.variants[2].plan.protocolPlan.serverZone.name == "Europe/London")
    for (v, variant) in s.variants.enumerated() {
      for k in 0..<variant.plan.participants {
        let o = ParticipantSimulation.outcome(plan: variant.plan, seed: 4, replication: 0, participant: UInt32(k))
        for d in 0..<14 {
          let clock = o.prompts.filter { $0.day == d }.map { ($0.scheduled % Tick.day) / Tick.minute }
          let shift: SimTime = v == 1 && d >= 6 ? 60 : 0
          #expect(clock == [9 * 60 + shift, 13 * 60 + shift, 19 * 60 + shift], "\(variant.name) day \(d)")
        }
      }
    }
  }

  @Test("participants across zones: shares drawn from a stream of their own; a push from London reaches New York 5 h earlier on its clock")
  func sharesAndOwnStream() throws {
    let two = try resolve(
      """
      name: t
      start_date: 2026-01-05
      duration: 7d
      population: {size: 400, time_zones: {Europe/London: 0.75, America/New_York: 0.25}}
      protocol: {schedule: {algorithm: fixed-times, times: ["15:00"]}, channel: push}
      """)
    let one = try resolve(
      """
      name: t
      start_date: 2026-01-05
      duration: 7d
      population: {size: 400}
      protocol: {schedule: {algorithm: fixed-times, times: ["15:00"]}, channel: push}
      """)
    var newYork = 0
    // Zones keep the file's order (the first is the push server's by default).
    let ny = try #require(two.variants[0].plan.timeZones.firstIndex { $0.zone.name == "America/New_York" })
    #expect(ny == 1)
    for k in 0..<400 {
      let a = ParticipantSimulation(plan: two.variants[0].plan, seed: 1, replication: 0, participant: UInt32(k))
      let b = ParticipantSimulation(plan: one.variants[0].plan, seed: 1, replication: 0, participant: UInt32(k))
      // Every other trait is the same person's.
      #expect(a.person.answerLevel == b.person.answerLevel && a.person.sleepOffset == b.person.sleepOffset)
      if a.person.zone == ny {
        newYork += 1
        let o = ParticipantSimulation.outcome(plan: two.variants[0].plan, seed: 1, replication: 0, participant: UInt32(k))
        #expect(o.prompts.map { ($0.scheduled % Tick.day) / Tick.minute }.allSatisfy { $0 == 10 * 60 })
      }
    }
    // A quarter of 400: binomial sd √(400 · 0.25 · 0.75) ≈ 8.7; within 4 sd.
    #expect(abs(newYork - 100) < 35, "\(newYork)")
  }

  @Test("event-contingent prompts follow the phone's clock whatever the server's: 5 minutes after leaving home across the change to summer time")
  func eventsKeepThePhoneClock() throws {
    let s = try resolve(
      """
      name: t
      start_date: 2026-03-23
      duration: 14d
      population: {size: 20, time_zones: {Europe/London: 1}}
      protocol:
        schedule: {algorithm: event, trigger: leaving_home, delay: 5m, max_per_day: 200}
        window: "00:00-23:59"
      variants:
        - name: local
        - name: utc server
          protocol: {channel: push, server_time_zone: UTC}
      """)
    for k in 0..<20 {
      let prompts = s.variants.map {
        ParticipantSimulation.outcome(plan: $0.plan, seed: 1, replication: 0, participant: UInt32(k)).prompts.map(\.scheduled)
      }
      #expect(!prompts[0].isEmpty && prompts[0] == prompts[1], "participant \(k)")
    }
  }

  @Test("an unknown zone is refused by key; a server zone with local notifications is warned about")
  func mistakes() throws {
    #expect(problem("name: t\npopulation: {time_zones: {Mars/Olympus_Mons: 1}}")?.key == "population.time_zones.Mars/Olympus_Mons")
    #expect(problem("name: t\npopulation: {time_zones: {UTC: 0.5}}")?.key == "population.time_zones")
    #expect(problem("name: t\nprotocol: {channel: push, server_time_zone: Nowhere}")?.key == "protocol.server_time_zone")
    let warned = try resolve("name: t\nprotocol: {server_time_zone: Europe/Paris}")
    #expect(warned.warnings.map(\.key) == ["protocol.server_time_zone"])
  }
}
