import SimKernel
import StudyModel

/// What a scenario asks for that esmsim simulates otherwise than the file might suggest, or
/// not at all: one line each, naming the file and the key (`esmsim validate` lists them,
/// `esmsim run` prints them and records them in the manifest). Nothing is dropped silently.
public struct ScenarioWarning: Sendable, Equatable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The key path (with the variant, when it concerns one).
  public var key: String
  /// What esmsim does instead.
  public var message: String

  public var description: String { "\(file): \(key): \(message)" }

  /// The warnings a resolved study plan gives: protocols asking more than a platform allows.
  static func check(_ plan: StudyPlan, file: String, variant: String?) -> [ScenarioWarning] {
    var out: [ScenarioWarning] = []
    let prefix = variant.map { "variants[\($0)]." } ?? ""
    let ios = plan.systems.contains { $0.os == .ios && $0.share > 0 }
    // iOS kills a background app using over 80 % CPU for over 60 s; reading a local table of
    // 10^7 rows took over 30 s (seed 004 §3.2, §5.1, guideline 1(e): under 10^6 rows). Not
    // simulated: said for a sensor that stores more than 10^6 rows a day.
    for sensor in plan.protocolPlan.sensors where sensor.expectedPerHour * 24 > 1_000_000 {
      out.append(
        ScenarioWarning(
          file: file, key: prefix + "protocol.sensors.\(sensor.name)",
          message: "\(sensor.expectedPerHour * 24) rows a day: AWARE-iOS keeps a table under 10^6 rows, since reading more takes CPU iOS kills a background app for (over 80 % for 60 s); that kill is not simulated"))
    }
    // The distribution's largest number of testers (seed 004, Table 2).
    let iPhones = Double(plan.participants) * plan.systems.filter { $0.os == .ios }.reduce(0) { $0 + $1.share }
      / max(plan.systems.reduce(0) { $0 + $1.share }, 1e-12)
    if let most = plan.protocolPlan.distribution.mostParticipants, iPhones.rounded() > Double(most) {
      out.append(
        ScenarioWarning(
          file: file, key: prefix + "protocol.distribution",
          message: "\(plan.protocolPlan.distribution.rawValue) serves at most \(most) devices; about \(Int(iPhones.rounded())) iPhones are simulated as if it served them all"))
    }
    // Drawn schedules, none of which signals on any of the study's days: a study without prompts.
    let drawn = plan.protocolPlan.schedules.filter { $0.choice != nil }
    let triggered = plan.protocolPlan.schedules.contains { $0.trigger != nil }
    // (With rolling enrolment each participant's days fall on weekdays of their own: not checked.)
    if !drawn.isEmpty && !triggered && plan.enrolmentDays == 1
      && drawn.allSatisfy({ plan.signallingDays($0) == 0 })
    {
      out.append(
        ScenarioWarning(
          file: file, key: prefix + "protocol.schedule",
          message: "signals on none of the study's \(plan.days) days (its weekdays, every-n-days or dates): the study has no prompts"))
    }
    // The IANA database's Etc/GMT+N zones are N hours behind UTC (POSIX's sign), the opposite
    // of how they read: said, with the name meant.
    let zones = plan.timeZones.map { ($0.zone.name, "population.time_zones") } + [(plan.protocolPlan.serverZone.name, "protocol.server_time_zone")]
    for (name, key) in zones {
      guard name.hasPrefix("Etc/GMT"), let hours = Int(name.dropFirst(7)), hours != 0 else { continue }
      let flipped = "Etc/GMT" + (hours > 0 ? "-\(hours)" : "+\(-hours)")
      out.append(
        ScenarioWarning(
          file: file, key: prefix + key,
          message: "\(name) is UTC\(hours > 0 ? "−" : "+")\(abs(hours)) (the IANA database's sign is POSIX's, the opposite of how it "
            + "reads); for UTC\(hours > 0 ? "+" : "−")\(abs(hours)) write \(flipped)"))
    }
    if ios, let every = plan.protocolPlan.silentPushEvery, Double(every) < PushBudget.refill {
      out.append(
        ScenarioWarning(
          file: file, key: prefix + "protocol.silent_push",
          message:
            "a silent push every \(Units.formatDuration(every)) is more than iOS's budget of \(Int(PushBudget.perHour)) an hour "
            + "(Apple: 'two or three per hour'); on iPhones the extra pushes are held and delivered at the budget's pace"))
    }
    return out
  }

  /// The warnings of the scenario as a whole: its outputs and its presets.
  static func check(
    _ root: ScenarioValue, outputs: OutputSettings, variants: [(name: String, plan: StudyPlan)], file: String
  ) -> [ScenarioWarning] {
    var out: [ScenarioWarning] = []
    if outputs.awareESM && variants.contains(where: { $0.plan.systems.contains { $0.os == .android && $0.share > 0 } }) {
      out.append(
        ScenarioWarning(
          file: file, key: "outputs.aware_esm", message: "the rows are the AWARE iOS ESM plugin's: Android participants have none"))
    }
    if outputs.beiweSensors {
      // Sensors Beiwe has no stream for are counted in coverage.csv but not written.
      var unwritten: [String] = []
      for (_, plan) in variants {
        for s in plan.protocolPlan.sensors where s.beiweStream == nil && !unwritten.contains(s.name) { unwritten.append(s.name) }
      }
      if !unwritten.isEmpty {
        out.append(
          ScenarioWarning(
            file: file, key: "outputs.beiwe_sensors",
            message: "Beiwe has no stream for \(unwritten.joined(separator: ", ")): not written (gps, accel, gyro, magnetometer and devicemotion are)"))
      }
      let android = variants.contains { v in
        v.plan.systems.contains { $0.os == .android && $0.share > 0 } && v.plan.protocolPlan.sensors.contains { $0.beiweStream == "devicemotion" }
      }
      if android {
        out.append(
          ScenarioWarning(
            file: file, key: "outputs.beiwe_sensors",
            message: "devicemotion is an iPhone stream (Core Motion): Android participants have no devicemotion files"))
      }
    }
    // The Beiwe preset, in the base or in a variant.
    var trees: [(String, ScenarioValue?)] = [("protocol.preset", root["protocol"])]
    if case .sequence(let list, _)? = root["variants"] {
      for (i, v) in list.enumerated() { trees.append(("variants[\(i)].protocol.preset", v["protocol"])) }
    }
    for (key, proto) in trees where proto?["preset"] == .scalar("beiwe", nil) {
      out.append(
        ScenarioWarning(
          file: file, key: key,
          message: "Beiwe resends survey pushes an iPhone has not confirmed (every 180 minutes by default); esmsim does not"))
    }
    return out
  }
}
