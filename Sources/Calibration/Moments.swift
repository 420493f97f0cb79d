import Foundation
import Scenarios
import SimKernel
import StudyModel

/// What a pilot shows of its participants' compliance, and what a simulation of it shows:
/// the same moments on both, so that the model's parameters can be chosen to match
/// (``Calibrator``), and the same figures for the predictive check (``PredictiveCheck``).
/// A prompt counts when the platform records it (``PilotRecording``); answered or not.
public struct ComplianceMoments: Sendable {
  /// One recorded prompt: its participant (index), study day and local hour, whether it was
  /// opened and answered, the seconds from showing to opening (to submitting where openings
  /// are not recorded; nan if neither) and to submitting (nan unless answered).
  public struct Prompt: Sendable {
    var person: Int
    var day: Int
    var hour: Int
    var answered: Bool
    var started: Bool
    var wait: Double
    var latency: Double
  }

  public let prompts: [Prompt]
  public let people: Int
  /// A simulation's participants with a recorded prompt before the records' rule
  /// (`PilotRecording.keptAtLeast`) left some out; `people` otherwise.
  public let considered: Int

  /// Share of recorded prompts answered.
  public var rate: Double { share(prompts) }
  /// Answered share and prompts recorded by local hour (nil where none).
  public var byHour: [Int: (share: Double, count: Int)] {
    Dictionary(grouping: prompts, by: \.hour).mapValues { (share($0), $0.count) }
  }
  /// Answered share and prompts recorded by study day.
  public var byDay: [Int: (share: Double, count: Int)] {
    Dictionary(grouping: prompts, by: \.day).mapValues { (share($0), $0.count) }
  }

  /// The participants' answered shares, participants with at least 5 prompts.
  public var personShares: [Double] { byPerson.filter { $0.count >= 5 }.map(share) }

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

  /// The participant-days with at least 2 recorded prompts, and those of them on which none
  /// was answered (a phone that ran empty, a day away).
  public var personDays: (prompted: Int, silent: Int) {
    var counts: [Int: (prompts: Int, answered: Bool)] = [:]
    let span = days + 1
    for p in prompts {
      let key = p.person * span + p.day
      let c = counts[key] ?? (0, false)
      counts[key] = (c.prompts + 1, c.answered || p.answered)
    }
    let prompted = counts.values.filter { $0.prompts >= 2 }
    return (prompted.count, prompted.filter { !$0.answered }.count)
  }

  /// The share of ``personDays`` with nothing answered, nan without such days.
  public var silentDays: Double {
    let d = personDays
    return d.prompted > 0 ? Double(d.silent) / Double(d.prompted) : .nan
  }

  /// The waits (seconds from showing to opening, or to submitting where openings are not
  /// recorded) of answered prompts, sorted.
  public var waits: [Double] { prompts.compactMap { $0.answered && $0.wait.isFinite ? $0.wait : nil }.sorted() }

  /// The median wait.
  public var medianWait: Double { Self.quantile(waits, 0.5) }

  /// The `q` quantile of the waits' logarithm (log seconds, a wait under a second taken as
  /// one), nan without waits.
  public func logWait(_ q: Double) -> Double {
    let w = waits
    return w.isEmpty ? .nan : log(max(Self.quantile(w, q), 1))
  }

  /// The `q` quantile of the participants' answered shares (those with at least 5 prompts).
  public func personQuantile(_ q: Double) -> Double { Self.quantile(personShares.sorted(), q) }

  /// Whether the pilot is long enough to show the first days' change: the first `window`
  /// days and the 3 after them.
  public func showsFirstDays(window: Int) -> Bool { days >= window + 3 }

  /// The first days' change: the answered share of the 3 days after the first `window`
  /// against those days (days 3–5 against days 1–2 for a window of 2; nan for a pilot
  /// shorter than window + 3 days).
  public func firstDaysRatio(window: Int) -> Double {
    guard showsFirstDays(window: window) else { return .nan }
    let first = prompts.filter { $0.day < window }
    let next = prompts.filter { $0.day >= window && $0.day < window + 3 }
    guard !first.isEmpty, !next.isEmpty, share(first) > 0 else { return .nan }
    return share(next) / share(first)
  }

  /// The waits' tail: log(90th percentile / median) (the part that meets the expiry; the
  /// shortest waits are the reaction to an alert).
  public var waitTail: Double {
    let w = waits
    let (a, b) = (Self.quantile(w, 0.5), Self.quantile(w, 0.9))
    return a > 0 && b > 0 ? log(b / a) : .nan
  }

  /// How the participants' own paces differ: the sd of the log of each participant's median
  /// wait, participants with at least 5 answered prompts (nan for fewer than 3 of them).
  public var paceSpread: Double {
    let logs = byPerson.compactMap { g -> Double? in
      let w = g.compactMap { $0.answered && $0.wait.isFinite ? $0.wait : nil }.sorted()
      return w.count >= 5 ? log(max(Self.quantile(w, 0.5), 1)) : nil
    }
    guard logs.count >= 3 else { return .nan }
    let mean = logs.reduce(0, +) / Double(logs.count)
    return (logs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(logs.count - 1)).squareRoot()
  }

  /// The share of surveys opened and not submitted (broken off), nan when none was opened.
  public var breakOffShare: Double {
    let started = prompts.filter(\.started)
    return started.isEmpty ? .nan : Double(started.filter { !$0.answered }.count) / Double(started.count)
  }

  /// How the waits change over the pilot: the log of the median wait of days from `from` on
  /// over that of the days before (nan with fewer than 20 waits on either side).
  public func waitChange(from: Int) -> Double {
    func waits(late: Bool) -> [Double] {
      prompts.compactMap { ($0.day >= from) == late && $0.answered && $0.wait.isFinite ? $0.wait : nil }.sorted()
    }
    let (early, late) = (waits(late: false), waits(late: true))
    guard early.count >= 20, late.count >= 20 else { return .nan }
    return log(max(Self.quantile(late, 0.5), 1)) - log(max(Self.quantile(early, 0.5), 1))
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

  /// The `q` quantile of sorted values (R's type 7), nan when empty.
  static func quantile(_ sorted: [Double], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let h = Double(sorted.count - 1) * q
    let lo = Int(h.rounded(.down))
    let hi = min(lo + 1, sorted.count - 1)
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }

  /// A pilot's prompts: study days counted from each participant's first prompt's local date,
  /// the day and hour of the moment each prompt was planned (else shown).
  public init(_ pilot: Pilot) {
    var index: [String: Int] = [:]
    var first: [Int: Int] = [:]
    var out: [Prompt] = []
    let openings = pilot.recording.openings
    for p in pilot.prompts {
      let person = index[p.participant] ?? index.count
      index[p.participant] = person
      let local = p.planned / 1000 + Int64(p.utcOffsetMinutes) * 60
      let date = Int(local.floorDiv(86_400))
      if first[person] == nil { first[person] = date }
      let hour = Int((local - Int64(date) * 86_400) / 3600)
      let latency = p.submitted.map { Double($0 - p.shown) / 1000 } ?? .nan
      let wait = (openings ? p.opened : p.submitted).map { Double($0 - p.shown) / 1000 } ?? .nan
      out.append(
        Prompt(
          person: person, day: date - first[person]!, hour: hour, answered: p.outcome == .answered,
          started: openings && p.opened != nil, wait: wait, latency: latency))
    }
    prompts = out
    people = index.count
    considered = people
  }

  /// A simulation's prompts as the pilot's platform would have recorded them (not
  /// volunteered, before any dropout): every prompt sent (`sent`, its day and hour those of
  /// its schedule), those the phone showed (`shown`), or iPhones' prompts with an outcome
  /// AWARE records (`actedOnIPhones`); with `keptAtLeast`, only the participants with a
  /// recorded prompt who answered at least that share of them, the rule applied to those with
  /// at least ``keptMinimumPrompts`` prompts (as `lowest` reads the pilot).
  public init(_ outcomes: [ParticipantOutcome], recording: PilotRecording) {
    var out: [Prompt] = []
    var people = 0
    var considered = 0
    for (k, o) in outcomes.enumerated() where !(recording.prompts == .actedOnIPhones && o.os != .ios) {
      let mine = out.count
      for p in o.prompts where !p.volunteered && p.status != .droppedOut {
        let at: SimTime
        switch recording.prompts {
        case .sent: at = p.scheduled
        case .shown:
          guard p.delivered >= 0 else { continue }
          at = p.delivered
        case .actedOnIPhones:
          guard p.delivered >= 0, [.answered, .dismissed, .expired, .partial].contains(p.status) else { continue }
          at = p.delivered
        }
        let answered = p.status == .answered
        let shown = p.delivered >= 0 ? p.delivered : p.scheduled
        let opened = recording.openings && p.opened >= 0
        let waitEnd: SimTime = recording.openings ? p.opened : (answered ? p.submitted : -1)
        out.append(
          Prompt(
            person: k, day: Int(at / Tick.day), hour: Int((at % Tick.day) / Tick.hour), answered: answered, started: opened,
            wait: waitEnd >= 0 ? Tick.inSeconds(waitEnd - shown) : .nan,
            latency: answered ? Tick.inSeconds(p.submitted - shown) : .nan))
      }
      if let least = recording.keptAtLeast {
        let recorded = out[mine...]
        guard !recorded.isEmpty else { continue }  // no record: neither kept nor left out by the rule
        considered += 1
        guard Self.reaches(answered: recorded.filter(\.answered).count, of: recorded.count, least) else {
          out.removeSubrange(mine...)
          continue
        }
      }
      people += 1
    }
    prompts = out
    self.people = people
    self.considered = recording.keptAtLeast == nil ? people : considered
  }

  /// Participants with fewer recorded prompts are kept whatever their share (their share says
  /// little), in the pilot (`lowest`, the refusal) and in its simulations alike.
  public static let keptMinimumPrompts = 5

  /// Whether `answered` of `count` prompts reaches the records' rule `least` (a share read from
  /// the records, such as 2/3, is not exact in binary: a hair of tolerance).
  static func reaches(answered: Int, of count: Int, _ least: Double) -> Bool {
    count < keptMinimumPrompts || Double(answered) >= least * Double(count) - 1e-9
  }

  init(prompts: [Prompt], people: Int) {
    self.prompts = prompts
    self.people = people
    considered = people
  }

  /// The prompts for which `keep` holds, participants renumbered from 0 in order.
  public func filtered(_ keep: (_ person: Int, _ day: Int) -> Bool) -> ComplianceMoments {
    var index: [Int: Int] = [:]
    var out: [Prompt] = []
    for p in prompts where keep(p.person, p.day) {
      var q = p
      q.person = index[p.person] ?? index.count
      index[p.person] = q.person
      out.append(q)
    }
    return ComplianceMoments(prompts: out, people: index.count)
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
