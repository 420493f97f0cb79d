import SimKernel

/// The ringer mode of a participant's phone ([@Mehrotra2016]).
public enum RingerMode: Int, Sendable, CaseIterable {
  case silent, vibrate, sound

  /// The names in scenario files (`population.phones.ringer`).
  public static let names = ["silent", "vibrate", "sound"]
}

/// A participant's traits, drawn once from the `traits` stream (so every variant of a
/// scenario has the same people: common random numbers).
public struct Person: Sendable {
  /// Index into the plan's device profiles.
  public let device: Int
  /// The phone's operating system.
  public let os: OperatingSystem
  /// How the person answers: their class, level, decline and speed (``Engagement``).
  public let engagement: Engagement
  /// The person's own probability of answering a noticed prompt (first study day).
  public var answerLevel: Double { engagement.level }
  /// Offset of the usual wake and bed times from the population's, minutes.
  public let sleepOffset: Double
  /// Goes out to work or study on weekdays.
  public let worksOutside: Bool
  /// Travels by public transport (otherwise drives).
  public let usesTransit: Bool
  /// The ringer mode the phone is in when prompts arrive.
  public let ringer: RingerMode
  /// The person's own level of the latent state, added to every context mean.
  public let stateLevel: Double
  /// The study day on which the person drops out (`Int.max`: never).
  public let dropoutDay: Int
  /// Phone checks (screen on and unlocked: the phone's own events, which wake an app and
  /// trigger unlock prompts) per waking hour with the phone at hand: about 90 over a 15-hour
  /// day (assumption, D; [@Pielot2014] find notifications typically viewed within minutes, with
  /// 56–63 notifications a day). A look that finds a prompt (``Engagement/looksPerHour``) is the
  /// person's own pace, set by the corpus and a pilot; these checks are the phone's load.
  public var checksPerHour: Double { 6.0 }
  /// Index into the plan's time zones.
  public let zone: Int
  /// Days after the study's first date on which the person joins (0: on it); their study
  /// days count from then (``StudyPlan/joining(on:)``).
  public let joinDay: Int

  /// Draws a person; their time zone from `zones` (a stream of its own, drawn only when the
  /// population lives in several zones, so that adding zones leaves every other trait alone),
  /// their answering from `answering` (``Engagement``, likewise).
  public init(
    plan: StudyPlan, stream s: inout RandomStream, zones: inout RandomStream, answering: inout RandomStream, joinDay: Int = 0
  ) {
    self.joinDay = joinDay
    zone = plan.timeZones.count > 1 ? zones.index(cumulative: plan.timeZones.map(\.share).cumulativeSums) : 0
    device = s.index(cumulative: plan.devices.map(\.share).cumulativeSums)
    os = plan.systems[s.index(cumulative: plan.systems.map(\.share).cumulativeSums)].os
    let c = plan.compliance
    let life = plan.dailyLife
    sleepOffset = s.normal(sd: Tick.inMinutes(life.personSD))
    worksOutside = s.bernoulli(life.worksOutside)
    usesTransit = s.bernoulli(life.transitShare)
    ringer = RingerMode(rawValue: s.index(cumulative: plan.phones.ringer.cumulativeSums))!
    stateLevel = s.normal(sd: life.state.personSD)
    engagement = Engagement(c, stateZ: life.state.personSD > 0 ? stateLevel / life.state.personSD : 0, stream: &answering)
    if c.dropoutPerDay > 0 {
      // The first day with a dropout: geometric, by inverse CDF.
      let day = s.geometricFailures(c.dropoutPerDay)
      dropoutDay = day < Double(Int.max / 2) ? Int(day) + 1 : Int.max
    } else {
      dropoutDay = .max
    }
  }
}

extension Array where Element == Double {
  /// Running sums, for drawing an index with probabilities proportional to the elements.
  var cumulativeSums: [Double] {
    var total = 0.0
    return map {
      total += $0
      return total
    }
  }
}
