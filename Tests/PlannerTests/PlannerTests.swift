import Schedules
import Presentation
import Study
import Foundation
import Planner
import Reporting
import Scenarios
import StudyModel
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

  /// The teaching page states one sampling bias: the chart's gap between the two means is
  /// the figure under it (`bias` with its interval), whatever the window.
  @Test(arguments: ["08:00-22:00", "12:00-22:00"]) func teachingPageStatesOneBias(window: String) throws {
    let text = Self.scenario.replacingOccurrences(of: "09:00-21:00", with: window)
      .replacingOccurrences(of: "fixed-blocks, per_day: 4, min_gap: 60m, gap_method: truncation", with: "mappiness, per_day: 5")
    let scenario = try Planner.scenario(Planner.Request(scenario: text), limits: .init())
    let reply = try JSONSerialization.jsonObject(with: Data(try Planner.run(scenario, truth: true, threads: 2).text().utf8)) as! [String: Any]
    let v = (reply["variants"] as! [[String: Any]])[0]
    let chart = v["truth_chart"] as! String
    let bias = v["bias"] as! Double
    let low = v["bias_low"] as! Double
    let high = v["bias_high"] as! Double
    #expect(low < bias && bias < high)
    let stated = "a gap of \(NumberText.fixed(bias, 2)) points (95 % interval \(NumberText.fixed(low, 2)) to \(NumberText.fixed(high, 2)))"
    #expect(chart.contains(stated), "\(chart.prefix(300))")
    #expect(chart.components(separatedBy: "a gap of").count == 2)
  }

  /// The iPhone / Android split: each system's participants, and their answers as the run's
  /// participants give them.
  @Test func osSplitIsEachSystemsParticipants() throws {
    let text = Self.scenario.replacingOccurrences(of: "population: {size: 40}", with: "population: {size: 40, os: {ios: 0.5, android: 0.5}}")
    let scenario = try Planner.scenario(Planner.Request(scenario: text), limits: .init())
    let run = try StudySimulation.simulate(scenario, options: .init(threads: 1))
    let v = run.variants[0]
    #expect(v.byOS.map(\.os) == ["ios", "android"])
    #expect(v.byOS.map(\.participants).reduce(0, +) == v.answersPerParticipant.count)
    let all = v.byOS.map { Double($0.participants) * $0.shareReachingTarget }.reduce(0, +) / Double(v.answersPerParticipant.count)
    #expect(abs(all - v.mean(.shareReachingTarget)) < 1e-9)
    let json = try Planner.run(scenario, threads: 2).text()
    #expect(json.contains("iPhone") && json.contains("Android"))
  }

  /// The days-to-target curve: on its last day, the share reaching the target is the run's;
  /// it never falls; and a study cut to fewer days (the same people) reaches it in the share
  /// the curve gives for that day.
  @Test func reachingCurveIsTheShareOfShorterStudies() throws {
    let text = Self.scenario.replacingOccurrences(of: "  expiry: 30m", with: "  expiry: 30m\n  answers_target: 12")
    let scenario = try Planner.scenario(Planner.Request(scenario: text), limits: .init())
    let json = try Planner.run(scenario, threads: 2).text()
    let reply = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
    let variant = (reply["variants"] as! [[String: Any]])[0]
    let curve = variant["reaching_by_day"] as! [Double]
    #expect(curve.count == 7)
    #expect(curve == curve.sorted())
    #expect(abs(curve.last! - (variant["share_reaching_target"] as! Double)) < 1e-12)
    #expect((variant["reaching_chart"] as! String).contains("<polyline"))
    let short = try Planner.scenario(
      Planner.Request(scenario: text.replacingOccurrences(of: "duration: 7d", with: "duration: 4d")), limits: .init())
    let run = try StudySimulation.simulate(short, options: .init(threads: 1))
    #expect(abs(run.variants[0].mean(.shareReachingTarget) - curve[3]) < 1e-12)
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

@Suite("The form's choices come from esmsim's own lists")
struct ChoicesTests {
  @Test("schedulers, gap rules, devices, platform and people presets as esmsim knows them; each preset's form fields from its protocol")
  func choices() throws {
    let json = Planner.choices().text()
    let o = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    func names(_ k: String) -> [String] { (o[k] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }
    #expect(names("algorithms") == AnyScheduler.Name.allCases.map(\.rawValue))
    #expect(names("gap_methods") == GapMethod.allCases.map(\.rawValue))
    #expect(names("devices") == ["ideal", "non_controlled", "heavy", "low_power"])
    #expect(Set(names("presets")) == ["mappiness", "esmira", "aware", "beiwe", "paco"])
    #expect(names("people") == ["bosley2020_gad", "fisher2017_mood", "johannes2021_vigilance", "mpathr_example", "soyster2022_alcohol"])
    let presets = try #require(o["presets"] as? [[String: Any]])
    func form(_ name: String) -> [String: Any] { presets.first { $0["name"] as? String == name }?["form"] as? [String: Any] ?? [:] }
    // What the page hard-coded before, now read from the presets' own definitions.
    let mappiness = form("mappiness")
    #expect(mappiness["algorithm"] as? String == "mappiness" && mappiness["per_day"] as? Int == 2)
    #expect(mappiness["start"] as? String == "08:00" && mappiness["end"] as? String == "22:00" && mappiness["until_next"] as? Bool == true)
    let paco = form("paco")
    #expect(paco["algorithm"] as? String == "fixed-blocks" && paco["per_day"] as? Int == 3 && paco["min_gap"] as? Int == 59)
    #expect(paco["gap_method"] as? String == "sequential-rejection" && paco["expiry"] as? Int == 59)
    #expect(paco["weekdays"] as? String == "mon, tue, wed, thu, fri" && paco["start"] as? String == "09:00")
    #expect(form("esmira").isEmpty && form("aware").isEmpty && form("beiwe").isEmpty)
    // Every preset named resolves.
    for name in names("presets") {
      #expect(throws: Never.self) { try Readers.scenario(Data("name: p\nprotocol: {preset: \(name)}\n".utf8)) }
    }
    for name in names("people") {
      #expect(throws: Never.self) { try Readers.scenario(Data("name: p\npopulation: {compliance: {preset: \(name)}}\n".utf8)) }
    }
  }
}

/// The planner's starting form (`start` in `GET /api/choices`) is the quickstart's study: a
/// change to `scenarios/quickstart.yaml` or to the form's start must change both.
@Suite struct PlannerStartTests {
  @Test func startIsTheQuickstart() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let file = root.appendingPathComponent("scenarios/quickstart.yaml")
    let tree = try ScenarioLoader.parse(try Data(contentsOf: file), file: file.path)
    func text(_ v: ScenarioValue?) -> String? { if case .scalar(let s, _)? = v { s } else { nil } }
    let json = try JSONSerialization.jsonObject(with: Data(Planner.choices().text().utf8)) as! [String: Any]
    let start = try #require(json["start"] as? [String: Any])
    let population = tree["population"]
    #expect(String(describing: start["participants"]!) == text(population?["size"]))
    #expect("\(start["days"]!)d" == text(tree["duration"]))
    #expect(String(describing: start["seed"]!) == text(tree["seed"]))
    #expect((start["ios"] as? Double).map { $0 / 100 } == text(population?["os"]?["ios"]).flatMap(Double.init))
    let devices = try #require(start["devices"] as? [String: Double])
    let quickDevices = try #require(population?["devices"])
    guard case .mapping(let pairs, _) = quickDevices else { throw CocoaError(.coderInvalidValue) }
    #expect(devices == Dictionary(uniqueKeysWithValues: pairs.map { ($0.key, Double(text($0.value) ?? "") ?? .nan) }))
    let proto = tree["protocol"]
    let a = try #require(start["a_"] as? [String: Any])
    #expect("\(a["start"]!)-\(a["end"]!)" == text(proto?["window"]))
    #expect(a["algorithm"] as? String == text(proto?["schedule"]?["algorithm"]))
    #expect(String(describing: a["per_day"]!) == text(proto?["schedule"]?["per_day"]))
    #expect("\(a["expiry"]!)m" == text(proto?["expiry"]))
    #expect(start["sensor_location"] as? Bool == true && text(proto?["sensors"]?["location"]?["every"]) == "3m")
    guard case .sequence(let variants, _)? = tree["variants"], variants.count == 2 else { throw CocoaError(.coderInvalidValue) }
    let b = try #require(start["b_"] as? [String: Any])
    let schedule = variants[1]["protocol"]?["schedule"]
    #expect(b["algorithm"] as? String == text(schedule?["algorithm"]))
    #expect(String(describing: b["per_day"]!) == text(schedule?["per_day"]))
    #expect("\(b["min_gap"]!)m" == text(schedule?["min_gap"]))
    #expect(b["gap_method"] as? String == text(schedule?["gap_method"]))
    #expect(text(proto?["answers_target"]) == nil && start["answers_target"] as? Int == ProtocolPlan.defaultAnswersTarget)
  }
}
