import Foundation
import Testing

/// `esmsim design` end to end: the table, the JSON, and its refusals.
@Suite("esmsim design: the smallest designs, as a table and JSON; bad requests refused")
struct DesignCommandTests {
  static let scenario = """
    name: design
    seed: 2
    duration: 14d
    population: {size: 40, devices: {non_controlled: 1}}
    protocol:
      window: "08:00-22:00"
      schedule: {algorithm: fixed-blocks, per_day: 4}
      expiry: 30m
    """

  @Test("a p10 target: the JSON's frontier and cheapest design agree with the table, and fewer designs run than the grid has")
  func endToEnd() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("s.yaml", Self.scenario)
    let r = try ESMSimBinary.run([
      "design", file, "--target", "p10:20", "--vary", "days=3..14", "--vary", "per_day=3,5", "--output", tmp.path("d.json"),
      "--threads", "2",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("d.json")))) as! [String: Any]
    let designs = json["designs"] as! [[String: Any]]
    #expect(designs.count < 12 * 2)
    let frontier = json["frontier"] as! [[String: Any]]
    #expect(frontier.map { $0["per_day"] as! Int } == [3, 5])
    let cheapest = try #require(json["cheapest"] as? [String: Any])
    let days = cheapest["days"] as! Int
    let perDay = cheapest["per_day"] as! Int
    #expect(r.stdout.contains("cheapest in participant-days: 40 participants × \(days) days × \(perDay) a day"), "\(r.stdout)")
    // The cheapest reaches the target; every design with fewer days at its prompts a day does not.
    #expect((cheapest["value"] as! Double) >= 20)
    for d in designs where d["per_day"] as! Int == perDay && (d["days"] as! Int) < days {
      #expect(d["reaches"] as! Bool == false)
    }
  }

  @Test("esmsim's default people: the spread between real studies is said under the table and in the JSON; people of one's own: not")
  func betweenStudies() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    for (own, name) in [(false, "default"), (true, "own")] {
      let text = own ? Self.scenario.replacingOccurrences(of: "devices: {non_controlled: 1}", with: "devices: {non_controlled: 1}, compliance: {answer_probability: 0.7}") : Self.scenario
      #expect(text != Self.scenario || !own)
      let r = try ESMSimBinary.run([
        "design", try tmp.write("\(name).yaml", text), "--target", "p10:10", "--vary", "days=7", "--vary", "per_day=4",
        "--output", tmp.path("\(name).json"),
      ])
      #expect(r.status == 0, "\(r.stderr)")
      let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("\(name).json")))) as! [String: Any]
      let points = json["between_studies_points"] as? Double
      #expect(own ? points == nil : (points ?? 0) > 0, "\(String(describing: json["between_studies_points"]))")
      #expect(r.stdout.contains("# esmsim's default people: a real study's answered share (prompts answered) lies within ±") == !own, "\(r.stdout)")
    }
  }

  @Test("bad ranges, targets and scenarios: one error each, nothing written", arguments: [
    (["--target", "answers:30"], "--target"),
    (["--target", "p10:20", "--vary", "weeks=1..3"], "--vary"),
    (["--target", "p10:20", "--vary", "days=20..3"], "--vary days"),
    (["--target", "p10:20", "--vary", "days=1..5", "--vary", "days=6"], "given twice"),
    (["--target", "p10:20", "--vary", "participants=1..1000000", "--vary", "days=1..3650"], "--allow-large"),
    (["--target", "p10:20", "--variant", "other"], "no variant named 'other'"),
    // The span of the widest range an Int holds overflows: refused, not a crash.
    (["--target", "p10:20", "--vary", "days=-9223372036854775807..9223372036854775807:1"], "--vary days"),
  ])
  func refusals(args: [String], message: String) throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("s.yaml", Self.scenario)
    let r = try ESMSimBinary.run(["design", file] + args + ["--output", tmp.path("d.json")])
    #expect(r.status != 0)
    #expect(r.stderr.contains(message), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tmp.path("d.json")))
  }

  @Test("--output in a folder that does not exist is refused before the search, by name")
  func outputFolder() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("s.yaml", Self.scenario)
    let r = try ESMSimBinary.run(["design", file, "--target", "p10:20", "--output", tmp.path("none/d.json")])
    #expect(r.status == 64 && r.stderr.contains("--output") && r.stderr.contains("does not exist"), "\(r.stderr)")
  }

  @Test("a scenario of several questionnaires is refused naming the key")
  func questionnaires() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write(
      "q.yaml",
      """
      name: two
      population: {size: 10}
      protocol:
        window: "08:00-22:00"
        questionnaires:
          - {name: a, schedule: {algorithm: fixed-blocks, per_day: 3}}
          - {name: b, schedule: {algorithm: fixed-times, times: ["21:00"]}}
      """)
    let r = try ESMSimBinary.run(["design", file, "--target", "p10:5", "--vary", "days=2..4"])
    #expect(r.status == 1)
    #expect(r.stderr.contains("protocol.questionnaires"), "\(r.stderr)")
  }

  @Test("a design the scheduler cannot run (Mappiness asked for 6 a day) is skipped with its reason; the others are searched")
  func unrunnableDesignsSkipped() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let file = try tmp.write("s.yaml", Self.scenario.replacingOccurrences(of: "fixed-blocks", with: "mappiness"))
    let r = try ESMSimBinary.run([
      "design", file, "--target", "p10:10", "--vary", "days=3..10", "--vary", "per_day=4,6", "--output", tmp.path("d.json"),
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("40 participants, 6 a day: skipped, the scenario cannot run it (protocol.schedule.per_day: Mappiness sends 1 to 5 signals a day, not 6)"), "\(r.stdout)")
    let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: tmp.path("d.json")))) as! [String: Any]
    let skipped = json["skipped"] as! [[String: Any]]
    #expect(skipped.map { $0["per_day"] as! Int } == [6])
    let designs = json["designs"] as! [[String: Any]]
    #expect(!designs.isEmpty && designs.allSatisfy { $0["per_day"] as! Int == 4 })
  }
}
