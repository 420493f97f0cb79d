import StudyModel
import Foundation
import Testing

@testable import Scenarios

/// What a scenario asks for that esmsim simulates otherwise is said, by file and key.
@Suite("Scenario warnings")
struct WarningTests {
  static func scenario(pushes: String, os: String = "{ios: 1}") -> String {
    """
    name: pushes
    duration: 2d
    population: {size: 10, os: \(os)}
    protocol: {silent_push: \(pushes)}
    variants:
      - name: often
      - name: rarely
        protocol: {silent_push: 30m}
    """
  }

  @Test("silent pushes more often than iOS's budget are warned about, naming the file, the variant and the key")
  func silentPushBudget() throws {
    let s = try resolve(Self.scenario(pushes: "5m"), file: "pushes.yaml")
    #expect(s.warnings.count == 1)
    let w = try #require(s.warnings.first)
    #expect(w.file == "pushes.yaml" && w.key == "variants[often].protocol.silent_push")
    #expect(w.message.contains("budget of 3 an hour"))
    #expect(w.description.hasPrefix("pushes.yaml: variants[often].protocol.silent_push: "))
    // At the budget, or on Android phones only, nothing to say.
    #expect(try resolve(Self.scenario(pushes: "20m")).warnings.isEmpty)
    #expect(try resolve(Self.scenario(pushes: "5m", os: "{android: 1}")).warnings.isEmpty)
  }

  @Test("an Etc/GMT+N zone is said to be UTC−N, with the name meant; other zones are not")
  func posixSign() throws {
    let s = try resolve("name: z\nduration: 1d\npopulation: {size: 2, time_zones: {Etc/GMT+1: 0.5, Etc/GMT-10: 0.5}}\n", file: "z.yaml")
    let said = s.warnings.filter { $0.key == "population.time_zones" }.map(\.message)
    #expect(said.count == 2, "\(s.warnings)")
    #expect(said.contains { $0.hasPrefix("Etc/GMT+1 is UTC−1") && $0.hasSuffix("for UTC+1 write Etc/GMT-1") }, "\(said)")
    #expect(said.contains { $0.hasPrefix("Etc/GMT-10 is UTC+10") && $0.hasSuffix("for UTC−10 write Etc/GMT+10") }, "\(said)")
    // The server's zone too (by default the population's first).
    #expect(s.warnings.contains { $0.key == "protocol.server_time_zone" && $0.message.hasPrefix("Etc/GMT+1 ") })
    #expect(try resolve("name: z\nduration: 1d\npopulation: {size: 2, time_zones: {Europe/Paris: 1, Etc/GMT: 0}}\n").warnings.isEmpty)
  }

  @Test("a schedule whose weekdays miss every study day is said (the study ran without prompts, silently)")
  func noStudyDay() throws {
    func text(_ weekdays: String) -> String {
      """
      name: wd
      start_date: "2026-01-05"
      duration: 5d
      protocol: {window: "09:00-10:00", schedule: {algorithm: fixed-times, times: ["09:00"], weekdays: \(weekdays)}}
      """
    }
    // Monday 5 January to Friday 9 January: no Saturday or Sunday.
    #expect(try resolve(text("[sat, sun]")).warnings.map(\.key) == ["protocol.schedule"])
    #expect(try resolve(text("[fri, sat]")).warnings.isEmpty)
  }

  @Test("a window crossing midnight for most of the day is said (08:00-07:00 is 23 hours); a night window is not")
  func windowAcrossMidnight() throws {
    func scenario(_ window: String) -> String {
      "name: w\nduration: 2d\npopulation: {size: 3}\nprotocol: {window: \"\(window)\", schedule: {algorithm: fixed-blocks, per_day: 3}}\n"
    }
    let s = try resolve(scenario("08:00-07:00"), file: "w.yaml")
    let w = try #require(s.warnings.first)
    #expect(w.key == "protocol.window" && w.message.contains("crosses midnight and lasts 23 hours"))
    #expect(try resolve(scenario("20:00-02:00")).warnings.isEmpty)
    #expect(try resolve(scenario("08:00-22:00")).warnings.isEmpty)
  }
}

@Suite("Protocol presets")
struct PresetTests {
  @Test("preset: mappiness fills in Mappiness' protocol; the file's own keys win; an unknown preset is refused")
  func mappiness() throws {
    let s = try resolve(
      """
      name: preset
      duration: 2d
      protocol: {preset: mappiness, schedule: {algorithm: mappiness, per_day: 4}}
      """)
    let p = s.variants[0].plan.protocolPlan
    #expect(p.channel.kind == .push && p.expiry == .untilNextSignal && p.volunteered)
    #expect(p.schedules.first?.choice?.parameters.perDay == 4)
    #expect(s.resolved.yaml().contains("preset: mappiness"))
    let esmira = try resolve("name: e\nduration: 2d\nprotocol: {preset: esmira}\n").variants[0].plan.protocolPlan
    #expect(esmira.channel == .esmira && esmira.upload == .immediateRetry)
    #expect(throws: ScenarioError.self) { try resolve("name: x\nprotocol: {preset: nope}\n") }
    // Beiwe: pushed by the server; its resending is not simulated, and said.
    let beiwe = try resolve("name: b\nduration: 2d\nprotocol: {preset: beiwe}\n")
    #expect(beiwe.variants[0].plan.protocolPlan.channel.kind == .push)
    #expect(beiwe.warnings.map(\.key) == ["protocol.preset"])
  }

  @Test("Beiwe's passive files: a sensor Beiwe has no stream for is said, not dropped silently; a Focus's hours are checked")
  func beiweSensorsAndFocus() throws {
    let base = "name: b\nduration: 2d\nprotocol: {sensors: {location: {every: 3m}, weather: {every: 10m, needs_network: true}}}\n"
    let written = try resolve(base + "outputs: {beiwe_sensors: true}\n", file: "b.yaml")
    let w = written.warnings.filter { $0.key == "outputs.beiwe_sensors" }
    #expect(w.count == 1 && w[0].message.contains("weather") && !w[0].message.contains("location,"))
    #expect(try resolve(base, file: "b.yaml").warnings.allSatisfy { $0.key != "outputs.beiwe_sensors" })
    // Device motion is an iPhone stream: Android participants have none, said.
    let motion = "name: m\nduration: 2d\npopulation: {os: {ios: 0.5, android: 0.5}}\nprotocol: {sensors: {devicemotion: {every: 1s}}}\noutputs: {beiwe_sensors: true}\n"
    #expect(try resolve(motion).warnings.contains { $0.key == "outputs.beiwe_sensors" && $0.message.contains("Android participants have no devicemotion") })
    #expect(try resolve(motion.replacingOccurrences(of: "ios: 0.5, android: 0.5", with: "ios: 1")).warnings.isEmpty)
    #expect(throws: ScenarioError.self) { try resolve("name: f\npopulation: {phones: {focus: {hours: \"25:00-07:00\"}}}\n") }
    do {
      _ = try resolve("name: f\npopulation: {phones: {focus: {hours: \"07:00-07:00\"}}}\n")
      Issue.record("equal ends accepted")
    } catch { #expect(error.key == "population.phones.focus.hours") }
  }

  @Test("a distribution serving fewer testers than the iPhones simulated is said, by key")
  func distributionScale() throws {
    let yaml = { (n: Int, d: String) in "name: d\npopulation: {size: \(n), os: {ios: 0.5, android: 0.5}}\nprotocol: {distribution: \(d)}\n" }
    #expect(try resolve(yaml(300, "testflight_internal")).warnings.contains { $0.key == "protocol.distribution" })
    #expect(try resolve(yaml(180, "testflight_internal")).warnings.allSatisfy { $0.key != "protocol.distribution" })
    #expect(try resolve(yaml(300, "testflight")).warnings.allSatisfy { $0.key != "protocol.distribution" })
    #expect(try resolve("name: d\nprotocol: {build_age_days: 10}\n").warnings.contains { $0.key == "protocol.build_age_days" })
  }

  @Test("a sensor storing more than 10^6 rows a day is warned about (the CPU kill is not simulated)")
  func cpuLimit() throws {
    let warned = try resolve("name: c\nprotocol: {sensors: {accelerometer: {hz: 50}, location: {every: 3m}}}\n")
    #expect(warned.warnings.map(\.key).filter { $0.hasPrefix("protocol.sensors.") } == ["protocol.sensors.accelerometer"])
    #expect(try resolve("name: c\nprotocol: {sensors: {accelerometer: {hz: 5}}}\n").warnings.allSatisfy { !$0.key.hasPrefix("protocol.sensors.") })
  }

  @Test("AWARE rows with Android participants: said, not dropped silently")
  func awareRowsAndroid() throws {
    let s = try resolve("name: a\nduration: 2d\npopulation: {os: {ios: 0.5, android: 0.5}}\noutputs: {aware_esm: true}\n")
    #expect(s.warnings.map(\.key) == ["outputs.aware_esm"])
    #expect(try resolve("name: a\nduration: 2d\npopulation: {os: {ios: 1}}\noutputs: {aware_esm: true}\n").warnings.isEmpty)
  }
}
