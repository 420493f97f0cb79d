import Foundation
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

/// Follow-up questionnaires, created while the study runs: after a questionnaire is finished
/// or its notification posted (`trigger: finished | notified`, ESMira's `questionnaire`,
/// `invitation` and `notification` cues).
@Suite("follow-ups: a questionnaire after another is finished or notified")
struct FollowUpTests {
  static let yaml = """
    name: follow-ups
    duration: 14d
    population: {size: 60, os: {ios: 0.5, android: 0.5}}
    protocol:
      window: "09:00-21:00"
      questionnaires:
        - name: daytime
          schedule: {algorithm: fixed-blocks, per_day: 4}
          expiry: 30m
        - name: followup
          schedule: {algorithm: event, trigger: finished, after: [daytime], delay: 30m, delay_max: 60m}
          expiry: 30m
        - name: onnotify
          schedule: {algorithm: event, trigger: notified, after: [daytime], max_per_day: 2}
          expiry: 10m
    """

  /// Every participant's prompt records and when they left the study.
  static func run(_ plan: StudyPlan, participants: Int) -> [(prompts: [PromptRecord], left: SimTime)] {
    (0..<participants).map { k in
      var sim = ParticipantSimulation(plan: plan, seed: 11, replication: 0, participant: UInt32(k))
      sim.run()
      return (sim.prompts, sim.enrolledUntil)
    }
  }

  @Test("the trigger's sources are the questionnaires named by after; mistakes are named by key")
  func resolved() throws {
    let p = try resolve(Self.yaml).variants[0].plan.protocolPlan
    #expect(p.schedules[1].trigger == EventTrigger(event: .finished([0]), delay: 30 * Tick.minute, delaySpread: 30 * Tick.minute))
    #expect(p.schedules[2].trigger == EventTrigger(event: .notified([0]), maxPerDay: 2))
    #expect(p.schedules[1].trigger!.isFollowUp && !EventTrigger(event: .joined).isFollowUp)
    let noAfter = Self.yaml.replacingOccurrences(of: "trigger: finished, after: [daytime], ", with: "trigger: finished, ")
    #expect(problem(noAfter)?.key == "protocol.questionnaires[1].schedule.after")
    let unknown = Self.yaml.replacingOccurrences(of: "after: [daytime], delay", with: "after: [nightly], delay")
    #expect(problem(unknown)?.key == "protocol.questionnaires[1].schedule.after")
    #expect(problem("name: t\nprotocol: {schedule: {algorithm: event, trigger: finished, after: [a]}}")?.key == "protocol.schedule.trigger")
  }

  /// Each follow-up 30 to 60 minutes after an answered daytime prompt, one for each such answer
  /// whose follow-up falls inside their time in the study; each "notified" one at a daytime prompt's
  /// delivery, at most two a day; the records in time order and numbered in it.
  @Test("follow-ups come after their sources' answers and notifications, as many as the rule allows")
  func simulated() throws {
    let plan = try resolve(Self.yaml).variants[0].plan
    var (followUps, answered, late, notified) = (0, 0, 0, 0)
    for (prompts, end) in Self.run(plan, participants: 60) {
      #expect(prompts.map(\.index) == Array(prompts.indices))
      #expect(zip(prompts, prompts.dropFirst()).allSatisfy { $0.scheduled <= $1.scheduled })
      let submitted = prompts.filter { $0.schedule == 0 && $0.status == .answered }.map(\.submitted)
      let delivered = Set(prompts.filter { $0.schedule == 0 && $0.delivered >= 0 }.map(\.delivered))
      answered += submitted.count
      late += submitted.filter { $0 + Tick.hour > end }.count
      for f in prompts where f.schedule == 1 {
        followUps += 1
        #expect(submitted.contains { f.scheduled - $0 >= 30 * Tick.minute && f.scheduled - $0 <= Tick.hour })
      }
      let onNotify = prompts.filter { $0.schedule == 2 }
      notified += onNotify.count
      #expect(onNotify.allSatisfy { delivered.contains($0.scheduled) })
      #expect(Dictionary(grouping: onNotify, by: \.day).values.allSatisfy { $0.count <= 2 })
    }
    // One follow-up per answer, but for the answers whose follow-up would fall after they left.
    #expect(answered > 1000)
    #expect(followUps <= answered && followUps >= answered - late, "\(followUps) follow-ups, \(answered) answered, \(late) late")
    #expect(notified > 60 * 10)
  }

  @Test("a trigger for one platform's phones cues nothing on the other's")
  func onlyOn() throws {
    var plan = try resolve(Self.yaml).variants[0].plan
    plan.protocolPlan.schedules[1].rule = .events(
      EventTrigger(event: .finished([0]), delay: 30 * Tick.minute, onlyOn: .android))
    var counts: [OperatingSystem: Int] = [:]
    for k in 0..<40 {
      var sim = ParticipantSimulation(plan: plan, seed: 11, replication: 0, participant: UInt32(k))
      sim.run()
      counts[sim.person.os, default: 0] += sim.prompts.filter { $0.schedule == 1 }.count
    }
    #expect(counts[.ios] == 0)
    #expect((counts[.android] ?? 0) > 0)
  }

  /// ESMira's conditions on which questionnaire's event fires a trigger
  /// (`EventTrigger.triggerCheck`): none (any questionnaire, its own included),
  /// `skipThisQuestionnaire` (any other), `specificQuestionnaireInternalId` (that one; none
  /// such: never, warned); `invitation` on Android phones only; a trigger on its own
  /// questionnaire's events (a chain) said by key.
  @Test("ESMira's questionnaire, invitation and notification cues become follow-ups of the questionnaires ESMira's condition names")
  func esmiraCues() throws {
    let study = """
      {"title": "t", "questionnaires": [
        {"title": "daily", "internalId": 11, "pages": [{"inputs": [{"name": "mood"}]}], "actionTriggers": [{"actions": [{"type": 1, "timeout": 30}],
          "eventTriggers": [{"cueCode": "questionnaire", "skipThisQuestionnaire": true, "delaySec": 600}],
          "schedules": [{"userEditable": false, "signalTimes": [{"startTimeOfDay": 36000000}]}]}]},
        {"title": "evening", "internalId": 22, "pages": [{"inputs": [{"name": "day"}]}], "actionTriggers": [{"actions": [{"type": 1, "timeout": 60}],
          "eventTriggers": [{"cueCode": "questionnaire", "specificQuestionnaireInternalId": 11, "randomDelay": true, "delaySec": 3600, "delayMinimumSec": 1800}],
          "schedules": [{"userEditable": false, "signalTimes": [{"startTimeOfDay": 72000000}]}]}]},
        {"title": "after", "internalId": 33, "pages": [{"inputs": [{"name": "why"}]}], "actionTriggers": [{"actions": [{"type": 1, "timeout": 15}],
          "eventTriggers": [{"cueCode": "questionnaire"}, {"cueCode": "invitation"},
            {"cueCode": "questionnaire", "specificQuestionnaireInternalId": 99}, {"cueCode": "quit", "delaySec": 60}]}]}]}
      """
    let imported = try ESMiraStudyImport.read(ScenarioLoader.parse(Data(study.utf8), file: "c.json", nullAsText: true), file: "c.json", days: 14)
    // Parts: daily's follow-up 0 and signal 1, evening's follow-up 2 and signal 3, after's
    // follow-ups 4 (any) and 5 (invitation); the one of internalId 99 left out.
    #expect(imported.parts.count == 6)
    let t = imported.parts.map(\.trigger)
    #expect(t[0]?.event == .finished([2, 3, 4, 5]) && t[0]?.delay == 10 * Tick.minute)
    #expect(t[2]?.event == .finished([0, 1]) && t[2]?.delay == 30 * Tick.minute && t[2]?.delaySpread == 30 * Tick.minute)
    #expect(t[4]?.event == .finished(Set(0...5)) && t[4]?.delay == 0 && t[4]?.onlyOn == nil)
    #expect(t[5]?.event == .notified(Set(0...5)) && t[5]?.onlyOn == .android)
    #expect(t[1] == nil && t[3] == nil)
    #expect(imported.parts[4].expiry == .after(15 * Tick.minute) && imported.parts[4].survey?.items.map(\.id) == ["why"])
    let keys = imported.warnings.map(\.key)
    // Said by key: the invitation cue (Android only), each of after's two cues on its own
    // questionnaire's events (a chain), the missing internalId, the cue not simulated.
    let k = "questionnaires[2].actionTriggers[0].eventTriggers"
    #expect(keys.sorted() == ["\(k)[0].cueCode", "\(k)[1].cueCode", "\(k)[1].cueCode", "\(k)[2].specificQuestionnaireInternalId", "\(k)[3].cueCode"])
  }
}
