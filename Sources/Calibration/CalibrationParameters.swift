import Foundation
import Scenarios
import StudyModel

extension Calibrator {
  /// A parameter the fit moves: its scenario key, how it maps to the unbounded coordinate the
  /// search uses (log-odds for shares, log for rates and scales, itself for changes), how it
  /// is set on and read from a ``CompliancePlan``, the search's first step, the range of
  /// plausible values (an estimate outside it is flagged), and the prior's sd: how far from
  /// the scenario's value (the defaults: what the corpus of real studies shows) the pilot
  /// must pull the parameter, on the search's scale (``Calibrator``).
  struct Parameter: Sendable {
    enum Scale: Sendable { case logit, log, plain }
    var key: String
    var scale: Scale
    var step: Double
    var prior = 1.0
    var plausible: ClosedRange<Double>
    /// The sd of the parameter between studies, where known: a pilot that cannot fit it has
    /// its predictions draw it (``Calibrator/trendParameters(plan:)``).
    var betweenStudies: Double? = nil
    var set: @Sendable (inout CompliancePlan, Double) -> Void
    var get: @Sendable (CompliancePlan) -> Double

    func coordinate(_ x: Double) -> Double {
      switch scale {
      case .logit:
        let p = min(max(x, 1e-9), 1 - 1e-9)
        return log(p / (1 - p))
      case .log: return log(max(x, 1e-12))
      case .plain: return x
      }
    }

    func value(_ u: Double) -> Double {
      switch scale {
      case .logit: 1 / (1 + exp(-u))
      case .log: exp(u)
      case .plain: u
      }
    }
  }

  /// A moment the fit matches: its name and its value on a pilot or a simulation of it.
  struct Moment: Sendable {
    var name: String
    var value: @Sendable (ComplianceMoments) -> Double
    /// The smallest standard error it is weighted by (a moment a pilot shows without spread,
    /// such as no break-off at all, is not weighted infinitely).
    var floor: Double
  }

  /// The moments a pilot shows: what is answered, how people differ and how the answers
  /// cluster and change over the days, and how long people take (the waits' quartiles and
  /// 90th percentile, on the log scale); each where the pilot can show it.
  static func moments(_ pilot: ComplianceMoments, recording: PilotRecording, firstDaysWindow w: Int) -> [Moment] {
    var out = [Moment(name: "answered share", value: \.rate, floor: 0.005)]
    if pilot.personShares.count >= 5 {
      out.append(Moment(name: "sd of participants' shares", value: \.personSpread, floor: 0.01))
    }
    if pilot.personShares.count >= 10 {
      out.append(Moment(name: "10th percentile of participants' shares", value: { $0.personQuantile(0.1) }, floor: 0.02))
    }
    if pilot.days >= 4 {
      let half = pilot.days / 2
      out.append(Moment(name: "later days over earlier", value: { $0.lateOverEarly(from: half) }, floor: 0.01))
    }
    if pilot.showsFirstDays(window: w) {
      out.append(Moment(name: "days \(w + 1)-\(w + 3) over days 1-\(w)", value: { $0.firstDaysRatio(window: w) }, floor: 0.01))
    }
    if pilot.persistence.isFinite {
      out.append(Moment(name: "answered after answered minus after missed", value: \.persistence, floor: 0.01))
    }
    if pilot.waits.count >= 20 {
      for q in [0.25, 0.5, 0.75, 0.9] {
        out.append(Moment(name: "log seconds to open, \(Int(q * 100))th percentile", value: { $0.logWait(q) }, floor: 0.05))
      }
    }
    if pilot.days >= 4 && pilot.waitChange(from: pilot.days / 2).isFinite {
      let half = pilot.days / 2
      out.append(Moment(name: "log median seconds to open, later days minus earlier", value: { $0.waitChange(from: half) }, floor: 0.05))
    }
    if recording.breakOffs && pilot.breakOffShare.isFinite {
      out.append(Moment(name: "share broken off", value: \.breakOffShare, floor: 0.003))
    }
    if showsSilentDays(pilot, recording: recording) {
      out.append(Moment(name: "share of days with nothing answered", value: \.silentDays, floor: 0.005))
    }
    return out
  }

  /// Whether the pilot shows its silent days (``ComplianceMoments/silentDays``) and with
  /// them its dead phones: records of every prompt sent (a platform that records only the
  /// prompts a phone showed has none from a dead phone), 2 days or more (a phone starts the
  /// study charged) and 40 participant-days with 2 prompts or more.
  static func showsSilentDays(_ pilot: ComplianceMoments, recording: PilotRecording) -> Bool {
    recording.prompts == .sent && pilot.days >= 2 && pilot.personDays.prompted >= 40
  }

  /// The parameters a fit can move, each identified by some of ``moments(_:recording:firstDaysWindow:)``
  /// (those a pilot cannot move are found by their effect and kept: ``calibrate``).
  static func parameters(_ pilot: ComplianceMoments, plan: StudyPlan, recording: PilotRecording) -> [Parameter] {
    levelParameters(pilot, plan: plan) + paceParameters(pilot, plan: plan, recording: recording)
      + phoneParameters(pilot, plan: plan, recording: recording)
  }

  /// The phones' life: how often people leave the phone unplugged at night (a phone run
  /// empty loses the rest of its day), from the days with nothing answered. The start: the
  /// scenario's value, else its device profiles' (weighted by their shares).
  static func phoneParameters(_ pilot: ComplianceMoments, plan: StudyPlan, recording: PilotRecording) -> [Parameter] {
    guard showsSilentDays(pilot, recording: recording) else { return [] }
    let profiles = plan.devicesMean(\.chargeNightly) ?? DeviceProfile.nonControlled.chargeNightly
    return [
      Parameter(
        key: "charge_nightly", scale: .logit, step: 0.6, plausible: 0.2...0.9999, set: { $0.chargeNightly = $1 },
        get: { $0.chargeNightly ?? profiles })
    ]
  }

  /// The willingness's: its level, spread, least engaged class, weekly and first days' change,
  /// and how misses persist.
  static func levelParameters(_ pilot: ComplianceMoments, plan: StudyPlan) -> [Parameter] {
    let lowest = plan.compliance.classes.indices.min { plan.compliance.classes[$0].level < plan.compliance.classes[$1].level } ?? 0
    let base = plan.compliance.classes
    var out: [Parameter] = [
      Parameter(
        key: "answer_probability", scale: .logit, step: 0.6, prior: 2, plausible: 0.02...0.9995,
        set: { $0.answerProbability = $1 }, get: { $0.answerProbability ?? CompliancePlan.meanWillingness($0.classes, shift: 0) }),
      Parameter(
        key: "spread_scale", scale: .log, step: 0.3, plausible: 0.05...8,
        set: { c, s in
          let mean = c.answerProbability
          for k in c.classes.indices { c.classes[k].spread = base[k].spread * s }
          c.answerProbability = mean
        }, get: { c in base.isEmpty || base[0].spread == 0 ? 1 : c.classes[0].spread / base[0].spread }),
    ]
    if base.count > 1 && pilot.personShares.count >= 10 {
      out.append(
        Parameter(
          key: "low_class_share", scale: .logit, step: 0.5, plausible: 0.001...0.9,
          set: { c, x in
            let mean = c.answerProbability
            let rest = base.indices.filter { $0 != lowest }.reduce(0) { $0 + base[$1].share }
            for k in c.classes.indices { c.classes[k].share = k == lowest ? x : base[k].share / max(rest, 1e-9) * (1 - x) }
            c.answerProbability = mean
          }, get: { $0.classes[lowest].share }))
    }
    let trends = trendParameters(plan: plan)
    if pilot.days >= 4 { out.append(trends[0]) }
    if pilot.showsFirstDays(window: plan.compliance.firstDaysWindow) { out.append(trends[1]) }
    if pilot.persistence.isFinite {
      out.append(
        Parameter(
          key: "miss_persistence", scale: .logit, step: 0.6, plausible: 0.005...0.95, set: { $0.missPersistence = $1 },
          get: \.missPersistence))
    }
    return out
  }

  /// The pace's (from the waits: looks, alerts, opening at once, busy, "when convenient"; the
  /// waits' change over the weeks) and the break-offs' rate.
  static func paceParameters(_ pilot: ComplianceMoments, plan: StudyPlan, recording: PilotRecording) -> [Parameter] {
    var out: [Parameter] = []
    if pilot.waits.count >= 20 {
      out += [
        Parameter(key: "looks_per_hour", scale: .log, step: 0.4, plausible: 0.2...120, set: { $0.looksPerHour = $1 }, get: \.looksPerHour),
        Parameter(key: "alert_odds", scale: .log, step: 0.5, plausible: 0.01...100, set: { $0.alertOdds = $1 }, get: \.alertOdds),
        Parameter(key: "at_once", scale: .logit, step: 0.6, plausible: 0.005...0.995, set: { $0.atOnce = $1 }, get: \.atOnce),
        Parameter(key: "busy", scale: .logit, step: 0.6, plausible: 0.005...0.995, set: { $0.busy = $1 }, get: \.busy),
        Parameter(
          key: "at_once_seconds", scale: .log, step: 0.4, plausible: 1...600, set: { $0.atOnceSeconds = $1 }, get: \.atOnceSeconds),
        Parameter(
          key: "deferral_shape", scale: .log, step: 0.4, plausible: 0.05...100, set: { $0.deferralShape = $1 },
          get: \.deferralShape),
      ]
      // The reaction to an alert heard: only waits to the opening show it (to the submission,
      // the answering's own minutes hide it).
      if recording.openings {
        out.append(
          Parameter(
            key: "reaction_seconds", scale: .log, step: 0.4, plausible: 1...300, set: { $0.reactionSeconds = $1 },
            get: \.reactionSeconds))
      }
    }
    if pilot.days >= 4 && pilot.waitChange(from: pilot.days / 2).isFinite {
      out.append(
        Parameter(
          key: "at_once_weekly_change", scale: .plain, step: 0.2, prior: 0.5, plausible: -3...3,
          set: { $0.atOnceWeeklyChange = $1 }, get: \.atOnceWeeklyChange))
    }
    let longest = (0..<max(plan.protocolPlan.schedules.count, 1)).map { plan.protocolPlan.survey(ofSchedule: $0).length }.max() ?? 1
    if recording.breakOffs && longest > 1 && pilot.breakOffShare.isFinite {
      out.append(
        Parameter(
          key: "break_off_per_minute", scale: .log, step: 0.5, plausible: 0.0005...2, set: { $0.breakOffPerMinute = $1 },
          get: \.breakOffPerMinute))
    }
    return out
  }

  /// The willingness's trends: the weekly change (every class moved together) and the first
  /// days' change, fitted where the pilot is long enough to show them (4 days; the first
  /// days' window and the 3 days after it, ``CompliancePlan/firstDaysWindow``). Each
  /// carries how much it differs between studies: where a pilot cannot fit it, the
  /// predictions draw it with that sd around the scenario's value (``Calibrator``), so that
  /// their intervals hold what a short pilot cannot say about the days after it. The sds are
  /// those of the corpus's five training studies' fits (`make validate-real`,
  /// docs/sources.md "Trends between studies").
  static let weeklyChangeBetweenStudies = 0.08
  static let firstDaysChangeBetweenStudies = 0.91

  static func trendParameters(plan: StudyPlan) -> [Parameter] {
    let base = plan.compliance.classes
    return [
      Parameter(
        key: "weekly_change", scale: .plain, step: 0.3, prior: 0.35, plausible: -4...4, betweenStudies: weeklyChangeBetweenStudies,
        set: { c, x in
          let shift = x - Self.meanWeeklyChange(base)
          for k in c.classes.indices { c.classes[k].weeklyChange = base[k].weeklyChange + shift }
        }, get: { Self.meanWeeklyChange($0.classes) }),
      Parameter(
        key: "first_days_change", scale: .plain, step: 0.3, prior: 1.5, plausible: -6...6, betweenStudies: firstDaysChangeBetweenStudies,
        set: { $0.firstDaysChange = $1 }, get: \.firstDaysChange),
    ]
  }

  /// The share-weighted mean weekly change of the classes.
  static func meanWeeklyChange(_ classes: [ComplianceClass]) -> Double {
    let total = classes.reduce(0) { $0 + $1.share }
    return total > 0 ? classes.reduce(0) { $0 + $1.share * $1.weeklyChange } / total : 0
  }

  /// What a pilot cannot show, kept at the scenario's values, with why.
  static func notIdentified(
    _ pilot: ComplianceMoments, recording: PilotRecording, fitted: [String], unmoved: [String] = []
  ) -> [String] {
    var out = [
      "state_dependence, state_correlation (the records carry no state)",
      "the classes' levels relative to each other, their weekly changes relative to each other, first_days_sd and weekly_change_sd (how much people differ in their trends: kept; the fit moves every class together)",
      "looks_sd, at_once_sd, busy_sd, busy_minutes, looks_away (how much people differ in their pace: kept)",
      "dismiss_share, completion, dropout_per_day, density_effect, length_effect, scheduled_boost (kept)",
    ]
    if !unmoved.isEmpty {
      out.append("\(unmoved.joined(separator: ", ")) (no figure of this pilot moves at the start: kept)")
    }
    if !fitted.contains("low_class_share") && !unmoved.contains("low_class_share") {
      out.append("low_class_share (fewer than 10 participants with 5 prompts, or one class: kept)")
    }
    if !fitted.contains("weekly_change") && !unmoved.contains("weekly_change") {
      out.append("weekly_change (a pilot of \(pilot.days) days: kept; predictions draw it with the sd between studies, \(weeklyChangeBetweenStudies))")
    }
    if !fitted.contains("first_days_change") && !unmoved.contains("first_days_change") {
      out.append("first_days_change (a pilot of \(pilot.days) days: kept; predictions draw it with the sd between studies, \(firstDaysChangeBetweenStudies))")
    }
    if !fitted.contains("looks_per_hour") && !unmoved.contains("looks_per_hour") {
      out.append(
        "looks_per_hour, alert_odds, at_once, at_once_seconds, busy, deferral_shape, reaction_seconds (fewer than 20 answered prompts with their times: kept)")
    } else if !recording.openings {
      out.append("reaction_seconds (the records time the submissions, not the openings: the answering hides the reaction; kept)")
    }
    if !fitted.contains("charge_nightly") && !unmoved.contains("charge_nightly") {
      out.append(
        recording.prompts == .sent
          ? "charge_nightly (fewer than 40 participant-days with 2 prompts or more: kept)"
          : "charge_nightly (the records hold only the prompts a phone showed, none of a dead phone: kept)")
    }
    if !fitted.contains("break_off_per_minute") && !unmoved.contains("break_off_per_minute") {
      out.append(
        recording.breakOffs
          ? "break_off_per_minute (the surveys have one item, or none was opened: kept)"
          : "break_off_per_minute (the records show no survey opened and left: the platform does not record one, or records openings of answers only; kept)")
    }
    return out
  }
}
