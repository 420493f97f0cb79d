import Foundation
import SimKernel
import StudyModel

/// The `protocol` section's sensors and questionnaire.
extension ScenarioResolver {
  func sensors(_ r: Reader) throws(ScenarioError) -> [SensorPlan] {
    let sr = try r.section("sensors")
    var out: [SensorPlan] = []
    for (name, value, at) in sr.pairs {
      guard name.count <= 64, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
        throw ScenarioError(file: r.file, key: sr.keyPath(name), at: at, r.context + "a sensor name is letters, digits and _")
      }
      let one = try Reader(file: r.file, path: sr.keyPath(name), node: value == .scalar("", nil) ? nil : (value.isEmptyScalar ? nil : value), context: r.context)
      _ = sr.raw(name)
      let base = SensorPlan.defaults(named: name)
      var s = base
      if one.has("events") {
        let kind = try one.string("events")
        switch kind {
        case "screen": s.kind = .screen
        case "battery": s.kind = .battery
        default: throw one.error("events", value["events"]?.location, "expected screen or battery, found '\(kind)'")
        }
      } else if one.has("hz") {
        let hz = try one.number("hz", default: 1, range: (1.0 / 3600)...1000)
        s.kind = .periodic(period: max(SimTime((1000 / hz).rounded()), 1))
      } else if case .periodic(let p) = base.kind {
        let t = try one.duration("every", default: p, range: Tick.millisecond...(Tick.hour))
        guard Tick.hour % t == 0 else {
          throw one.error("every", value["every"]?.location, "the period must divide an hour evenly (so that an hour's expected count is whole)")
        }
        s.kind = .periodic(period: t)
      }
      if case .periodic(let p) = s.kind, Tick.hour % p != 0 {
        throw one.error("hz", value["hz"]?.location, "the period (1000/hz ms) must divide an hour evenly")
      }
      s.needsNetwork = try one.bool("needs_network", default: base.needsNetwork)
      s.coprocessor = try one.bool("coprocessor", default: base.coprocessor)
      s.bytesPerRow = try one.integer("bytes_per_row", default: base.bytesPerRow, range: 1...1_000_000)
      if one.has("accuracy") && !s.usesLocation {
        throw one.error("accuracy", value["accuracy"]?.location, "accuracy applies to a location sensor (named location or gps)")
      }
      // Read (and so written by `esmsim show`) only for a location sensor, where it applies.
      if s.usesLocation { s.accuracy = try one.choice("accuracy", default: base.accuracy) }
      s.storage = try one.choice("storage", default: base.storage)
      try one.finish()
      sr.attach(name, one)
      out.append(s)
    }
    r.attach("sensors", sr)
    return out
  }

  func surveyPlan(_ r: Reader, id: String? = nil) throws(ScenarioError) -> SurveyPlan {
    let d = SurveyPlan()
    if id != nil && r.has("id") {
      throw r.error("id", r.raw("id")?.location, "a questionnaire's survey is named by the questionnaire's name")
    }
    let ownID: String
    if let id { ownID = id } else { ownID = try r.string("id", default: d.id, maxLength: 200) }
    var s = SurveyPlan(
      id: ownID, title: try r.string("title", default: d.title, maxLength: 2000),
      items: [])
    // The length a survey is described by (its items need not be listed): set now, it
    // holds whatever items are added.
    if r.has("length") { s.length = try r.integer("length", default: 1, range: 1...1_000) }
    guard let v = r.raw("items") else {
      s.items = d.items
      r.record("items", .sequence(d.items.map(Self.itemValue), nil))
      return s
    }
    guard case .sequence(let items, _) = v, !items.isEmpty, items.count <= 200 else {
      throw r.error("items", v.location, "expected a list of 1 to 200 items")
    }
    var resolved: [ScenarioValue] = []
    for (i, item) in items.enumerated() {
      let ir = try Reader(file: r.file, path: r.keyPath("items[\(i)]"), node: item, context: r.context)
      let id = try ir.string("id", default: "item\(i)", maxLength: 200)
      var it = SurveyItem(
        id: id, type: try ir.integer("type", default: 6, range: 1...16),
        title: try ir.string("title", default: "", maxLength: 2000),
        instructions: try ir.string("instructions", default: "", maxLength: 5000),
        options: (try ir.list("options") ?? []).map(\.0))
      it.noise = try ir.number("noise", default: 0, range: 0...100)
      try ir.finish()
      resolved.append(ir.resolvedValue)
      s.items.append(it)
    }
    r.record("items", .sequence(resolved, v.location))
    return s
  }
}

extension ScenarioResolver {
  /// An item as it appears resolved.
  static func itemValue(_ item: SurveyItem) -> ScenarioValue {
    .mapping(
      [
        ("id", .scalar(item.id, nil), nil), ("type", .scalar(String(item.type), nil), nil),
        ("title", .scalar(item.title, nil), nil), ("instructions", .scalar(item.instructions, nil), nil),
      ] + (item.options.isEmpty ? [] : [("options", .sequence(item.options.map { .scalar($0, nil) }, nil), nil)])
        + [("noise", .scalar(Units.format(item.noise), nil), nil)], nil)
  }
}

extension ScenarioValue {
  var isEmptyScalar: Bool {
    if case .scalar(let s, _) = self { return s.isEmpty || s == "~" || s == "null" }
    return false
  }
}

extension ChannelPlan {
  /// The channels by name: `ios_local`, `esmira`, `aware_ios`, `push`, `android_alarms`.
  public static func preset(_ name: String) -> ChannelPlan? {
    switch name {
    case "ios_local": .iosLocal
    case "esmira": .esmira
    case "aware_ios": .awareIOS
    case "push": .push
    default: nil
    }
  }

  static let presetNames = ["ios_local", "esmira", "aware_ios", "push"]
}

extension UploadPolicy: CaseIterable {
  public static let allCases: [UploadPolicy] = [.wifiWhileCharging, .immediateRetry, .continuous]
}
