import Presentation
import Study
import Foundation
import Planner
import Reporting
import Scenarios
import Testing

@Suite struct PlannerTests {
  static let scenario = """
    name: planner test
    seed: 3
    duration: 7d
    population: {size: 40}
    protocol:
      window: "09:00-21:00"
      schedule: {algorithm: fixed-blocks, per_day: 4, min_gap: 60m, gap_method: truncation}
      expiry: 30m
    """

  @Test func plannerFiguresAreThoseOfARun() throws {
    let request = Planner.Request(scenario: Self.scenario)
    let scenario = try Planner.scenario(request, limits: .init())
    let json = try Planner.run(scenario, threads: 2).text()
    let reply = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    let variant = (reply["variants"] as! [[String: Any]])[0]
    let run = try StudySimulation.simulate(scenario, options: .init(threads: 1))
    let median = run.variants[0].mean(.answersPerParticipantMedian)
    #expect(variant["answers_median"] as? Double == median)
    #expect((variant["week"] as! String).contains("<circle"))
  }

  @Test func sizeLimitsAndUploadsAreEnforced() throws {
    let big = Planner.Request(scenario: Self.scenario.replacingOccurrences(of: "size: 40", with: "size: 5000"))
    #expect(throws: Planner.Refusal.self) { try Planner.scenario(big, limits: .init(participantDays: 10_000)) }
    // An import key reads only the uploaded files, never the server's disk.
    let away = Planner.Request(scenario: Self.scenario.replacingOccurrences(
      of: "  schedule: {algorithm: fixed-blocks, per_day: 4, min_gap: 60m, gap_method: truncation}\n",
      with: "  aware_schedule: /etc/passwd\n"))
    do {
      _ = try Planner.scenario(away, limits: .init())
      Issue.record("a server path was read")
    } catch {
      #expect(error.description.contains("no uploaded file named '/etc/passwd'"))
    }
    #expect(throws: Planner.Refusal.self) { try Planner.request(json: Data("[1]".utf8), limits: .init()) }
    #expect(throws: Planner.Refusal.self) {
      try Planner.request(json: Data(#"{"scenario": "x", "files": {"../a": "y"}}"#.utf8), limits: .init())
    }
  }
}
