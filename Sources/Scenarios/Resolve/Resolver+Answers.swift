import SimKernel
import StudyModel

/// The answers researchers analyse: `population.person_predictors`, `population.variables`,
/// `population.careless` (read with the population) and `protocol.items` (with the protocol).
/// Recorded in the resolved scenario only when given.
extension ScenarioResolver {
  /// Columns of `answers.csv` a name may not take.
  static let answerColumns: Set<String> = [
    "variant", "replication", "participant", "prompt", "day", "questionnaire", "scheduled", "status", "answered", "careless",
  ]

  /// `population.person_predictors`, `population.variables` and `population.careless`.
  func answers(_ r: Reader, into plan: inout StudyPlan) throws(ScenarioError) {
    var a = AnswersPlan()
    var names: [String] = []
    let predictors = try entries(r, "person_predictors", limit: ScenarioLimits.predictors)
    for q in predictors {
      let name = try answerName(q, taken: &names)
      a.predictors.append(
        PersonPredictor(name: name, mean: try q.number("mean", default: 0, range: -1e6...1e6), sd: try q.number("sd", default: 1, range: 0...1e6)))
      try q.finish()
    }
    record(r, "person_predictors", predictors)
    let variables = try entries(r, "variables", limit: ScenarioLimits.variables)
    for q in variables {
      a.variables.append(try variable(q, plan: a, names: &names))
      try q.finish()
    }
    record(r, "variables", variables)
    if !a.predictors.isEmpty && a.variables.isEmpty {
      throw r.error("person_predictors", r.raw("person_predictors")?.location, "person-level predictors act on population.variables: declare them")
    }
    if r.has("careless") && a.variables.isEmpty {
      throw r.error("careless", r.raw("careless")?.location, "careless responding needs population.variables and protocol.items")
    }
    if r.has("careless") {
      let c = try r.section("careless")
      a.careless = CarelessPlan(people: try c.share("people", default: 0), prompts: try c.share("prompts", default: 1))
      if c.has("seconds_per_item") { a.careless.secondsPerItem = try c.number("seconds_per_item", default: 1, range: 0.1...60) }
      try c.finish()
      r.attach("careless", c)
    }
    plan.answers = a
  }

  /// `protocol.items`: each measures a variable of `population.variables`.
  func items(_ r: Reader, into plan: inout StudyPlan) throws(ScenarioError) {
    var names = plan.answers.predictors.map(\.name) + plan.answers.variables.map(\.name)
    let list = try entries(r, "items", limit: ScenarioLimits.items)
    guard list.isEmpty || plan.answers.isOn else {
      throw r.error("items", r.raw("items")?.location, "items measure variables: declare them in population.variables")
    }
    let within = ParticipantAnswers.withinSD(
      plan.answers, stateVariance: ParticipantAnswers.stateDeviationVariance(plan.dailyLife.state))
    for q in list {
      let name = try answerName(q, taken: &names)
      let measured = try q.string("measures")
      guard let v = plan.answers.variables.firstIndex(where: { $0.name == measured }) else {
        throw q.error("measures", q.raw("measures")?.location, "'\(measured)' is not a variable of population.variables")
      }
      var item = ItemPlan(name: name, variable: v, errorSD: 0)
      item.loading = try q.number("loading", default: 1, range: -1e6...1e6)
      item.intercept = try q.number("intercept", default: 0, range: -1e6...1e6)
      if q.has("reliability") {
        if q.has("error_sd") { throw q.error("error_sd", q.raw("error_sd")?.location, "give error_sd or reliability, not both") }
        let r = try q.number("reliability", default: 1, range: 0.01...1)
        guard let sd = within[v] else {
          throw q.error("reliability", q.raw("reliability")?.location,
            "'\(measured)' is binary or ordinal, or one acts on it, so its within-person sd is not one number: give error_sd")
        }
        guard item.loading != 0 else {
          throw q.error("loading", q.raw("loading")?.location,
            "an item that does not load on its variable (loading 0) has no reliability: give error_sd")
        }
        item.errorSD = abs(item.loading) * sd * ((1 - r) / r).squareRoot()
      } else {
        item.errorSD = try q.number("error_sd", default: 0, range: 0...1e6)
      }
      item.scale = try scale(q)
      item.shown = try q.number("shown", default: 1, range: 0.01...1)
      try q.finish()
      plan.answers.items.append(item)
    }
    record(r, "items", list)
  }

  /// Warns when `protocol.items` lists more items than a prompt's survey is long: the answers
  /// get every item, but the answering time and its burden (break-offs, careless responding's
  /// time) are the survey's (`protocol.survey.length`), which the items do not lengthen.
  mutating func warnItemsBeyondSurvey(_ r: Reader, _ plan: StudyPlan) {
    let n = plan.answers.items.count
    let surveys = [plan.protocolPlan.survey] + plan.protocolPlan.schedules.compactMap(\.survey)
    guard n > 0, let shortest = surveys.map(\.length).min(), shortest < n else { return }
    warn(
      ScenarioWarning(
        file: file, key: r.keyPath("items"),
        message: r.context
          + "\(n) items, but a prompt's survey is \(shortest) long: answering time and its burden are those of \(shortest) (the items do not lengthen the survey); set protocol.survey.length to the questionnaire's length"))
  }

  /// One variable: its kind, mean (or a binary's share), spreads, time constant and effects.
  func variable(_ q: Reader, plan a: AnswersPlan, names: inout [String]) throws(ScenarioError) -> VariablePlan {
    let name = try answerName(q, taken: &names)
    let kind = try q.choice("kind", default: VariablePlan.Kind.continuous)
    let personSD = try q.number("person_sd", default: 0, range: 0...1e6)
    let sd = try q.number("sd", default: 1, range: 1e-6...1e6)
    var mean: Double
    var cuts: [Double] = []
    if kind == .ordinal {
      (mean, cuts) = try ordinal(q, spread: (sd * sd + personSD * personSD).squareRoot())
    } else if kind == .binary && q.has("share") {
      if q.has("mean") { throw q.error("mean", q.raw("mean")?.location, "a binary variable takes share or mean, not both") }
      let share = try q.number("share", default: 0.5, range: 0.001...0.999)
      mean = GSL.normalQuantile(share) * (sd * sd + personSD * personSD).squareRoot()
    } else {
      mean = try q.number("mean", default: 0, range: -1e6...1e6)
    }
    var v = VariablePlan(
      name: name, mean: mean, personSD: personSD, sd: sd,
      reversion: try q.duration("reversion", default: 2 * Tick.hour, range: Tick.minute...(30 * Tick.day)))
    v.kind = kind
    v.cuts = cuts
    v.reversionSpread = try q.number("reversion_spread", default: 0, range: 0...3)
    v.personEffects = try weights(q, "person_effects", among: a.predictors.map(\.name), what: "person_predictors")
    let earlier = a.variables.map(\.name)
    v.effects = try effects(q, "effects", among: earlier, plan: a, lagged: false)
    v.lagged = try effects(q, "lagged", among: earlier, plan: a, lagged: true)
    return v
  }

  /// An ordinal variable's latent mean (0) and cut points: `shares`, each category's share
  /// (2–10 of them, summing to 1), cut at the normal quantiles of their running sums times
  /// the latent's sd (within and between people), so that a person at the mean without
  /// effects falls in each category at about its share.
  func ordinal(_ q: Reader, spread: Double) throws(ScenarioError) -> (mean: Double, cuts: [Double]) {
    if q.has("share") { throw q.error("share", q.raw("share")?.location, "an ordinal variable takes shares, a list of its categories' shares") }
    guard let listed = try q.list("shares") else {
      throw q.error("shares", nil, "an ordinal variable needs shares, for example [0.2, 0.5, 0.3] (categories 1, 2, 3)")
    }
    var shares: [Double] = []
    for (text, at) in listed {
      guard let x = Double(text), x > 0, x < 1 else {
        throw q.error("shares", at, "each category's share is a number above 0 and below 1 (2 to 10 categories summing to 1), not '\(text)'")
      }
      shares.append(x)
    }
    guard (2...10).contains(shares.count) else { throw q.error("shares", q.raw("shares")?.location, "2 to 10 categories, not \(shares.count)") }
    let total = shares.reduce(0, +)
    guard abs(total - 1) < 1e-6 else { throw q.error("shares", q.raw("shares")?.location, "shares must sum to 1, they sum to \(total)") }
    // The shares place the categories; a latent mean would move the cuts with it and change
    // nothing, so only its 0 (as `esmsim show` writes it) is taken.
    let mean = try q.number("mean", default: 0, range: -1e6...1e6)
    guard mean == 0 else {
      throw q.error("mean", q.raw("mean")?.location, "an ordinal variable's categories are set by its shares (a mean would change nothing): move them with shares")
    }
    var running = 0.0
    return (mean, shares.dropLast().map { s in
      running += s
      return mean + GSL.normalQuantile(min(running, 1 - 1e-12)) * spread
    })
  }

  /// A mapping of earlier variables' names to a slope or {slope, slope_sd, by}.
  func effects(_ q: Reader, _ key: String, among earlier: [String], plan a: AnswersPlan, lagged: Bool) throws(ScenarioError)
    -> [EffectPlan]
  {
    guard let v = q.raw(key) else { return [] }
    guard case .mapping(let pairs, let at) = v else {
      throw q.error(key, v.location, "expected effects by variable, for example {stress: -3} or {stress: {slope: -3, slope_sd: 1}}")
    }
    var out: [EffectPlan] = []
    var resolved: [(String, ScenarioValue, ScenarioValue.Location?)] = []
    for (name, value, kat) in pairs {
      let path = q.keyPath(key) + "." + name
      if name == Self.stateSource && lagged {
        throw ScenarioError(file: q.file, key: path, at: kat, q.context
          + "a lagged effect of the engine's state is not simulated (the state acts on a variable at the same moment: give it under effects)")
      }
      guard let source = name == Self.stateSource ? EffectPlan.state : earlier.firstIndex(of: name) else {
        throw ScenarioError(file: q.file, key: path, at: kat, q.context
          + "'\(name)' is not an earlier variable (effects name variables listed before this one, or state, the engine's latent state; feedback loops are not simulated)")
      }
      if lagged && source >= 0 && a.variables[source].kind != .continuous {
        throw ScenarioError(file: q.file, key: path, at: kat, q.context + "a lagged effect acts through a continuous variable; '\(name)' is \(a.variables[source].kind.rawValue)")
      }
      let e: Reader
      if case .scalar = value {
        e = try Reader(file: q.file, path: path, node: .mapping([("slope", value, kat)], kat), context: q.context)
      } else {
        e = try Reader(file: q.file, path: path, node: value, context: q.context)
      }
      let slope = try e.number("slope", default: 0, range: -1e6...1e6)
      let slopeSD = try e.number("slope_sd", default: 0, range: 0...1e6)
      let by = try weights(e, "by", among: a.predictors.map(\.name), what: "person_predictors")
      try e.finish()
      out.append(EffectPlan(source: source, slope: slope, slopeSD: slopeSD, by: by))
      resolved.append((name, e.resolvedValue, kat))
    }
    q.record(key, .mapping(resolved, at))
    return out
  }

  /// A mapping of person-level predictors' names to weights.
  func weights(_ q: Reader, _ key: String, among known: [String], what: String) throws(ScenarioError) -> [Moderation] {
    guard let v = q.raw(key) else { return [] }
    guard case .mapping(let pairs, let at) = v else {
      throw q.error(key, v.location, "expected weights by predictor, for example {neuroticism: 2}")
    }
    var out: [Moderation] = []
    for (name, value, kat) in pairs {
      let path = q.keyPath(key) + "." + name
      guard let p = known.firstIndex(of: name) else {
        throw ScenarioError(file: q.file, key: path, at: kat, q.context + "'\(name)' is not one of population.\(what)")
      }
      guard case .scalar(let s, _) = value, let x = Units.number(s), abs(x) <= 1e6 else {
        throw ScenarioError(file: q.file, key: path, at: value.location ?? kat, q.context + "expected a number")
      }
      out.append(Moderation(predictor: p, weight: x))
    }
    q.record(key, .mapping(out.map { (known[$0.predictor], .scalar(Units.format($0.weight), nil), nil) }, at))
    return out
  }

  /// An item's `scale`: number, slider, yes_no or likert LOW-HIGH.
  func scale(_ q: Reader) throws(ScenarioError) -> ItemPlan.Scale {
    let text = try q.string("scale", default: "number", maxLength: 40)
    switch text {
    case "number": return .number
    case "slider": return .slider
    case "yes_no": return .yesNo
    default:
      // LOW-HIGH, either end may be negative (a bipolar scale: likert -3-3): the dash between
      // them is the first after LOW's own sign.
      var parts: [Int?] = []
      if text.hasPrefix("likert ") {
        let body = text.dropFirst(7)
        if let dash = body.dropFirst().firstIndex(of: "-") {
          parts = [Int(body[..<dash]), Int(body[body.index(after: dash)...])]
        }
      }
      guard parts.count == 2, let low = parts[0], let high = parts[1], low < high, high - low <= 100 else {
        throw q.error(
          "scale", q.raw("scale")?.location,
          "expected number, slider, yes_no or likert LOW-HIGH (for example likert 1-7, or likert -3-3), found '\(text)'")
      }
      return .likert(low: low, high: high)
    }
  }

  /// A list of mappings under `key`, each read by its own reader (recorded when given).
  func entries(_ r: Reader, _ key: String, limit: Int) throws(ScenarioError) -> [Reader] {
    guard let v = r.raw(key) else { return [] }
    guard case .sequence(let list, _) = v, !list.isEmpty, list.count <= limit else {
      throw r.error(key, v.location, "expected a list of 1 to \(limit) entries, each a mapping with a name")
    }
    var readers: [Reader] = []
    for (i, item) in list.enumerated() {
      readers.append(try Reader(file: r.file, path: r.keyPath("\(key)[\(i)]"), node: item, context: r.context))
    }
    return readers
  }

  /// Records the entries of `key` once read (nothing when the file has none).
  func record(_ r: Reader, _ key: String, _ readers: [Reader]) {
    guard !readers.isEmpty else { return }
    r.record(key, .sequence(readers.map(\.resolvedValue), r.raw(key)?.location))
  }

  /// A name usable as a column (letters, digits, underscores; not starting with a digit),
  /// distinct from every other variable, predictor, item and fixed column.
  /// The name by which an effect takes the engine's latent state (``EffectPlan/state``).
  static let stateSource = "state"

  func answerName(_ q: Reader, taken names: inout [String]) throws(ScenarioError) -> String {
    let name = try q.string("name", maxLength: 40)
    let ok = !name.isEmpty && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
      && !(name.first!.isNumber)
    guard ok else {
      throw q.error("name", q.raw("name")?.location, "'\(name)' is not a column name (letters, digits and _, not starting with a digit)")
    }
    guard name != Self.stateSource else {
      throw q.error("name", q.raw("name")?.location, "'state' names the engine's latent state in effects (population.state); name the variable otherwise")
    }
    guard !names.contains(name), !Self.answerColumns.contains(name) else {
      throw q.error("name", q.raw("name")?.location, "'\(name)' is taken (by another variable, predictor or item, or a column of answers.csv)")
    }
    names.append(name)
    return name
  }
}

extension ScenarioResolver {
  /// Careless responding straight-lines items at a position of their scale; an item on the
  /// `number` scale has none and keeps its value: when every item is such, careless responding
  /// changes no answer (only, with `seconds_per_item`, the answering time), and is said so.
  mutating func warnCarelessWithoutScale(_ population: Reader, _ a: AnswersPlan) {
    guard a.careless.people > 0, a.careless.prompts > 0, !a.items.contains(where: { $0.scale != .number }) else { return }
    let what = a.items.isEmpty ? "there are no protocol.items" : "every item of protocol.items is on the number scale, which has no positions to straight-line"
    warn(
      ScenarioWarning(
        file: file, key: population.keyPath("careless"),
        message: population.context + "careless responding straight-lines no answer: \(what) (give items a scale: slider, likert or yes_no)"))
  }
}
