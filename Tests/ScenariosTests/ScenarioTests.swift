import Foundation
import Schedules
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

/// Resolves scenario text written in a test.
func resolve(_ yaml: String, file: String = "test.yaml") throws(ScenarioError) -> Scenario {
  try ScenarioResolver.resolve(ScenarioLoader.parse(Data(yaml.utf8), file: file), file: file)
}

/// The error a scenario text gives, or nil.
func problem(_ yaml: String) -> ScenarioError? {
  do {
    _ = try resolve(yaml)
    return nil
  } catch { return error }
}

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

@Suite("Scenario files")
struct ScenarioTests {
  @Test("a minimal scenario gets every default, and the variants are overlays of the base")
  func defaultsAndVariants() throws {
    let s = try resolve(
      """
      name: t
      population: {size: 10}
      protocol:
        schedule: {algorithm: mappiness}
      variants:
        - name: a
        - name: b
          protocol: {schedule: {per_day: 4}, expiry: until_next}
          population: {size: 20}
      """)
    #expect(s.seed == 1 && s.replications == 1)
    #expect(s.variants.map(\.name) == ["a", "b"])
    let a = s.variants[0].plan
    let b = s.variants[1].plan
    #expect(a.days == 14 && a.participants == 10 && b.participants == 20)
    #expect(a.protocolPlan.schedules[0].choice?.parameters.perDay == 2)
    #expect(b.protocolPlan.schedules[0].choice?.algorithm == .mappiness)
    #expect(b.protocolPlan.schedules[0].choice?.parameters.perDay == 4)
    #expect(a.protocolPlan.expiry == .after(15 * Tick.minute))
    #expect(b.protocolPlan.expiry == .untilNextSignal)
    // Everything else is the same study.
    #expect(a.dailyLife == b.dailyLife && a.compliance == b.compliance)
    #expect(s.startDate.description == "2026-01-05" && a.startWeekday == 0)
  }

  @Test("the ready scenarios resolve", arguments: ["quickstart.yaml", "aware-ios-case-study.yaml"])
  func readyScenarios(name: String) throws {
    let s = try ScenarioResolver.resolve(path: repository.appendingPathComponent("scenarios/\(name)").path)
    #expect(!s.variants.isEmpty)
    #expect(!s.description.isEmpty)
  }

  @Test("show's output reads back to the same study")
  func showRoundTrip() throws {
    let original = try ScenarioResolver.resolve(path: repository.appendingPathComponent("scenarios/quickstart.yaml").path)
    let text = original.resolved.yaml()
    let again = try resolve(text)
    #expect(again.variants.map(\.name) == original.variants.map(\.name))
    for (x, y) in zip(again.variants, original.variants) { #expect(x.plan == y.plan) }
    #expect(again.resolved.yaml() == text)
    #expect(again.hash == original.hash)
  }

  @Test("show fills in a channel preset's own keys, and only those it has", arguments: [
    ("esmira", ["cap: 55", "repetitions: 4", "background_task: 12h", "background_task_success: 0.5"], ["horizon_days"]),
    ("ios_local", ["cap: 64", "horizon_days: 7", "refill_in_background: true"], ["background_task", "repetitions"]),
    ("push", ["server_tick: 2m", "store: 1d"], ["cap", "background_task"]),
  ])
  func channelPresetShown(preset: String, shown: [String], absent: [String]) throws {
    let s = try resolve("name: x\nprotocol: {channel: {preset: \(preset)}}\n")
    let text = s.resolved.yaml()
    for key in shown { #expect(text.contains("    \(key)\n"), "\(preset): \(key)\n\(text)") }
    for key in absent { #expect(!text.contains("    \(key):"), "\(preset): \(key)") }
    let again = try resolve(text)
    #expect(again.variants[0].plan == s.variants[0].plan)
  }

  @Test("show's output reads back to the same study when a variant changes the phones preset (it took the scenario's device profiles), gives questionnaires or imports a file (it was refused)")
  func showRoundTripVariants() throws {
    let file = fixtures.appendingPathComponent("s.yaml").path
    let yaml = """
      name: rt
      duration: 2d
      population: {size: 20, preset: own_phones}
      variants:
        - name: own
        - name: study
          population: {preset: study_phones}
        - name: two
          protocol:
            questionnaires:
              - {name: a, schedule: {algorithm: fixed-times, times: ["09:00"]}}
              - {name: b, schedule: {algorithm: mappiness}}
        - name: aware
          protocol: {aware_schedule: aware-morning-evening.json}
        - name: back
          protocol: {schedule: {algorithm: mappiness}}

      """
    let original = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(yaml.utf8), file: file), file: file)
    let text = original.resolved.yaml()
    let again = try ScenarioResolver.resolve(ScenarioLoader.parse(Data(text.utf8), file: file), file: file)
    #expect(again.variants.map(\.name) == original.variants.map(\.name))
    for (x, y) in zip(again.variants, original.variants) { #expect(x.plan == y.plan, "\(x.name)") }
    #expect(again.resolved.yaml() == text)
    // The variants' phones differ (the test would pass trivially otherwise).
    #expect(original.variants[0].plan.devices.map(\.0) != original.variants[1].plan.devices.map(\.0))
  }

  @Test("a name that is a variable in one variant and an item in another is refused by variant (answers.csv wrote two columns of one name, and SQLite failed after the whole run)")
  func answerNamesOneRole() {
    let yaml = """
      name: varcol
      population: {variables: [{name: mood, mean: 50, sd: 10}]}
      protocol: {items: [{name: happy, measures: mood}]}
      variants:
        - name: A
        - name: B
          population: {variables: [{name: happy, mean: 1, sd: 1}]}
          protocol: {items: [{name: mood, measures: happy}]}

      """
    let e = problem(yaml)
    #expect(e?.key == "variants[1]" && e?.message.contains("'happy' is a variable") == true, "\(String(describing: e))")
    // The same names in the same roles are fine.
    #expect(problem(yaml.replacingOccurrences(of: "{name: happy, mean: 1, sd: 1}", with: "{name: mood, mean: 1, sd: 1}")
      .replacingOccurrences(of: "{name: mood, measures: happy}", with: "{name: happy, measures: mood}")) == nil)
  }

  @Test("a sensor's hz reaches down to one an hour, as every reaches up to 1h (the documented 0.001 was refused for its period)")
  func sensorHz() {
    #expect(problem("name: x\nprotocol: {sensors: {accelerometer: {hz: 0.000277777777777778}}}\n") == nil)
    #expect(problem("name: x\nprotocol: {sensors: {accelerometer: {hz: 0.0002}}}\n")?.key == "protocol.sensors.accelerometer.hz")
    #expect(problem("name: x\nprotocol: {sensors: {accelerometer: {hz: 0.001}}}\n")?.message.contains("divide an hour") == true)
  }

  @Test("a key of another kind of schedule is named as such (min_gap under mappiness was an 'unknown key', though the reference lists it); per_day against fixed times or blocks in whole numbers and grammar")
  func otherKindsKeys() throws {
    for (schedule, key, owner) in [
      ("{algorithm: mappiness, per_day: 3, min_gap: 30m}", "min_gap", "fixed-blocks and event"),
      ("{algorithm: bernoulli, per_day: 3, delay: 5m}", "delay", "event"),
      ("{algorithm: fixed-blocks, per_day: 3, end_margin: 30m}", "end_margin", "mappiness"),
      ("{algorithm: chain, per_day: 3, times: [\"09:00\"]}", "times", "fixed-times"),
      ("{algorithm: event, trigger: phone_unlock, fixed_lag: 10m}", "fixed_lag", "chain"),
      ("{algorithm: none, buffer: 0.2}", "buffer", "buffered-blocks"),
    ] {
      let e = try #require(problem("name: t\nprotocol:\n  schedule: \(schedule)\n"), "\(schedule)")
      #expect(e.key == "protocol.schedule.\(key)" && e.message.hasPrefix("a key of \(owner) schedules"), "\(e)")
    }
    // A seed past 2^63 - 1 is out of range, not "not a whole number".
    let seed = try #require(problem("name: t\nseed: 9223372036854775808\n"))
    #expect(seed.key == "seed" && seed.message == "must be between 0 and 9223372036854775807, not 9223372036854775808", "\(seed)")
    #expect(problem("name: t\nseed: 12abc\n")?.message == "expected a whole number, found '12abc'")
    // per_day under an event schedule and any key under none were "unknown keys".
    let event = try #require(problem("name: t\nprotocol:\n  schedule: {algorithm: event, trigger: phone_unlock, per_day: 2}\n"))
    #expect(event.key == "protocol.schedule.per_day" && event.message.contains("max_per_day"), "\(event)")
    let none = try #require(problem("name: t\nprotocol:\n  schedule: {algorithm: none, weekdays: [mon]}\n"))
    #expect(none.key == "protocol.schedule.weekdays" && none.message == "algorithm none sends no signals and reads no other key", "\(none)")
    let one = try #require(problem("name: t\nprotocol:\n  schedule: {algorithm: fixed-times, times: [\"09:00\"], per_day: 3}\n"))
    #expect(one.message == "1 clock time gives 1 signal a day, not 3", "\(one)")
    let two = try #require(problem("name: t\nprotocol:\n  schedule: {algorithm: fixed-blocks, blocks: [\"09:00-12:00\", \"13:00-17:00\"], per_day: 2.5}\n"))
    #expect(two.message == "2 blocks give 2 signals a day, not 2.5", "\(two)")
  }

  @Test("a single value where a list goes is a list of one (R's JSON writes c(\"sat\") as \"sat\": 'expected a list, found a single value')")
  func singleValueIsAListOfOne() throws {
    let one = try resolve("name: t\nprotocol:\n  schedule: {algorithm: fixed-times, times: \"09:00\", weekdays: sat}\n")
    let list = try resolve("name: t\nprotocol:\n  schedule: {algorithm: fixed-times, times: [\"09:00\"], weekdays: [sat]}\n")
    #expect(one.variants[0].plan == list.variants[0].plan)
    #expect(one.resolved.yaml() == list.resolved.yaml())
    #expect(problem("name: t\nprotocol:\n  schedule: {algorithm: fixed-times, times: {a: 1}}\n")?.message == "expected a list, found a mapping of keys")
  }

  @Test("a sweep file given as a scenario says what it is and which command runs it (it said only 'scenario: unknown key')")
  func sweepFileAsScenario() throws {
    let e = try #require(problem("name: s\nscenario: base.yaml\ngrid:\n  protocol.expiry: [15m, 30m]\n"))
    #expect(e.key == "scenario" && e.message.contains("sweep file") && e.message.contains("esmsim sweep run test.yaml"), "\(e)")
    // A scenario with a key named scenario and no grid or points: the usual unknown key.
    #expect(problem("name: s\nscenario: base.yaml\n")?.message.hasPrefix("unknown key") == true)
  }

  @Test("outputs.esmira_missed without outputs.esmira, and background_task_success on a channel without a background task, are refused by key (they changed nothing)")
  func keysThatChangeNothing() {
    let missed = problem("name: x\noutputs: {esmira_missed: true}\n")
    #expect(missed?.key == "outputs.esmira_missed" && missed?.message.contains("esmira: true") == true, "\(String(describing: missed))")
    #expect(problem("name: x\noutputs: {esmira: true, esmira_missed: true}\n") == nil)
    let task = problem("name: x\nprotocol: {channel: {preset: ios_local, background_task_success: 0.9}}\n")
    #expect(task?.key == "protocol.channel.background_task_success", "\(String(describing: task))")
    #expect(problem("name: x\nprotocol: {channel: {preset: ios_local, background_task: 6h, background_task_success: 0.9}}\n") == nil)
  }

  @Test("show writes a negative number plain (a YAML reader gets a number), and text that starts with a dash quoted")
  func negativeNumbersPlain() {
    #expect(ScenarioValue.yamlScalar("-0.8") == "-0.8")
    #expect(ScenarioValue.yamlScalar("-12") == "-12")
    for text in ["-", "- x", "-inf", "-.nan", "-3d", "-x"] {
      #expect(ScenarioValue.yamlScalar(text).hasPrefix("\""), "\(text)")
    }
  }

  @Test("show escapes control characters with two hex digits, so a name or description reads back unchanged (\\x1 swallowed the next character, \\xd was refused, DEL was written raw)")
  func controlCharactersRoundTrip() throws {
    // and the texts YAML reads as null when plain (the description "null" was shown plain, then refused).
    for text in ["a\u{01}b", "line1\rline2", "x\u{7f}y", "t\u{9f}u", "tab\there", "é\u{85}", "null", "Null", "NULL", "~", ""] {
      let shown = ScenarioValue.yamlScalar(text)
      let again = try ScenarioLoader.parse(Data("v: \(shown)\n".utf8), file: "t.yaml")
      #expect(again["v"] == .scalar(text, nil), "\(text.debugDescription) shown as \(shown)")
    }
  }

  @Test("an error about a key the file gives points at its value, not at the mapping that holds it")
  func errorsAtTheirKey() {
    let jitter = problem("name: x\nprotocol:\n  schedule:\n    algorithm: fixed-times\n    times: [\"09:00\"]\n    jitter: 90s\n")
    #expect(jitter?.key == "protocol.schedule.jitter" && jitter?.location?.line == 6, "\(String(describing: jitter))")
    let day = problem("name: x\npopulation:\n  daily_life:\n    weekday_wake: \"09:00\"\n    weekday_bed: \"18:00\"\n")
    #expect(day?.key == "population.daily_life.weekday_bed" && day?.location?.line == 5, "\(String(describing: day))")
    // Sleep the simulated days would not keep (each day's wake is held to 03:00-14:00, its
    // waking day to 10-21 hours).
    let night = problem("name: x\npopulation:\n  daily_life:\n    weekday_wake: \"16:00\"\n    weekday_bed: \"08:00\"\n")
    #expect(night?.key == "population.daily_life.weekday_wake", "\(String(describing: night))")
    let long = problem("name: x\npopulation:\n  daily_life:\n    weekday_wake: \"07:00\"\n    weekday_bed: \"06:30\"\n")
    #expect(long?.key == "population.daily_life.weekday_bed" && long?.message.contains("21 hours") == true)
    // Context keys that change nothing there.
    let asleep = problem("name: x\npopulation:\n  daily_life:\n    contexts:\n      asleep: {hearing: 1}\n")
    #expect(asleep?.key == "population.daily_life.contexts.asleep.hearing", "\(String(describing: asleep))")
    let underground = problem("name: x\npopulation:\n  daily_life:\n    contexts:\n      underground: {wifi: 1}\n")
    #expect(underground?.key == "population.daily_life.contexts.underground.wifi")
    #expect(problem("name: x\npopulation:\n  daily_life:\n    contexts:\n      asleep: {wifi: 0.5, state_mean: 40}\n      underground: {hearing: 0.5}\n") == nil)
    // Classes: one name, one class.
    let classes = "name: x\npopulation:\n  compliance:\n    classes:\n      - {name: a, share: 0.5}\n      - {name: NAME, share: 0.5}\n"
    let twice = problem(classes.replacingOccurrences(of: "NAME", with: "a"))
    #expect(twice?.key == "population.compliance.classes[1].name", "\(String(describing: twice))")
    #expect(problem(classes.replacingOccurrences(of: "NAME", with: "\"\"")) != nil)
    #expect(problem(classes.replacingOccurrences(of: "NAME", with: "b")) == nil)
    // A key the file lacks: at the mapping.
    let shares = problem("name: x\npopulation:\n  variables:\n    - {name: a, kind: ordinal}\n")
    #expect(shares?.key == "population.variables[0].shares" && shares?.location?.line == 4, "\(String(describing: shares))")
  }

  @Test("share tables come back in one order whatever the file's, so that the same people are drawn")
  func sharesInOneOrder() throws {
    func plan(_ devices: String, _ os: String, _ zones: String) throws -> StudyPlan {
      try resolve("name: x\npopulation:\n  devices: \(devices)\n  os: \(os)\n  time_zones: \(zones)\n").variants[0].plan
    }
    let a = try plan("{ideal: 0.3, heavy: 0.7}", "{ios: 0.5, android: 0.5}", "{UTC: 0.3, Europe/Brussels: 0.7}")
    let b = try plan("{heavy: 0.7, ideal: 0.3}", "{android: 0.5, ios: 0.5}", "{Europe/Brussels: 0.7, UTC: 0.3}")
    #expect(a.devices.map(\.profile.name) == b.devices.map(\.profile.name))
    #expect(a.systems.map(\.os) == b.systems.map(\.os))
    // Time zones keep the file's order: the first is the push server's zone by default.
    #expect(a.timeZones.map(\.share) == [0.3, 0.7] && b.timeZones.map(\.share) == [0.7, 0.3])
    #expect(try resolve("name: x\npopulation:\n  devices: {heavy: 0.7, ideal: 0.3}\n").resolved.yaml()
      == (try resolve("name: x\npopulation:\n  devices: {ideal: 0.3, heavy: 0.7}\n").resolved.yaml()))
  }

  @Test("durations, clock times, shares and dates are read with their units; numbers are decimal (0x10 is refused)")
  func units() {
    #expect(Units.duration("30s") == 30 * Tick.second)
    #expect(Units.duration("10m") == 10 * Tick.minute)
    #expect(Units.duration("1.5h") == 90 * Tick.minute)
    #expect(Units.duration("28d") == 28 * Tick.day)
    #expect(Units.duration("500ms") == 500)
    #expect(Units.duration("10") == nil)
    #expect(Units.duration("-5m") == nil)
    #expect(Units.duration("nanm") == nil)
    #expect(Units.number(".nan") == nil && Units.number("inf") == nil && Units.number("1e400") == nil)
    // Decimal only, as JSON: Swift's Double read "0x10" as 16 and "0x1p3" as 8.
    #expect(Units.number("0x10") == nil && Units.number("0x1p3") == nil && Units.number("1_000") == nil)
    #expect(Units.number("1e3") == 1000 && Units.number("-2.5") == -2.5 && Units.number("+.5") == 0.5)
    #expect(problem("name: t\npopulation: {size: 0x10}\n")?.key == "population.size")
    #expect(Units.formatDuration(90 * Tick.minute) == "90m")
    #expect(CalendarDate(iso: "2026-02-30") == nil)
    #expect(CalendarDate(iso: "2024-02-29")?.weekday == 3)  // a Thursday
    #expect(CalendarDate(aware: "12-31-2050")?.description == "2050-12-31")
  }

  @Test("SHA-256 of the standard's test vectors")
  func sha256() {
    #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(
      SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
  }
}

@Suite("Scenario files: bad input")
struct BadScenarioTests {
  @Test(
    "one clear error naming the key path",
    arguments: [
      ("population: {size: 10}", "name", "is required"),
      ("name: t\npopulation: {size: 0}", "population.size", "between 1"),
      ("name: t\npopulation: {size: ten}", "population.size", "whole number"),
      ("name: t\npopulation: {sise: 10}", "population.sise", "did you mean size"),
      ("name: t\nprotocol: {expiry: 15}", "protocol.expiry", "duration"),
      ("name: t\nprotocol: {expiry: -5m}", "protocol.expiry", "duration"),
      ("name: t\nduration: 36h", "duration", "whole days"),
      ("name: t\npopulation: {devices: {ideal: 0.5, heavy: 0.4}}", "population.devices", "sum to 1"),
      ("name: t\npopulation: {devices: {fancy: 1}}", "population.devices.fancy", "unknown name"),
      ("name: t\npopulation: {compliance: {answer_probability: 1.5}}", "population.compliance.answer_probability", "between 0.0001 and 0.9999"),
      ("name: t\npopulation: {compliance: {answer_probability: .nan}}", "population.compliance.answer_probability", "number"),
      ("name: t\npopulation: {compliance: {open_delay: 60s}}", "population.compliance.open_delay", "replaced in esmsim 0.2 by at_once"),
      ("name: t\npopulation: {compliance: {busy_minutes: -3}}", "population.compliance.busy_minutes", "between"),
      ("name: t\npopulation: {compliance: {alert_window_exponent: -0.5}}", "population.compliance.alert_window_exponent", "between"),
      ("name: t\npopulation: {compliance: {classes: [{share: 0.5, level: 0.9}, {share: 0.4, level: 0.5}]}}", "population.compliance.classes", "sum to 0.9, not 1"),
      ("name: t\npopulation: {compliance: {classes: [{share: 1, level: 0.9}], person_sd: 0.1}}", "population.compliance.person_sd", "replaced in esmsim 0.2 by the classes' spread"),
      ("name: t\npopulation: {compliance: {classes: [{share: 1, level: 0.9, level_sd: 0.1}]}}", "population.compliance.classes[0].level_sd", "replaced in esmsim 0.2 by spread"),
      ("name: t\npopulation: {compliance: {classes: [{share: 1, level: 1.2}]}}", "population.compliance.classes[0].level", "between 0.0001 and 0.9999"),
      ("name: t\nprotocol: {survey: {length: 0}}", "protocol.survey.length", "between 1"),
      ("name: t\nprotocol: {schedule: {algorithm: fixed-blocks, per_day: 0}}", "protocol.schedule.per_day", "at least 1"),
      ("name: t\nprotocol: {window: \"08:00-20:00\", schedule: {algorithm: fixed-blocks, per_day: 4, min_gap: 5h, gap_method: truncation}}", "protocol.schedule.min_gap", "minutes"),
      ("name: t\nprotocol: {window: \"08:00-08:05\", schedule: {algorithm: mappiness}}", "protocol.window", "15 minutes"),
      ("name: t\nprotocol: {window: \"8-20\"}", "protocol.window", "HH:MM"),
      ("name: t\nprotocol: {schedule: {algorithm: sometimes}}", "protocol.schedule.algorithm", "expected one of"),
      ("name: t\nprotocol: {sensors: {location: {every: 7m}}}", "protocol.sensors.location.every", "divide an hour"),
      ("name: t\nprotocol: {channel: pigeon}", "protocol.channel", "expected one of"),
      ("name: t\nvariants: [{name: a, seed: 3}]", "variants[0].seed", "cannot differ"),
      ("name: t\nvariants: [{name: a}, {name: a}]", "variants[1].name", "two variants"),
      ("name: t\nvariants: [{name: a, protocol: {expiry: soon}}]", "protocol.expiry", "in variant 'a'"),
      ("name: t\nstart_date: 2026-13-01", "start_date", "YYYY-MM-DD"),
      ("name: t\npopulation: [1, 2]", "population", "mapping"),
    ])
  func badKeys(yaml: String, key: String, message: String) throws {
    let e = try #require(problem(yaml))
    #expect(e.key == key, "\(e)")
    #expect(e.description.contains(message), "\(e)")
    #expect(e.description.hasPrefix("test.yaml: "), "\(e)")
  }

  @Test("malformed YAML is reported with its line and column")
  func malformed() throws {
    let e = try #require(problem("name: t\npopulation: {size: [1, 2\n"))
    #expect(e.description.contains("line"))
    let duplicate = try #require(problem("name: t\nname: u\n"))
    #expect(duplicate.description.lowercased().contains("duplicate"))
  }

  @Test("YAML's null (~, null, nothing after the colon) is refused by its key path (the name '~' and the description 'null' were read as text, an empty section as 'found a single value'); quoted it is text; a platform's JSON null is kept")
  func nullRefusedByKey() throws {
    for (yaml, key) in [
      ("name: ~\n", "name"),
      ("name: t\ndescription: null\n", "description"),
      ("name: t\nprotocol:\npopulation: {size: 3}\n", "protocol"),
      ("name: t\nprotocol: {expiry: Null}\n", "protocol.expiry"),
      ("name: t\nvariants:\n  - name: a\n    protocol: {times: [\"09:00\", ~]}\n", "variants[0].protocol.times[1]"),
    ] {
      let e = try #require(problem(yaml), "\(yaml)")
      #expect(e.key == key, "\(e)")
      #expect(e.message.hasPrefix("no value ("), "\(e)")
    }
    #expect(try resolve("name: \"~\"\n").name == "~")
    // A platform's file keeps JSON's null as its readers expect: this ESMira file's null title.
    let esmira = #"{"id": 1, "title": null, "questionnaires": [{"title": "Mood", "pages": [{"inputs": [{"name": "m", "text": "How?", "responseType": "likert"}]}], "actionTriggers": [{"actions": [{"type": 1, "msgText": "Now", "timeout": 30}], "schedules": [{"dailyRepeatRate": 1, "weekdays": 0, "startDayOne": false, "signalTimes": [{"startTimeOfDay": 36000000, "random": false}]}]}]}]}"#
    let s = try Readers.scenario(
      Data("name: n\nduration: 2d\nprotocol: {esmira_study: s.json}\n".utf8), file: "n.yaml", uploads: ["s.json": Data(esmira.utf8)])
    #expect(s.variants[0].plan.protocolPlan.schedules.count == 1)
  }

  @Test("a missing file, a folder, an empty file and a non-UTF-8 file are refused with the file's name")
  func files() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-bad-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    func error(_ path: String) -> String {
      do {
        _ = try ScenarioResolver.resolve(path: path)
        return ""
      } catch { return error.description }
    }
    #expect(error(dir.appendingPathComponent("nope.yaml").path).contains("does not exist"))
    #expect(error(dir.path).contains("folder"))
    let empty = dir.appendingPathComponent("empty.yaml")
    try Data().write(to: empty)
    #expect(error(empty.path).contains("empty"))
    let latin1 = dir.appendingPathComponent("latin1.yaml")
    try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xE9, 0xFF, 0x0A]).write(to: latin1)
    #expect(error(latin1.path).contains("UTF-8"))
  }
}
