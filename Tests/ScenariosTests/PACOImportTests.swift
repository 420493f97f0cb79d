import Foundation
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

/// PACO experiments as PACO's model and `EsmGenerator2` define them ([@PACO]).
@Suite("PACO experiments")
struct PACOImportTests {
  static func scenario(_ protocolLine: String) throws(ScenarioError) -> Scenario {
    try importing(protocolLine, population: "{size: 40}", duration: "28d")
  }

  /// A PACO experiment with `groups` as JSON text, read for a 14-day study.
  static func read(_ groups: String) throws(ScenarioError) -> ImportedProtocol {
    try PACOExperimentImport.read(
      ScenarioLoader.parse(Data("{\"groups\": \(groups)}".utf8), file: "x.json", nullAsText: true), file: "x.json",
      startDate: CalendarDate(iso: "2026-01-05")!, days: 14)
  }

  @Test("the ESM group: 7 a day on weekdays in 09:00–21:00, none at weekends, every gap at least 60 minutes")
  func esmSchedule() throws {
    let s = try Self.scenario("{paco_experiment: paco-esm.json}")
    let plan = s.variants[0].plan
    let p = plan.protocolPlan
    #expect(p.questionnaires == ["esm", "evening", "unlock"])
    let esm = try #require(p.schedules[0].choice)
    #expect(esm.algorithm == .fixedBlocks && esm.parameters.gapMethod == .sequentialRejection && esm.parameters.minGap == 60)
    #expect(p.expiry(ofSchedule: 0) == .after(15 * Tick.minute))
    #expect(p.survey(ofSchedule: 0).items.map(\.type) == [4, 2] && p.survey(ofSchedule: 0).items[0].scale == 1...7)
    var days = 0
    for k in 0..<plan.participants {
      let o = ParticipantSimulation.outcome(plan: plan, seed: 2, replication: 0, participant: UInt32(k))
      let prompts = o.prompts.filter { $0.schedule == 0 }
      for d in 0..<plan.days {
        let today = prompts.filter { $0.day == d }.map(\.scheduled)
        #expect(today.count == (plan.isWeekend(d) ? 0 : 7), "participant \(k) day \(d)")
        for (a, b) in zip(today, today.dropFirst()) { #expect(b - a >= 60 * Tick.minute) }
        for t in today {
          let minute = Double(t % Tick.day) / Double(Tick.minute)
          #expect(minute >= 9 * 60 && minute < 21 * 60)
        }
        days += 1
      }
    }
    #expect(days == 40 * 28)
  }

  @Test("a daily fixed time with its timeout and snooze; an unlock trigger with its buffer, window and delay; warnings by key")
  func fixedAndUnlock() throws {
    let s = try Self.scenario("{paco_experiment: paco-esm.json}")
    let p = s.variants[0].plan.protocolPlan
    #expect(p.schedules[1].choice?.parameters.times == [ClockTime("21:30")!])
    #expect(p.expiry(ofSchedule: 1) == .after(2 * Tick.hour))
    #expect(p.reminders(ofSchedule: 1) == Reminders(count: 1, interval: 15 * Tick.minute))
    let unlock = try #require(p.schedules[2].trigger)
    #expect(unlock == EventTrigger(event: .phoneUnlock, delay: Tick.minute, minGap: 2 * Tick.hour, maxPerDay: 200))
    #expect(p.schedules[2].window == .fixed(weekday: try Window(parsing: "10:00-20:00"), weekend: try Window(parsing: "10:00-20:00")))
    #expect(
      s.warnings.map(\.key) == [
        "groups[3].inputs[0].responseType", "groups[3].actionTriggers[0].cues[1].cueCode",
      ])
  }

  @Test("what PACO runs and esmsim does not is refused by key")
  func refusals() {
    func key(_ groups: String) -> String? {
      do {
        _ = try Self.read(groups)
        return nil
      } catch { return error.key }
    }
    let trigger = { (schedule: String) in
      "[{\"name\": \"g\", \"actionTriggers\": [{\"type\": \"scheduleTrigger\", \"schedules\": [\(schedule)]}]}]"
    }
    #expect(key(trigger("{\"scheduleType\": 4, \"esmPeriodInDays\": 1}")) == "groups[0].actionTriggers[0].schedules[0].esmPeriodInDays")
    #expect(key(trigger("{\"scheduleType\": 3}")) == "groups[0].actionTriggers[0].schedules[0].scheduleType")
    #expect(key(trigger("{\"scheduleType\": 0, \"signalTimes\": [{\"type\": 1, \"offsetTimeMillis\": 60000}]}")) == "groups[0].actionTriggers[0].schedules[0].signalTimes[0].type")
    #expect(key(trigger("{\"scheduleType\": 2, \"repeatRate\": 2, \"weekDaysScheduled\": 2, \"signalTimes\": [{\"fixedTimeMillisFromMidnight\": 0}]}")) == "groups[0].actionTriggers[0].schedules[0].repeatRate")
    #expect(key(trigger("{\"scheduleType\": 4, \"esmFrequency\": 12, \"esmStartHour\": 32400000, \"esmEndHour\": 36000000, \"minimumBuffer\": 60}")) == "groups[0].actionTriggers[0].schedules[0].minimumBuffer")
    #expect(key("[{\"name\": \"g\", \"actionTriggers\": [{\"type\": \"timerTrigger\"}]}]") == "groups[0].actionTriggers[0].type")
    #expect(key("[]") == "groups")
    #expect(key("{}") == "groups")
    // 61 ESM signals in an hour: less than PACO's whole minute a block (it gave 0 prompts).
    #expect(key(trigger("{\"scheduleType\": 4, \"esmFrequency\": 61, \"esmStartHour\": 32400000, \"esmEndHour\": 36000000, \"minimumBuffer\": 0}")) != nil)
    // A schedule participants may edit and a conditional input: warned by key.
    let edited = try? Self.read(
      "[{\"name\": \"g\", \"inputs\": [{\"name\": \"why\", \"responseType\": \"open text\", \"conditional\": true, \"conditionExpression\": \"mood < 2\"}], \"actionTriggers\": [{\"type\": \"scheduleTrigger\", \"schedules\": [{\"scheduleType\": 0, \"userEditable\": true, \"signalTimes\": [{\"fixedTimeMillisFromMidnight\": 43200000}]}]}]}]")
    #expect(
      edited?.warnings.map(\.key).sorted() == ["groups[0].actionTriggers[0].schedules[0].userEditable", "groups[0].inputs[0].conditional"],
      "\(String(describing: edited?.warnings))")
    // A weekly schedule on Monday and Wednesday (PACO: Sunday = 1, Monday = 2, … ).
    let weekly = try? Self.read(trigger("{\"scheduleType\": 2, \"weekDaysScheduled\": 10, \"signalTimes\": [{\"fixedTimeMillisFromMidnight\": 43200000}]}"))
    #expect(weekly?.parts[0].weekdays == [0, 2])
  }

  @Test("the paco preset: PACO's ESM defaults, 3 a day 09:00–17:00, weekdays, 59 minutes apart and to answer")
  func preset() throws {
    let p = try Self.scenario("{preset: paco}").variants[0].plan.protocolPlan
    let choice = try #require(p.schedules[0].choice)
    #expect(choice.algorithm == .fixedBlocks && choice.parameters.perDay == 3 && choice.parameters.minGap == 59)
    #expect(choice.parameters.gapMethod == .sequentialRejection)
    #expect(p.schedules[0].weekdays == [0, 1, 2, 3, 4])
    #expect(p.expiry == .after(59 * Tick.minute))
    #expect(p.schedules[0].window == .fixed(weekday: try Window(parsing: "09:00-17:00"), weekend: try Window(parsing: "09:00-17:00")))
  }
}
