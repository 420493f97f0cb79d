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
    #expect(rows[0] == "variant,replication,participant,prompt,day,questionnaire,scheduled,status,answered,careless,trait,stress,mood,happy,tense")
    #expect(rows.count - 1 == prompts.filter { !$0.isEmpty }.count - 1, "a row per prompt")
    let p = prompts[0].split(separator: ",").map(String.init)
    let (status, scheduled) = (p.firstIndex(of: "status")!, p.firstIndex(of: "scheduled")!)
    let questionnaire = p.firstIndex(of: "questionnaire")!
    var hidden = 0
    var traits: [String: String] = [:]
    for (a, q) in zip(rows.dropFirst(), prompts.dropFirst()) {
      let c = a.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      let pc = q.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      #expect(c[2...3] == pc[2...3] && c[5] == pc[questionnaire] && c[6] == pc[scheduled] && c[7] == pc[status], "\(a)")
      #expect(c[8] == (pc[status] == "answered" ? "1" : "0"))
      // One trait per participant; a slider 0–100 in whole points; a hidden Likert item empty.
      #expect(traits[c[2], default: c[10]] == c[10])
      traits[c[2]] = c[10]
      let happy = try #require(Int(c[13]))
      #expect((0...100).contains(happy))
      if c[14].isEmpty { hidden += 1 } else { #expect((1...5).contains(Int(c[14])!)) }
    }
    #expect(traits.count == 30)
    #expect(hidden > 0 && hidden < rows.count - 1)
  }
  /// Two questionnaires: each answers.csv row names the questionnaire its prompt opens, as
  /// prompts.csv does (there was no such column, so a morning and an evening form's answers
  /// could not be told apart without joining the two files).
  @Test("answers.csv names each prompt's questionnaire, as prompts.csv does")
  func questionnaires() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write(
      "two.yaml",
      """
      name: two forms
      seed: 3
      duration: 3d
      population:
        size: 10
        variables: [{name: mood, mean: 50, sd: 12}]
      protocol:
        window: "09:00-21:00"
        items: [{name: happy, measures: mood, scale: slider}]
        questionnaires:
          - {name: day, schedule: {algorithm: fixed-blocks, per_day: 4}, window: "09:00-20:00", expiry: 30m}
          - {name: evening, schedule: {algorithm: fixed-times, times: ["20:30"]}, window: "20:30-21:00", expiry: 30m}
      outputs: {prompts: true, report: false, sqlite: false}

      """)
    let r = try ESMSimBinary.run(["run", file, "--output", tmp.path("out")])
    #expect(r.status == 0, "\(r.stderr)")
    func column(_ file: String, _ name: String) throws -> [String] {
      let rows = try lines(tmp.path("out") + "/" + file).filter { !$0.isEmpty }.map {
        $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      }
      let k = try #require(rows[0].firstIndex(of: name))
      let volunteered = rows[0].firstIndex(of: "volunteered")
      return rows.dropFirst().filter { v in volunteered.map { v[$0] != "1" } ?? true }.map { $0[k] }
    }
    let answers = try column("answers.csv", "questionnaire")
    #expect(answers == (try column("prompts.csv", "questionnaire")))
    #expect(answers.filter { $0 == "evening" }.count == 30 && answers.filter { $0 == "day" }.count == 120)
  }

  /// The seconds from opening to submitting of each answered prompt in a run's folder (of
  /// `questionnaire` only, when given), by whether answers.csv marks it careless.
  static func answeringSeconds(_ folder: String, questionnaire: String? = nil) throws -> [Bool: [Double]] {
    var flagged: [String: Bool] = [:]
    let answers = try lines(folder + "/answers.csv")
    let careless = try #require(answers[0].split(separator: ",").firstIndex(of: "careless"))
    for row in answers.dropFirst() where !row.isEmpty {
      let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      flagged[c[2] + " " + c[3]] = c[careless] == "1"
    }
    let prompts = try lines(folder + "/prompts.csv")
    let header = prompts[0].split(separator: ",").map(String.init)
    let (opened, submitted) = (header.firstIndex(of: "opened")!, header.firstIndex(of: "submitted")!)
    let named = header.firstIndex(of: "questionnaire")
    let f = DateFormatter()
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
    var seconds: [Bool: [Double]] = [true: [], false: []]
    for row in prompts.dropFirst() where !row.isEmpty {
      let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if let questionnaire, let named, c[named] != questionnaire { continue }
      guard let a = f.date(from: c[opened]), let b = f.date(from: c[submitted]) else { continue }
      seconds[flagged[c[2] + " " + c[3]] ?? false]!.append(b.timeIntervalSince(a))
    }
    return seconds
  }

  /// Too-fast careless answers (`careless.seconds_per_item: 1`, a 10-item survey): the prompts
  /// answers.csv marks careless are submitted a median 10 s after opening (within 7-14 s:
  /// hundreds of them, a lognormal's median), the others several times later; without
  /// `seconds_per_item` declaring careless responding changes no prompt.
  @Test("careless answers too fast: their answering time in prompts.csv is seconds_per_item an item")
  func tooFast() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    func run(_ careless: String, _ out: String) throws -> [String] {
      let text = Self.study(
        population: """
            variables: [{name: mood, mean: 50, sd: 10}]
            \(careless)

          """,
        proto: """
            survey: {length: 10}
            items: [{name: happy, measures: mood, scale: slider, error_sd: 5}]

          """
      ).replacingOccurrences(of: "size: 30", with: "size: 200")
      let r = try ESMSimBinary.run(["run", try tmp.write("\(out).yaml", text), "--output", tmp.path(out)])
      #expect(r.status == 0, "\(r.stderr)")
      return try lines(tmp.path(out) + "/prompts.csv")
    }
    _ = try run("careless: {people: 0.5, prompts: 0.5, seconds_per_item: 1}", "fast")
    #expect(try run("careless: {people: 0.5, prompts: 0.5}", "slow") == (try run("", "none")), "careless without seconds_per_item: the same prompts")
    let seconds = try Self.answeringSeconds(tmp.path("fast"))
    func median(_ x: [Double]) -> Double { let s = x.sorted(); return s[s.count / 2] }
    #expect(seconds[true]!.count > 100 && seconds[false]!.count > 100, "\(seconds.mapValues(\.count))")
    #expect((7...14).contains(median(seconds[true]!)), "careless: \(median(seconds[true]!)) s")
    #expect(median(seconds[false]!) > 3 * median(seconds[true]!), "others: \(median(seconds[false]!)) s")
  }

  /// Follow-ups created while the study runs (`trigger: finished`) are put in time order at
  /// the end and numbered again; a careless answer is still decided by the prompt's number in
  /// the run (``PromptRecord/created``), so the follow-ups answers.csv marks careless are the
  /// ones answered too fast (a median under 2 s for a 2-item survey at 0.5 s an item, the
  /// others several times longer).
  @Test("careless follow-ups: the answers marked careless are the prompts answered too fast")
  func carelessFollowUps() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let text = """
      name: follow-ups answered carelessly
      seed: 5
      duration: 7d
      population:
        size: 100
        variables: [{name: mood, mean: 50, sd: 10, person_sd: 5}]
        careless: {people: 0.5, prompts: 0.5, seconds_per_item: 0.5}
      protocol:
        window: "09:00-21:00"
        items: [{name: m1, measures: mood, scale: likert 1-7}, {name: m2, measures: mood, scale: likert 1-7}]
        questionnaires:
          - name: daytime
            schedule: {algorithm: fixed-blocks, per_day: 4}
            expiry: 30m
          - name: followup
            schedule: {algorithm: event, trigger: finished, after: [daytime], delay: 0m, delay_max: 60m}
            expiry: 30m
      outputs: {prompts: true, answers: true}
      """
    let r = try ESMSimBinary.run(["run", try tmp.write("f.yaml", text), "--output", tmp.path("f")])
    #expect(r.status == 0, "\(r.stderr)")
    let seconds = try Self.answeringSeconds(tmp.path("f"), questionnaire: "followup")
    func median(_ x: [Double]) -> Double { let s = x.sorted(); return s[s.count / 2] }
    #expect(seconds[true]!.count > 100 && seconds[false]!.count > 100, "\(seconds.mapValues(\.count))")
    #expect(median(seconds[true]!) < 2, "careless: \(median(seconds[true]!)) s")
    #expect(median(seconds[false]!) > 3 * median(seconds[true]!), "others: \(median(seconds[false]!)) s")
  }

  /// A variable that takes the engine's state (`effects: {state: 1}`) moves with the
  /// moments answering depends on (`state_dependence`): with 3, the answered prompts' mean
  /// of it lies above the missed prompts' by more than 4 standard errors (expected: about 6.5);
  /// with 0, within 4
  /// (each standard error from the two groups' variances, doubled for the prompts' clustering
  /// within people). Only then does the simulation look at the state at each prompt's due
  /// time (without such an effect prompts.csv is as without variables: ``rows()``).
  @Test("a variable that takes the state is missing not at random when answering depends on the state")
  func stateLinked() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    func difference(_ dependence: Double, _ out: String) throws -> (Double, Double) {
      let text = Self.study(
        population: """
            size: 1000
            compliance: {state_dependence: \(dependence)}
            variables:
              - {name: stress, sd: 0.3, effects: {state: 1}}

          """
      ).replacingOccurrences(of: "  size: 30\n", with: "")
      let file = try tmp.write("\(out).yaml", text)
      let r = try ESMSimBinary.run(["run", file, "--output", tmp.path(out)])
      #expect(r.status == 0, "\(r.stderr)")
      var groups: [[Double]] = [[], []]
      for row in try lines(tmp.path(out) + "/answers.csv").dropFirst() where !row.isEmpty {
        let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if c[7] == "dropped_out" { continue }
        groups[c[8] == "1" ? 1 : 0].append(try #require(Double(c[10]), "\(row)"))
      }
      let stats = groups.map { g -> (mean: Double, variance: Double, n: Double) in
        let n = Double(g.count)
        let m = g.reduce(0, +) / n
        return (m, g.map { ($0 - m) * ($0 - m) }.reduce(0, +) / (n - 1), n)
      }
      #expect(stats[0].n > 300 && stats[1].n > 300, "\(stats)")
      let se = 2 * (stats[0].variance / stats[0].n + stats[1].variance / stats[1].n).squareRoot()
      return (stats[1].mean - stats[0].mean, se)
    }
    let (linked, seLinked) = try difference(3, "linked")
    #expect(linked > 4 * seLinked, "answered minus missed \(linked), se \(seLinked)")
    let (flat, seFlat) = try difference(0, "flat")
    #expect(abs(flat) < 4 * seFlat, "answered minus missed \(flat), se \(seFlat)")
  }

  /// The complete data hold every prompt, those after a dropout too: a variable that takes the
  /// state has its value there (the state when the prompt would have fallen due) as one that
  /// does not (they were empty, so a complete-data fit silently lost them).
  @Test("after a dropout, a variable that takes the state has its value at every prompt, as one that does not")
  func afterDropout() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let text = Self.study(
      population: """
          compliance: {dropout_per_day: 0.3}
          variables:
            - {name: stress, sd: 0.3, effects: {state: 1}}
            - {name: mood, sd: 1}

        """)
    let file = try tmp.write("drop.yaml", text)
    let r = try ESMSimBinary.run(["run", file, "--output", tmp.path("drop")])
    #expect(r.status == 0, "\(r.stderr)")
    var dropped = 0
    for row in try lines(tmp.path("drop") + "/answers.csv").dropFirst() where !row.isEmpty {
      let c = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if c[7] == "dropped_out" { dropped += 1 }
      #expect(Double(c[10]) != nil && Double(c[11]) != nil, "\(row)")
    }
    #expect(dropped > 20, "dropped_out rows: \(dropped)")
  }
}


@Suite("protocol.items in ESMira's, m-Path's, AWARE's and Beiwe's exports")
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
        os: {ios: 1}
        variables: [{name: affect, mean: 50, sd: 12, person_sd: 8}, {name: stress, mean: 3}]
      protocol:
        window: "09:00-21:00"
        expiry: 30m
        schedule: {algorithm: fixed-blocks, per_day: 4}
        items:
          - {name: mood, measures: affect, scale: slider, error_sd: 5}
          - {name: tense, measures: stress, scale: likert 1-5, error_sd: 0.5}
      outputs: {esmira: true, mpath: true, aware_esm: true, beiwe: true, report: false, sqlite: false}

      """)
    let out = tmp.path("out")
    let r = try ESMSimBinary.run(["run", file, "--output", out])
    #expect(r.status == 0, "\(r.stderr)")
    // answers.csv's answered rows: (participant, scheduled minute) -> (mood, tense).
    var want: [String: [String]] = [:]
    for line in try lines(out + "/answers.csv").dropFirst() where !line.isEmpty {
      let c = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
      if c[8] == "1" { want[c[2] + " " + c[6].prefix(16)] = [c[12], c[13]] }
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
    // AWARE's rows: the survey's item mood answers with protocol.items' mood, tense follows
    // as a number item; an answered prompt's two rows carry the pair.
    var aware: [String: [String: String]] = [:]
    let header = try lines(out + "/aware_esm.csv")[0].split(separator: ",").map(String.init)
    let (device, trigger, answer, status, notified) = (
      header.firstIndex(of: "deviceId")!, header.firstIndex(of: "esmTrigger")!, header.firstIndex(of: "esmAnswer")!,
      header.firstIndex(of: "esmStatus")!, header.firstIndex(of: "esmNotificationTime")!
    )
    for line in try lines(out + "/aware_esm.csv").dropFirst() where !line.isEmpty {
      // Fields, a quoted one (the instructions hold a comma) as one.
      var c: [String] = []
      var field = ""
      var quoted = false
      for ch in line {
        if ch == "\"" { quoted.toggle() } else if ch == "," && !quoted { c.append(field); field = "" } else { field.append(ch) }
      }
      c.append(field)
      if c[status] == "1" { aware[c[device] + " " + c[notified], default: [:]][c[trigger]] = c[answer] }
    }
    #expect(aware.count == want.count)
    #expect(Set(aware.values.map { [$0["mood"] ?? "", $0["tense"] ?? ""] }) == Set(want.values))
    // Beiwe's answers files: the same pairs, in the files of surveys submitted.
    var beiwe: [[String]] = []
    let files = FileManager.default.enumerator(atPath: out + "/beiwe")!.compactMap { $0 as? String }.filter { $0.contains("survey_answers/") && $0.hasSuffix(".csv") }
    for f in files {
      let rows = try lines(out + "/beiwe/" + f).dropFirst().filter { !$0.isEmpty }.map { $0.components(separatedBy: ",") }
      let byItem = Dictionary(rows.map { ($0[0], $0.last!) }, uniquingKeysWith: { a, _ in a })
      if let mood = byItem["mood"], let tense = byItem["tense"], mood != "NO_ANSWER_SELECTED", tense != "NO_ANSWER_SELECTED" {
        beiwe.append([mood, tense])
      }
    }
    #expect(beiwe.count == want.count)
    #expect(Set(beiwe) == Set(want.values))
  }
}
