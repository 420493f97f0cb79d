import Foundation
import Scenarios
import SimKernel
import StudyModel

/// What a pilot shows of its participants' compliance, and what a simulation of it shows:
/// the same moments on both, so that the model's parameters can be chosen to match
/// (``Calibrator``). A prompt counts when it was shown; answered or not.
public struct ComplianceMoments: Sendable {
  /// One shown prompt: its participant (index), study day and local hour, whether it was
  /// answered, and the seconds from showing to submitting (nan unless answered).
  public struct Prompt: Sendable {
    var person: Int
    var day: Int
    var hour: Int
    var answered: Bool
    var latency: Double
  }

  public let prompts: [Prompt]
  public let people: Int

  /// Share of shown prompts answered.
  public var rate: Double { share(prompts) }
  /// Answered share and prompts shown by local hour (nil where no prompt was shown).
  public var byHour: [Int: (share: Double, count: Int)] {
    Dictionary(grouping: prompts, by: \.hour).mapValues { (share($0), $0.count) }
  }

  /// The sd of participants' answered shares beyond what chance gives them (the binomial
  /// variance of each share removed), participants with at least 5 prompts.
  public var personSpread: Double {
    var shares: [Double] = []
    var binomial = 0.0
    for group in byPerson where group.count >= 5 {
      let s = share(group)
      shares.append(s)
      binomial += s * (1 - s) / Double(group.count - 1)
    }
    guard shares.count >= 2 else { return .nan }
    let mean = shares.reduce(0, +) / Double(shares.count)
    let variance = shares.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(shares.count - 1)
    return max(variance - binomial / Double(shares.count), 0).squareRoot()
  }

  /// P(answered | the participant's previous prompt answered) − P(answered | not).
  public var persistence: Double {
    var after = [0, 0, 0, 0]  // yes after yes, after yes, yes after no, after no
    for group in byPerson {
      for (a, b) in zip(group, group.dropFirst()) {
        after[a.answered ? 1 : 3] += 1
        if b.answered { after[a.answered ? 0 : 2] += 1 }
      }
    }
    guard after[1] > 0, after[3] > 0 else { return .nan }
    return Double(after[0]) / Double(after[1]) - Double(after[2]) / Double(after[3])
  }

  /// The median seconds from showing to submitting, over answered prompts.
  public var medianLatency: Double {
    let l = prompts.compactMap { $0.answered && $0.latency.isFinite ? $0.latency : nil }.sorted()
    return l.isEmpty ? .nan : l[l.count / 2]
  }

  /// The answered share of days from `from` on against days before it (the decline).
  public func lateOverEarly(from: Int) -> Double {
    let early = prompts.filter { $0.day < from }
    let late = prompts.filter { $0.day >= from }
    guard !early.isEmpty, !late.isEmpty else { return .nan }
    return share(late) / share(early)
  }

  /// Each participant's prompts in order, participants in order (a fixed order: sums and
  /// resamples do not depend on hashing).
  var byPerson: [[Prompt]] {
    Dictionary(grouping: prompts, by: \.person).sorted { $0.key < $1.key }.map(\.value)
  }

  /// The days the pilot spans (the largest study day + 1).
  public var days: Int { (prompts.map(\.day).max() ?? -1) + 1 }

  func share(_ ps: [Prompt]) -> Double {
    ps.isEmpty ? .nan : Double(ps.filter(\.answered).count) / Double(ps.count)
  }

  /// A pilot's prompts: study days counted from each participant's first prompt's local date.
  public init(_ pilot: Pilot) {
    var index: [String: Int] = [:]
    var first: [Int: Int] = [:]
    var out: [Prompt] = []
    for p in pilot.prompts {
      let person = index[p.participant] ?? index.count
      index[p.participant] = person
      let local = p.shown / 1000 + Int64(p.utcOffsetMinutes) * 60
      let date = Int(local.floorDiv(86_400))
      if first[person] == nil { first[person] = date }
      let hour = Int((local - Int64(date) * 86_400) / 3600)
      let latency = p.submitted.map { Double($0 - p.shown) / 1000 } ?? .nan
      out.append(Prompt(person: person, day: date - first[person]!, hour: hour, answered: p.outcome == .answered, latency: latency))
    }
    prompts = out
    people = index.count
  }

  /// A simulation's prompts as the pilot's platform would have recorded them: delivered,
  /// not volunteered; for AWARE only iPhones' prompts with an outcome AWARE records.
  public init(_ outcomes: [ParticipantOutcome], awareRows: Bool) {
    var out: [Prompt] = []
    var people = 0
    for (k, o) in outcomes.enumerated() where !(awareRows && o.os != .ios) {
      people += 1
      for p in o.prompts where p.delivered >= 0 && !p.volunteered {
        if awareRows && !(p.status == .answered || p.status == .dismissed || p.status == .expired) { continue }
        let answered = p.status == .answered
        out.append(
          Prompt(
            person: k, day: Int(p.delivered / Tick.day), hour: Int((p.delivered % Tick.day) / Tick.hour), answered: answered,
            latency: answered ? Tick.inSeconds(p.submitted - p.delivered) : .nan))
      }
    }
    prompts = out
    self.people = people
  }

  init(prompts: [Prompt], people: Int) {
    self.prompts = prompts
    self.people = people
  }

  /// A bootstrap resample of participants (with replacement), from `s`.
  func resampled(_ s: inout RandomStream) -> ComplianceMoments {
    let groups = byPerson
    var out: [Prompt] = []
    for k in 0..<groups.count {
      let g = groups[Int(s.uniform() * Double(groups.count)) % groups.count]
      out += g.map { var p = $0; p.person = k; return p }
    }
    return ComplianceMoments(prompts: out, people: groups.count)
  }
}

extension Int64 {
  /// Division rounding towards minus infinity.
  func floorDiv(_ d: Int64) -> Int64 { self >= 0 ? self / d : -((-self + d - 1) / d) }
}
