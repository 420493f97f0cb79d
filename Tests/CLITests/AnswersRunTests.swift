import Foundation
import Testing

@Suite("esmsim run with answers (answers.csv)")
struct AnswersRunTests {
  /// The study, with `population` and `protocol` lines added.
  static func study(population: String = "", proto: String = "") -> String {
    """
    name: answers
    seed: 5
    duration: 3d
    population:
      size: 30
    \(population)protocol:
      window: "09:00-21:00"
      expiry: 30m
      schedule: {algorithm: fixed-blocks, per_day: 5}
    \(proto)outputs: {prompts: true, participants: true, report: false, sqlite: false}

    """
  }

  @Test("a row per prompt with the person's predictors, the true values and the items; nothing else moves")
  func rows() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let with = try tmp.write(
      "with.yaml",
      Self.study(
        population: """
            person_predictors: [{name: trait}]
            variables:
              - {name: stress, mean: 3, sd: 1}
              - {name: mood, mean: 50, sd: 12, person_sd: 8, effects: {stress: -3}}

          """,
        proto: """
            items:
              - {name: happy, measures: mood, scale: slider, error_sd: 5}
              - {name: tense, measures: stress, scale: likert 1-5, error_sd: 0.5, shown: 0.5}

          """))
    let without = try tmp.write("without.yaml", Self.study())
    for (file, out) in [(with, "a"), (without, "b"), (with, "c")] {
      let r = try ESMSimBinary.run(["run", file, "--output", tmp.path(out)])
      #expect(r.status == 0, "\(r.stderr)")
    }
    let prompts = try lines(tmp.path("a") + "/prompts.csv")
    #expect(prompts == (try lines(tmp.path("b") + "/prompts.csv")), "declaring variables changes no prompt")
    #expect(!FileManager.default.fileExists(atPath: tmp.path("b") + "/answers.csv"))
    let rows = try lines(tmp.path("a") + "/answers.csv").filter { !$0.isEmpty }
    #expect(rows == (try lines(tmp.path("c") + "/answers.csv")).filter { !$0.isEmpty }, "same seed, same answers")
    #expect(rows[0] == "variant,replication,participant,prompt,day,scheduled,status,answered,careless,trait,stress,mood,happy,tense")
    #expect(rows.count - 1 == prompts.filter { !$0.isEmpty }.count - 1, "a row per prompt")
    let p = prompts[0].split(separator: ",").map(String.init)
    let (status, scheduled) = (p.firstIndex(of: "status")!, p.firstIndex(of: "scheduled")!)
    var hidden = 0
    var traits: [String: String] = [:]
    for (a, q) in zip(rows.dropFirst(), prompts.dropFirst()) {
      let c = a.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let pc = q.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      #expect(c[2...3] == pc[2...3] && c[5] == pc[scheduled] && c[6] == pc[status], "\(a)")
      #expect(c[7] == (pc[status] == "answered" ? "1" : "0"))
      // One trait per participant; a slider 0–100 in whole points; a hidden Likert item empty.
      #expect(traits[c[2], default: c[9]] == c[9])
      traits[c[2]] = c[9]
      let happy = try #require(Int(c[12]))
      #expect((0...100).contains(happy))
      if c[13].isEmpty { hidden += 1 } else { #expect((1...5).contains(Int(c[13])!)) }
    }
    #expect(traits.count == 30)
    #expect(hidden > 0 && hidden < rows.count - 1)
  }
}
