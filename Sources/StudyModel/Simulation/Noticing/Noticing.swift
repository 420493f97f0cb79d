#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel

/// Noticing: when the participant sees something that appears on the phone. An alert is
/// heard at once with the ringer mode's, the context's and the phone's chances (a silent
/// phone's is seen, if the phone is at hand; in the participant's Focus hours none is,
/// ``PhoneTraits/focused(at:)``); otherwise the next look at the phone finds it.
/// Looks come at the person's rate while they are awake with the phone at hand, and at a
/// share of it (``CompliancePlan/looksAway``) while the phone is not at hand (they go to it);
/// after sleep, the first look comes minutes after waking.
struct Noticing {
  /// Phone checks per tick while awake with the phone at hand, and ticks per check; the share
  /// of that rate while the phone is not at hand.
  let checksPerTick: Double
  let ticksPerCheck: Double
  let away: Double
  /// The phone's ringer mode.
  let ringer: RingerMode
  /// ``CompliancePlan/alertOdds`` and ``CompliancePlan/alertWindowExponent``.
  let alertAttention: (odds: Double, exponent: Double)
  /// Mean seconds from a heard alert to noticing it (``CompliancePlan/reactionSeconds``).
  let reactionSeconds: Double

  /// The chance an alert is heard in a quiet place with the phone at hand, by ringer mode
  /// (vibrate 0.7, sound 0.85: assumptions, D, below the 76–85 % that [@Mehrotra2016]'s
  /// participants said they noticed of notifications they went on to rate). Silent: not heard.
  static let heard = [0.0, 0.7, 0.85]
  /// The chance a silent phone's alert is seen as it arrives (the screen lights up), with
  /// the phone at hand, wherever the participant is; otherwise the next look finds it.
  /// [@Mehrotra2016] (C): alerts noticed as they arrived 85.4 % in silent mode, 84.6 % on
  /// vibrate; 0.63 gives the typical study's silent phones that ratio (1.01) of prompts noticed
  /// within a minute (`docs/validation.md` §4).
  static let silentSeen = 0.63

  /// An alert is heard half as often when the phone is not at hand: within arm's reach about
  /// half the time, in the same room about 90 % ([@Dey2011], A for the shares; the factor is
  /// an assumption, D).
  static let alertAwayFromHand = 0.5
  /// An alarm goes on ringing: heard away from the phone's reach more often (assumption, D).
  static let alarmAwayFromHand = 0.8
  /// Mean minutes from waking to the first look at the phone (assumption, D; "within
  /// minutes", [@Pielot2014], A).
  static let firstLookMinutes = 10.0
  /// The answer windows, in minutes, over which attention to alerts follows the window
  /// (``CompliancePlan/alertWindowExponent``): the training studies' range, 5 minutes to 4
  /// hours; a window outside it counts as its edge (assumption, D: no study beyond it).
  static let windowMinutes = 5.0...240.0
  /// The window the odds ``CompliancePlan/alertOdds`` are for: an hour.
  static let referenceWindowMinutes = 60.0

  /// The odds of noticing an alert of a prompt answerable for `window` (nil: no expiry):
  /// `base` (``CompliancePlan/alertOdds``) moved by `exponent`
  /// (``CompliancePlan/alertWindowExponent``).
  static func alertOdds(base: Double, exponent: Double, window: SimTime?) -> Double {
    guard exponent != 0 else { return base }
    return odds(base: base, exponent: exponent, held: heldMinutes(window))
  }

  /// The window in minutes as the odds count it: held to ``windowMinutes``.
  @inline(__always)
  static func heldMinutes(_ window: SimTime?) -> Double {
    let minutes = window.map { Double($0) / Double(Tick.minute) } ?? windowMinutes.upperBound
    return min(max(minutes, windowMinutes.lowerBound), windowMinutes.upperBound)
  }

  /// `base` moved by `exponent` for a window of `held` minutes.
  @inline(__always)
  static func odds(base: Double, exponent: Double, held: Double) -> Double {
    base * exp(exponent * log(referenceWindowMinutes / held))
  }

  /// The participant's odds for a prompt answerable for `window` (nil: no expiry). The last
  /// window's odds are kept: a schedule's fixed expiry, and every window held at 4 hours (a
  /// prompt answerable until the next signal, when that is far), repeat.
  mutating func alertOdds(window: SimTime?) -> Double {
    let (base, exponent) = alertAttention
    guard exponent != 0 else { return base }
    let held = Self.heldMinutes(window)
    if held != lastWindow.held {
      lastWindow = (held, Self.odds(base: base, exponent: exponent, held: held))
    }
    return lastWindow.odds
  }
  /// The window ``alertOdds(window:)`` last worked out (nan: none yet) and its odds.
  private var lastWindow = (held: Double.nan, odds: 0.0)

  /// How far ahead the search for the next look goes (numerical: three days always hold a
  /// wake and a look).
  static let searchHorizon = 3 * Tick.day

  init(person: Person, compliance: CompliancePlan) {
    checksPerTick = person.engagement.looksPerHour / Double(Tick.hour)
    ticksPerCheck = Double(Tick.hour) / person.engagement.looksPerHour
    ringer = person.ringer
    away = compliance.looksAway
    alertAttention = (compliance.alertOdds, compliance.alertWindowExponent)
    reactionSeconds = compliance.reactionSeconds
  }
}

extension ParticipantSimulation {
  /// When the participant notices an alert that appears on the phone at `t`: at once if it
  /// is heard, otherwise at the next look at the phone; after sleep, shortly after
  /// waking (nil: not within ``Noticing/searchHorizon``). `alertOdds`: how closely the
  /// participant attends to this alert (``Noticing/alertOdds(window:)``).
  mutating func noticeTime(after t: SimTime, alertOdds: Double) -> SimTime? {
    var k = life.timeline.index(at: t, from: timelineCursor)
    timelineCursor = k
    let episodes = life.timeline.episodes
    let first = episodes[k]
    if first.context != .asleep {
      var chance: Double
      let hearing = plan.dailyLife.conditions[first.context.rawValue].hearing
      if phone.focused(at: t) {
        // A Focus delivers quietly: no alert, the next look finds it (the draw is still
        // made, so that the participant's later draws stay as without the Focus).
        chance = 0
      } else if plan.protocolPlan.alarm {
        // An alarm rings whatever the ringer mode, and goes on ringing: heard where the
        // phone is within earshot.
        chance = hearing * (first.phoneAtHand ? 1.0 : Noticing.alarmAwayFromHand)
      } else if noticing.ringer == .silent {
        chance = first.phoneAtHand ? Noticing.silentSeen : 0
      } else {
        let reach = first.phoneAtHand ? 1.0 : Noticing.alertAwayFromHand
        chance = Noticing.heard[noticing.ringer.rawValue] * hearing * reach
      }
      // How closely people attend to their alerts moves the odds (1: as above).
      chance = Compliance.withOdds(chance, times: alertOdds)
      if streams.response.uniform() < chance {
        return t + Tick.seconds(streams.response.exponential(mean: noticing.reactionSeconds))
      }
    }
    // Next phone check: an exponential amount of "checking time" spent where the participant
    // is awake, at the full rate with the phone at hand and at its away share without; the
    // first look after waking is quick.
    var need = streams.response.exponential(mean: 1)  // in units of 1/rate
    let rate = noticing.checksPerTick
    var cursor = t
    let limit = t + Noticing.searchHorizon
    while k < episodes.count && cursor < limit {
      let e = episodes[k]
      if e.context == .asleep {
        // Waking: look at the phone within minutes.
        if k + 1 < episodes.count {
          let wake = episodes[k].end
          let look = wake + Tick.minutes(streams.response.exponential(mean: Noticing.firstLookMinutes))
          if look < limit { return look }
        }
        return nil
      }
      let share = e.phoneAtHand ? 1 : noticing.away
      if share > 0 {
        let available = Double(e.end - cursor) * rate * share
        if need <= available { return cursor + SimTime(need * noticing.ticksPerCheck / share) }
        need -= available
      }
      cursor = e.end
      k += 1
    }
    return nil
  }
}
