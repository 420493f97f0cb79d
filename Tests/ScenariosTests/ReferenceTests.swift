import Foundation
import StudyModel
import Testing

@testable import Scenarios

/// Every key a resolved scenario can hold, as a documented path: names the user chooses
/// (contexts, sensors, device profiles) become `<context>`, `<sensor>`, `<profile>`, and list
/// positions `[]`.
func keyPaths(_ v: ScenarioValue, _ prefix: String = "", into out: inout Set<String>) {
  switch v {
  case .mapping(let pairs, _):
    // Share tables (devices, os) are documented as one key.
    let shareTables = [
      "population.devices", "population.os", "population.time_zones", "phones.ios_location", "phones.android_location",
      "phones.manufacturers", "phones.ringer",
    ]
    if shareTables.contains(where: prefix.hasSuffix) { return }
    for (key, value, _) in pairs {
      let name: String
      if prefix.hasSuffix("daily_life.contexts") {
        name = "<context>"
      } else if prefix.hasSuffix("protocol.sensors") {
        name = "<sensor>"
      } else if prefix.hasSuffix("device_profiles") {
        name = "<profile>"
      } else {
        name = key
      }
      let path = prefix.isEmpty ? name : "\(prefix).\(name)"
      out.insert(path)
      keyPaths(value, path, into: &out)
    }
  case .sequence(let items, _):
    for item in items { keyPaths(item, prefix + "[]", into: &out) }
  case .scalar: break
  }
}

@Suite("docs/scenario-reference.md")
struct ReferenceTests {
  /// A scenario using every optional form at least once.
  static let everything = """
    name: every key
    description: d
    seed: 3
    replications: 1
    start_date: 2026-03-02
    duration: 3d
    population:
      size: 5
      enrolment_days: 3
      devices: {ideal: 0.5, heavy: 0.5}
      os: {ios: 0.5, android: 0.5}
      device_profiles:
        heavy: {kill_per_hour: 1}
      compliance: {state_dependence: 0.3}
    protocol:
      window: {weekday: "09:00-21:00", weekend: "10:00-22:00"}
      schedule: {algorithm: fixed-blocks, per_day: 4, min_gap: 30m, gap_method: truncation}
      channel: {preset: esmira, cap: 50, horizon_days: 3, repetitions: 2, refill_in_background: false, background_task: 6h, background_task_success: 0.4}
      reminders: {count: 1, interval: 5m}
      silent_push: 30m
      sensors:
        location: {every: 3m}
        accelerometer: {hz: 5}
        screen: {events: screen}
      survey:
        items:
          - {id: q1, type: 4, title: How?, instructions: pick, options: [a, b]}
    outputs: {coverage: true}
    variants:
      - name: a
      - name: push
        protocol:
          channel: {preset: push, server_tick: 1m, latency: 3s, latency_sigma: 1, store: 12h}
          window: {participant: {after_wake: 15m, before_bed: 15m}}
          schedule: {algorithm: chain, fixed_lag: 60m, random_lag: 20m}
      - name: mappiness
        protocol:
          schedule: {algorithm: mappiness, per_day: 3, end_margin: 5m}
          settings_change: {day: 2, at: "13:00", window: "10:00-20:00", per_day: 2}
      - name: times
        protocol: {schedule: {algorithm: fixed-times, times: ["11:00", "18:00"], jitter: 10m}, own_times: {share: 0.5, earlier: 30m, later: 2h}}
      - name: buffered
        protocol: {schedule: {algorithm: buffered-blocks, per_day: 4, buffer: 0.1}}
      - name: blocks
        protocol: {schedule: {algorithm: fixed-blocks, blocks: ["11:00-14:00", "14:00-17:00"]}}
    """

  @Test("every key path a scenario resolves to is documented")
  func everyKeyDocumented() throws {
    let reference = try String(contentsOf: repository.appendingPathComponent("docs/scenario-reference.md"), encoding: .utf8)
    var paths = Set<String>()
    var trees = [try resolve(Self.everything).resolved]
    for name in try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent("scenarios").path)
    where name.hasSuffix(".yaml") {
      let path = repository.appendingPathComponent("scenarios/\(name)").path
      if try ScenarioLoader.load(path: path)["scenario"] != nil { continue }  // a sweep file
      trees.append(try ScenarioResolver.resolve(path: repository.appendingPathComponent("scenarios/\(name)").path).resolved)
    }
    for t in trees { keyPaths(t, into: &paths) }
    // Variants repeat the study keys under variants[]: documented once, at the top.
    // A questionnaire's schedule, window, reminders and survey take the protocol's keys:
    // documented once, under protocol.
    func questionnaireKey(_ path: String) -> String {
      let questionnaire = "protocol.questionnaires[]."
      guard path.hasPrefix(questionnaire) && path.dropFirst(questionnaire.count).contains(".") else { return path }
      return "protocol." + path.dropFirst(questionnaire.count)
    }
    let study = Set(
      paths.map {
        questionnaireKey($0.hasPrefix("variants[].") && $0 != "variants[].name" ? String($0.dropFirst("variants[].".count)) : $0)
      })
    #expect(study.count > 100)
    let missing = study.filter { !reference.contains("`\($0)`") }.sorted()
    #expect(missing.isEmpty, "undocumented keys: \(missing.joined(separator: ", "))")
  }
}

@Suite("docs/outputs.md")
struct OutputsDocumentationTests {
  /// Every reason a prompt can be missed, and the statuses, are documented with their column,
  /// so that a new one cannot reach prompts.csv unexplained.
  @Test("every miss reason and status of prompts.csv is documented")
  func reasonsAndStatuses() throws {
    let text = try String(contentsOf: repository.appendingPathComponent("docs/outputs.md"), encoding: .utf8)
    let reasonRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `reason` |") })
    for r in MissReason.allCases where r != .none {
      #expect(reasonRow.contains("`\(r.rawValue)`"), "reason \(r.rawValue)")
    }
    let statusRow = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `status` |") })
    for s in PromptStatus.allCases {
      #expect(statusRow.contains("`\(s.rawValue)`"), "status \(s.rawValue)")
    }
    // latency_s is measured to the opening (PromptRecord.responseSeconds).
    let latency = try #require(text.split(separator: "\n").first { $0.hasPrefix("| `latency_s` |") })
    #expect(latency.contains("delivery to opening"))
  }
}

