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

@Suite("protocol.items in ESMira's and m-Path's exports")
struct AnswersExportTests {
  @Test("each answered prompt's item answers are answers.csv's; an item named as the survey's answers in its column")
  func exports() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write(
      "s.yaml",
      """
      name: exports
      duration: 2d
      population:
        size: 12
        variables: [{name: affect, mean: 50, sd: 12, person_sd: 8}, {name: stress, mean: 3}]
      protocol:
        window: "09:00-21:00"
        expiry: 30m
        schedule: {algorithm: fixed-blocks, per_day: 4}
        items:
          - {name: mood, measures: affect, scale: slider, error_sd: 5}
          - {name: tense, measures: stress, scale: likert 1-5, error_sd: 0.5}
      outputs: {esmira: true, mpath: true, report: false, sqlite: false}

      """)
    let out = tmp.path("out")
    let r = try ESMSimBinary.run(["run", file, "--output", out])
    #expect(r.status == 0, "\(r.stderr)")
    // answers.csv's answered rows: (participant, scheduled minute) -> (mood, tense).
    var want: [String: [String]] = [:]
    for line in try lines(out + "/answers.csv").dropFirst() where !line.isEmpty {
      let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if c[7] == "1" { want[c[2] + " " + c[5].prefix(16)] = [c[11], c[12]] }
    }
    #expect(want.count > 20)
    // ESMira: the survey's item "mood" is answered by protocol.items' mood; tense is added.
    let esmira = try String(contentsOfFile: out + "/esmira/v1-r1/esm.csv", encoding: .utf8).split(separator: "\n").map {
      $0.dropFirst().dropLast().components(separatedBy: "\";\"")
    }
    #expect(Array(esmira[0].suffix(2)) == ["mood", "tense"])
    let last = try #require(esmira[0].firstIndex(of: "lastInvitation"))
    var seen = 0
    for row in esmira.dropFirst() {
      let participant = String(Int(row[0])! / 1_000_000)
      let ms = Double(row[last])!
      // The planned time on the participant's clock (UTC here), to the minute.
      let date = Date(timeIntervalSince1970: ms / 1000)
      let f = DateFormatter()
      f.timeZone = TimeZone(identifier: "UTC")
      f.dateFormat = "yyyy-MM-dd'T'HH:mm"
      #expect(want[participant + " " + f.string(from: date)] == Array(row.suffix(2)), "\(row)")
      seen += 1
    }
    #expect(seen == want.count)
    // m-Path: the same numbers in mood_ and tense_sliderNeutralPos.
    let basic = try lines(out + "/mpath/v1-r1/basic.csv").filter { !$0.isEmpty }.map { $0.components(separatedBy: ";") }
    #expect(Array(basic[0].suffix(2)) == ["mood_sliderNeutralPos", "tense_sliderNeutralPos"])
    let answered = basic.dropFirst().filter { $0.count == basic[0].count && !$0[15].isEmpty }
    #expect(answered.count == want.count)
    #expect(Set(answered.map { Array($0.suffix(2)) }) == Set(want.values))
  }
}
