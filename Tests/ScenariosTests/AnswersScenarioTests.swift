import Foundation
import SimKernel
import StudyModel
import Testing

@testable import Scenarios

@Suite("population.variables and protocol.items in a scenario")
struct AnswersScenarioTests {
  static let variables = """
    name: t
    population:
      person_predictors: [{name: neuroticism}]
      variables:
        - {name: stress, mean: 3, sd: 2, reversion: 1h}
        - {name: alone, kind: binary, share: 0.3}
        - name: mood
          mean: 50
          sd: 12
          reversion: 3h
          person_effects: {neuroticism: -4}
          effects: {stress: {slope: -3, slope_sd: 1, by: {neuroticism: -1}}}
          lagged: {stress: -2}

    """

  @Test("read with their defaults; an item's reliability sets its error from the variable's within-person sd")
  func keys() throws {
    let s = try resolve(Self.variables + "protocol:\n  items:\n    - {name: happy, measures: mood, reliability: 0.8, scale: slider}\n    - {name: calm, measures: mood, scale: likert 1-7, error_sd: 0.5, shown: 0.5}\n")
    let a = s.variants[0].plan.answers
    #expect(a.predictors == [PersonPredictor(name: "neuroticism", mean: 0, sd: 1)])
    #expect(a.variables.map(\.name) == ["stress", "alone", "mood"])
    #expect(a.variables[1].kind == .binary && a.variables[1].reversion == 2 * Tick.hour)
    #expect(abs(a.variables[1].mean - GSL.normalQuantile(0.3)) < 1e-12)
    #expect(a.variables[2].effects == [EffectPlan(source: 0, slope: -3, slopeSD: 1, by: [Moderation(predictor: 0, weight: -1)])])
    #expect(a.variables[2].lagged == [EffectPlan(source: 0, slope: -2)])
    let within = try #require(ParticipantAnswers.withinSD(a)[2])
    #expect(within > 12, "the effects add to mood's own spread: \(within)")
    #expect(abs(a.items[0].errorSD - within * (0.2 / 0.8).squareRoot()) < 1e-9)
    #expect(a.items[1].scale == .likert(low: 1, high: 7) && a.items[1].shown == 0.5)
    // A bipolar scale: either end may be negative (it was refused as not LOW-HIGH).
    for (text, low, high) in [("likert -3-3", -3, 3), ("likert -5--1", -5, -1), ("likert 0-10", 0, 10)] {
      let b = try resolve(Self.variables + "protocol:\n  items:\n    - {name: calm, measures: mood, scale: \(text)}\n")
      #expect(b.variants[0].plan.answers.items[0].scale == .likert(low: low, high: high), "\(text)")
    }
    #expect(s.outputs.answers, "answers.csv is on when variables are declared")
    // An effect of the engine's state: read (source EffectPlan.state), in the within-person sd.
    let linked = try resolve("name: t\npopulation:\n  variables: [{name: a, sd: 0.5, effects: {state: 2}}, {name: b, effects: {a: 1}}]\n")
    let la = linked.variants[0].plan.answers
    #expect(la.readsState && !a.readsState)
    #expect(la.variables[0].effects == [EffectPlan(source: EffectPlan.state, slope: 2)])
    let sds = ParticipantAnswers.withinSD(la)
    #expect(abs(sds[0]! - (0.25 + 4.0).squareRoot()) < 1e-9 && sds[1]! > sds[0]!, "\(sds)")
    // With company on, the state deviation varies more (p(1 − p)·(slope/sd)²), and an item's
    // reliability counts it (the item was too reliable: 0.66 where 0.5 was asked).
    let company = try resolve(
      "name: t\npopulation:\n  state: {sd: 12, company: {share: 0.5, slope: 24}}\n  variables: [{name: tension, sd: 0.3, effects: {state: -1}}]\n"
        + "protocol:\n  items: [{name: t1, measures: tension, reliability: 0.5}]\n")
    let ca = company.variants[0].plan.answers
    let withCompany = (0.09 + 1.0 * (1 + 0.25 * 4)).squareRoot()
    #expect(abs(ParticipantAnswers.withinSD(ca, stateVariance: 2)[0]! - withCompany) < 1e-9)
    #expect(abs(ca.items[0].errorSD - withCompany) < 1e-9, "\(ca.items[0].errorSD) against \(withCompany)")
    // More items than the survey is long: warned about by key (their answering time was a one-item survey's).
    let long = "name: t\npopulation: {variables: [{name: m}]}\nprotocol:\n  items: [{name: i1, measures: m}, {name: i2, measures: m}, {name: i3, measures: m}]\n"
    #expect(try resolve(long).warnings.contains { $0.key == "protocol.items" && $0.message.contains("3 items") })
    #expect(try !resolve(long + "  survey: {length: 3}\n").warnings.contains { $0.key == "protocol.items" })
    // An ordinal variable's mean changed nothing (its cuts moved with it): refused but its 0.
    let ordinal = "name: t\npopulation: {variables: [{name: o, kind: ordinal, shares: [0.2, 0.5, 0.3], mean: MEAN}]}\n"
    #expect(throws: ScenarioError.self) { try resolve(ordinal.replacingOccurrences(of: "MEAN", with: "5")) }
    #expect(try resolve(ordinal.replacingOccurrences(of: "MEAN", with: "0")).variants[0].plan.answers.variables.count == 1)
    let plain = try resolve("name: t\n")
    #expect(!plain.variants[0].plan.answers.isOn && !plain.outputs.answers)
    #expect(!plain.resolved.yaml().contains("variables"), "absent keys are not added to the resolved scenario")
  }

  @Test("refused by key: a later or unknown variable, a taken name, an unknown item target, a wrong scale")
  func refusals() {
    let cases: [(String, String, String)] = [
      ("population:\n  variables: [{name: mood, effects: {stress: 1}}, {name: stress}]", "population.variables[0].effects.stress", "earlier variable"),
      ("population:\n  variables: [{name: a}, {name: a}]", "population.variables[1].name", "taken"),
      ("population:\n  variables: [{name: status}]", "population.variables[0].name", "taken"),
      ("population:\n  variables: [{name: 2x}]", "population.variables[0].name", "column name"),
      ("population:\n  variables: [{name: a, kind: binary}, {name: b, lagged: {a: 1}}]", "population.variables[1].lagged.a", "binary"),
      ("population:\n  variables: [{name: state}]", "population.variables[0].name", "engine's latent state"),
      ("population:\n  variables: [{name: a, lagged: {state: 1}}]", "population.variables[0].lagged.state", "not simulated"),
      ("population:\n  variables: [{name: a, person_effects: {trait: 1}}]", "population.variables[0].person_effects.trait", "person_predictors"),
      ("population:\n  variables: [{name: a, reversion: 10s}]", "population.variables[0].reversion", "between"),
      ("population:\n  variables: [{name: a, colour: red}]", "population.variables[0].colour", "unknown key"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: b}]", "protocol.items[0].measures", "not a variable"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: a, scale: likert 7-1}]", "protocol.items[0].scale", "likert LOW-HIGH"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: a, scale: likert 3--3}]", "protocol.items[0].scale", "likert -3-3"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: a, scale: likert -3}]", "protocol.items[0].scale", "likert LOW-HIGH"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: a, error_sd: 1, reliability: 0.5}]", "protocol.items[0].error_sd", "not both"),
      ("population:\n  variables: [{name: a, kind: binary}, {name: b, effects: {a: 1}}]\nprotocol:\n  items: [{name: i, measures: b, reliability: 0.5}]", "protocol.items[0].reliability", "give error_sd"),
      ("population:\n  variables: [{name: a, kind: binary}]\nprotocol:\n  items: [{name: i, measures: a, reliability: 0.5}]", "protocol.items[0].reliability", "is binary"),
      ("protocol:\n  items: [{name: i, measures: a}]", "protocol.items", "population.variables"),
      ("population:\n  careless: {people: 0.1}", "population.careless", "population.variables"),
      ("outputs: {answers: true}", "outputs.answers", "population.variables"),
      ("population:\n  variables: [{name: a, kind: ordinal}]", "population.variables[0].shares", "needs shares"),
      ("population:\n  variables: [{name: a, kind: ordinal, shares: [0.5, 0.6]}]", "population.variables[0].shares", "sum to 1"),
      ("population:\n  variables: [{name: a, kind: ordinal, shares: [1]}]", "population.variables[0].shares", "2 to 10 categories summing to 1"),
      ("population:\n  variables: [{name: a}]\nprotocol:\n  items: [{name: i, measures: a, reliability: 0.5, loading: 0}]", "protocol.items[0].loading", "has no reliability"),
      ("population:\n  variables: [{name: a, kind: ordinal, shares: [0.5, 0.5], share: 0.3}]", "population.variables[0].share", "takes shares"),
      ("population:\n  variables: [{name: a, kind: ordinal, shares: [0.5, 0.5]}, {name: b, lagged: {a: 1}}]", "population.variables[1].lagged.a", "ordinal"),
    ]
    for (text, key, words) in cases {
      let e = problem("name: t\n" + text + "\n")
      #expect(e?.key == key, "\(text): \(String(describing: e))")
      #expect(e?.message.contains(words) == true, "\(text): \(String(describing: e))")
    }
  }

  @Test("careless responding that can straight-line no item (none, or every one on the number scale) is warned about by key")
  func carelessWithoutScale() throws {
    let base = "name: t\npopulation:\n  variables: [{name: a}]\n  careless: {people: 0.3}\n"
    for (items, warned) in [("", true), ("protocol:\n  items: [{name: i, measures: a}]\n", true),
                            ("protocol:\n  items: [{name: i, measures: a}, {name: j, measures: a, scale: slider}]\n", false)] {
      let s = try resolve(base + items)
      let w = s.warnings.filter { $0.key == "population.careless" }
      #expect(w.isEmpty != warned, "\(items): \(s.warnings)")
      #expect(w.allSatisfy { $0.message.contains("straight-lines no answer") })
    }
    #expect(try resolve("name: t\npopulation:\n  variables: [{name: a}]\n  careless: {people: 0}\nprotocol:\n  items: [{name: i, measures: a}]\n").warnings.isEmpty)
  }

  @Test("an ordinal variable falls in each category at its share; another variable takes its category as a source")
  func ordinal() throws {
    let s = try resolve("""
      name: t
      population:
        variables:
          - {name: urge, kind: ordinal, shares: [0.2, 0.5, 0.3], person_sd: 0.5, reversion: 1h}
          - {name: mood, mean: 50, sd: 1, effects: {urge: -10}}

      """)
    let a = s.variants[0].plan.answers
    #expect(a.variables[0].kind == .ordinal && a.variables[0].cuts.count == 2)
    #expect(ParticipantAnswers.withinSD(a)[0] == nil && ParticipantAnswers.withinSD(a)[1] == nil)
    let n = 20_000
    var counts = [0, 0, 0]
    var moodByCategory = [0.0, 0.0, 0.0]
    for p in 0..<n {
      var stream = RandomStream(StreamAddress(seed: 9, replication: 0, participant: UInt32(p), purpose: .answers))
      let d = ParticipantAnswers.draw(a, times: [0], stream: &stream)
      let category = Int(d.values[0][0])
      counts[category - 1] += 1
      moodByCategory[category - 1] += d.values[0][1]
    }
    for (k, share) in [0.2, 0.5, 0.3].enumerated() {
      let seen = Double(counts[k]) / Double(n)
      #expect(abs(seen - share) < 4 * (share * (1 - share) / Double(n)).squareRoot(), "category \(k + 1): \(seen)")
    }
    // mood = 50 + own (sd 1) − 10 × category: each category's mean within 4 se of 50 − 10k.
    for k in 0..<3 {
      let mean = moodByCategory[k] / Double(counts[k])
      #expect(abs(mean - (50 - 10 * Double(k + 1))) < 4 / Double(counts[k]).squareRoot(), "mood in category \(k + 1): \(mean)")
    }
  }
}
