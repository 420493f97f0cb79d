import Foundation
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

@Suite("protocol.questionnaires, weekdays, every_days, event schedules")
struct QuestionnaireScenarioTests {
  static let two = """
    name: t
    protocol:
      window: "09:00-21:00"
      expiry: 20m
      questionnaires:
        - name: morning
          schedule: {algorithm: fixed-times, times: ["08:30"]}
          window: "08:00-12:00"
          expiry: 2h
          survey: {title: Morning, items: [{id: sleep}]}
        - name: daytime
          schedule: {algorithm: fixed-blocks, per_day: 5, weekdays: [Mon, tue, wed, thu, fri], every_days: 2}
          reminders: {count: 1, interval: 5m}
    """

  @Test("each questionnaire has its schedule, window, expiry, reminders and survey; the protocol's fill the gaps")
  func questionnaires() throws {
    let p = try resolve(Self.two).variants[0].plan.protocolPlan
    #expect(p.questionnaires == ["morning", "daytime"])
    #expect(p.schedules.count == 2)
    #expect(p.expiry(ofSchedule: 0) == .after(2 * Tick.hour))
    #expect(p.expiry(ofSchedule: 1) == .after(20 * Tick.minute))
    #expect(p.reminders(ofSchedule: 0).count == 0 && p.reminders(ofSchedule: 1).count == 1)
    #expect(p.survey(ofSchedule: 0).id == "morning" && p.survey(ofSchedule: 0).items.map(\.id) == ["sleep"])
    #expect(p.survey(ofSchedule: 1).id == "daytime")
    #expect(p.schedules[0].window == .fixed(weekday: try Window(parsing: "08:00-12:00"), weekend: try Window(parsing: "08:00-12:00")))
    #expect(p.schedules[1].window == .fixed(weekday: try Window(parsing: "09:00-21:00"), weekend: try Window(parsing: "09:00-21:00")))
    #expect(p.schedules[1].weekdays == [0, 1, 2, 3, 4] && p.schedules[1].everyDays == 2)
    #expect(p.schedules[0].weekdays == nil && p.schedules[0].everyDays == 1)
  }

  @Test("an event schedule's trigger and its defaults")
  func eventSchedule() throws {
    let p = try resolve(
      "name: t\nprotocol: {schedule: {algorithm: event, trigger: leaving_home, delay: 5m, max_per_day: 3}}"
    ).variants[0].plan.protocolPlan
    #expect(p.schedules[0].trigger == EventTrigger(event: .leaving(.home), delay: 5 * Tick.minute, maxPerDay: 3))
    let unlock = try resolve("name: t\nprotocol: {schedule: {algorithm: event, trigger: phone_unlock, probability: 0.2, min_gap: 1h}}")
    #expect(unlock.variants[0].plan.protocolPlan.schedules[0].trigger == EventTrigger(event: .phoneUnlock, probability: 0.2, minGap: Tick.hour))
    // After joining: a delay of up to a year, and a random part up to delay_max.
    let joined = try resolve("name: t\nprotocol: {schedule: {algorithm: event, trigger: joined, delay: 1d, delay_max: 36h}}")
    #expect(joined.variants[0].plan.protocolPlan.schedules[0].trigger == EventTrigger(event: .joined, delay: Tick.day, delaySpread: 12 * Tick.hour))
  }

  @Test("mistakes are named by key: a repeated name, a schedule beside questionnaires, an unknown trigger or weekday")
  func mistakes() {
    func key(_ yaml: String) -> String? { problem(yaml)?.key }
    let dup = "name: t\nprotocol: {questionnaires: [{name: a, schedule: {algorithm: mappiness}}, {name: a, schedule: {algorithm: mappiness}}]}"
    #expect(key(dup) == "protocol.questionnaires[1].name")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: mappiness}, questionnaires: [{name: a, schedule: {algorithm: mappiness}}]}") == "protocol.schedule")
    #expect(key("name: t\nprotocol: {questionnaires: [{name: a}]}") == "protocol.questionnaires[0].schedule")
    #expect(key("name: t\nprotocol: {questionnaires: [{name: 'a b', schedule: {algorithm: mappiness}}]}") == "protocol.questionnaires[0].name")
    #expect(key("name: t\nprotocol: {questionnaires: [{name: a, schedule: {algorithm: mappiness}, survey: {id: x}}]}") == "protocol.questionnaires[0].survey.id")
    #expect(key("name: t\nprotocol: {questionnaires: []}") == "protocol.questionnaires")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: event, trigger: leaving_moon}}") == "protocol.schedule.trigger")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: event}}") == "protocol.schedule.trigger")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: event, trigger: joined, delay: 2d, delay_max: 1d}}") == "protocol.schedule.delay_max")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: event, trigger: phone_unlock, delay: 1d}}") == "protocol.schedule.delay")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: mappiness, weekdays: [mon, funday]}}") == "protocol.schedule.weekdays")
    #expect(key("name: t\nprotocol: {schedule: {algorithm: mappiness, every_days: 0}}") == "protocol.schedule.every_days")
    #expect(key("name: t\nprotocol: {questionnaires: [{name: a, schedule: {algorithm: mappiness}, colour: red}]}") == "protocol.questionnaires[0].colour")
    #expect(key(Self.two) == nil)
  }
}
