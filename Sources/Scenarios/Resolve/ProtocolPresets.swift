import Foundation

/// Each platform's own protocol as its source defines it: `protocol: {preset: NAME}` fills in
/// these keys, and the file's own keys override them (`esmsim show` prints the result).
/// Keys a source does not define keep esmsim's defaults.
enum ProtocolPresets {
  /// The presets' protocol keys, as scenario text.
  static let text: [String: String] = [
    // The Mappiness thesis ([@MacKerron2012]): signals by APNs push from a server run every
    // 2 minutes, answerable until the next signal, 2 a day by default in 08:00–22:00, answers
    // volunteered at any time kept apart.
    "mappiness": """
      schedule: {algorithm: mappiness, per_day: 2}
      window: "08:00-22:00"
      channel: push
      expiry: until_next
      volunteered: true
      """,
    // ESMira's app notes ([@ESMiraNotes]): its iOS planner (55 pending, the next 4
    // repetitions, a background task about twice a day) and its upload (at once, retried every
    // 3 hours).
    "esmira": """
      channel: esmira
      upload: immediate_retry
      """,
    // PACO's defaults for an ESM schedule ([@PACO]: `Schedule`, `PacoNotificationAction`,
    // `EsmGenerator2`): 3 signals a day in 09:00–17:00, weekdays only (esmWeekends false),
    // at least 59 minutes apart by sequential rejection, answerable for 59 minutes, no
    // snooze. Delivery keeps esmsim's default channel (PACO's sources set none for iOS).
    "paco": """
      schedule: {algorithm: fixed-blocks, per_day: 3, min_gap: 59m, gap_method: sequential-rejection, weekdays: [mon, tue, wed, thu, fri]}
      window: "09:00-17:00"
      expiry: 59m
      """,
    // Beiwe's backend ([@BeiweBackend]): surveys pushed by the server. Its resending of
    // survey pushes the iPhone has not confirmed (every 180 minutes) is not simulated
    // (warned).
    "beiwe": """
      channel: push
      """,
    // AWARE's iOS ESM plugin ([@AWAREiOSESM]) and the AWARE-iOS paper ([@Nishiyama2020]): the
    // plugin's planner (stops at 56 pending) and uploads over wifi while charging.
    "aware": """
      channel: aware_ios
      upload: wifi_while_charging
      """,
  ]

  /// `tree` with its `protocol.preset` expanded (``Presets/expand(_:section:texts:reader:)``).
  static func expand(_ tree: ScenarioValue, reader r: Reader) throws(ScenarioError) -> ScenarioValue {
    try Presets.expand(tree, section: "protocol", texts: text, reader: r)
  }
}

/// The presets a scenario may name, for the planner's form.
public enum ScenarioPresets {
  /// The platforms' protocol presets, in order (`protocol: {preset: NAME}`).
  public static let protocolNames = ["mappiness", "esmira", "aware", "beiwe", "paco"]
  /// The people presets, in order (`population.compliance: {preset: NAME}`): the people fitted
  /// to each training study of the real-study corpus.
  public static let peopleNames = PeoplePresets.names
  /// A people preset in plain words (the name itself for an unknown one).
  public static func peopleLabel(_ name: String) -> String { PeoplePresets.label(name) }
  /// A protocol preset's keys as a tree (nil: no such preset).
  public static func protocolTree(_ name: String) -> ScenarioValue? { Presets.tree(name, texts: ProtocolPresets.text) }
}

/// Presets of a section (`protocol`, `population`), as scenario text.
enum Presets {
  /// The tree of a preset, or nil for an unknown name.
  static func tree(_ name: String, texts: [String: String]) -> ScenarioValue? {
    guard let text = texts[name] else { return nil }
    return try? ScenarioLoader.parse(Data(text.utf8), file: "preset \(name)")
  }

  /// `tree` with its `SECTION.preset` expanded: the preset's keys under the file's own (a
  /// preset's mapping is replaced whole where a variant would replace it). The `preset` key
  /// stays, for the record. `section` may be a path (`population.compliance`); `dropping`
  /// names the preset's keys to leave out, given the file's own section.
  static func expand(
    _ tree: ScenarioValue, section: String, texts: [String: String], reader r: Reader,
    dropping: (ScenarioValue) -> Set<String> = { _ in [] }
  ) throws(ScenarioError) -> ScenarioValue {
    let path = section.split(separator: ".").map(String.init)
    return try expand(tree, path: path[...], key: section, texts: texts, reader: r, dropping: dropping)
  }

  private static func expand(
    _ tree: ScenarioValue, path: ArraySlice<String>, key: String, texts: [String: String], reader r: Reader,
    dropping: (ScenarioValue) -> Set<String>
  ) throws(ScenarioError) -> ScenarioValue {
    guard let section = path.first, let part = tree[section] else { return tree }
    let expanded: ScenarioValue
    if path.count > 1 {
      expanded = try expand(part, path: path.dropFirst(), key: key, texts: texts, reader: r, dropping: dropping)
    } else {
      guard let node = part["preset"] else { return tree }
      let known = texts.keys.sorted().joined(separator: ", ")
      guard case .scalar(let name, let at) = node else {
        throw ScenarioError(file: r.file, key: key + ".preset", at: node.location, r.context + "expected one of \(known)")
      }
      guard let preset = Self.tree(name, texts: texts) else {
        throw ScenarioError(file: r.file, key: key + ".preset", at: at, r.context + "expected one of \(known), found '\(name)'")
      }
      let own = ScenarioValue.mapping(part.pairs.filter { $0.key != "preset" }, part.location)
      let dropped = dropping(own)
      let kept = ScenarioValue.mapping(preset.pairs.filter { !dropped.contains($0.key) }, preset.location)
      let merged = kept.overlaid(with: own, wholes: ScenarioResolver.replacedWhole, path: key)
      expanded = .mapping([("preset", .scalar(name, at), at)] + merged.pairs, part.location)
    }
    return .mapping(tree.pairs.map { $0.key == section ? ($0.key, expanded, $0.at) : $0 }, tree.location)
  }
}
