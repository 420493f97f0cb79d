#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel

/// Where the participant's phone is and how it moves, from their day's contexts: what the
/// passive sensor files (Beiwe's GPS, accelerometer, gyroscope, magnetometer, device motion)
/// hold at each sample, so that a pipeline (Beiwe's Forest, RAPIDS) finds places, trips and
/// activity where `prompts.csv` has the same person at home, at work, on the move or
/// exercising.
///
/// Each participant has four places of their own (home; work 2–15 km away; a place they meet
/// people and a park, each 0.5–5 km away), fixed by their number (a hash: the same in every
/// variant, and no random stream changes). Asleep and at home the phone is at home, at work
/// at work, in company at the social place, exercising on a 300 m loop round the park at a
/// jogging pace; in transit, underground or driving it goes in a straight line from the
/// place it left to the place it reaches next, at an even pace over the trip. A fix carries
/// a normal error of its accuracy's sd (10 m). The accelerometer reads gravity (−1 g on z)
/// plus noise that grows with movement: 0.01 g still, 0.05 g in a vehicle, a 2 Hz step of
/// 0.3 g exercising. All of it is an assumption (D) that makes the files move as the day
/// does; none of it is calibrated to real traces.
public struct Movement: Sendable {
  /// The participant's places (latitude, longitude in degrees).
  public let home: (Double, Double)
  public let work: (Double, Double)
  public let social: (Double, Double)
  public let park: (Double, Double)
  let timeline: Timeline
  var episodes: [Episode] { timeline.episodes }
  let participant: Int

  /// The GPS fix's accuracy (m), its error's sd.
  public static let accuracy = 10.0

  public init(participant: Int, timeline: Timeline) {
    self.participant = participant
    self.timeline = timeline
    // Homes on a 0.01° grid from 51.5 N, 0.1 W, as before places moved.
    let h = (51.5 + Double(participant % 50) * 0.01, -0.1 - Double(participant / 50 % 50) * 0.01)
    home = h
    work = Self.place(near: h, participant: participant, salt: 1, metres: 2_000...15_000)
    social = Self.place(near: h, participant: participant, salt: 3, metres: 500...5_000)
    park = Self.place(near: h, participant: participant, salt: 5, metres: 500...5_000)
  }

  /// A participant's place at a distance in `metres` from `home`, in a direction of its own.
  static func place(near home: (Double, Double), participant: Int, salt: UInt64, metres: ClosedRange<Double>) -> (Double, Double) {
    let distance = metres.lowerBound + (metres.upperBound - metres.lowerBound) * unit(UInt64(participant), salt)
    let angle = 2 * Double.pi * unit(UInt64(participant), salt &+ 1)
    return offset(home, north: distance * cos(angle), east: distance * sin(angle))
  }

  /// A point `north` and `east` metres from `p`.
  static func offset(_ p: (Double, Double), north: Double, east: Double) -> (Double, Double) {
    (p.0 + north / 111_320, p.1 + east / (111_320 * cos(p.0 * Double.pi / 180)))
  }

  /// The place of a context where the phone stays (nil: a context on the move).
  func place(_ c: Context) -> (Double, Double)? {
    switch c {
    case .asleep, .home: home
    case .work: work
    case .social: social
    case .exercise: park
    case .transit, .underground, .driving: nil
    }
  }

  /// The episode at `t` (the last one when `t` is past the timeline; nil: no episodes).
  func episode(at t: SimTime) -> Int? { episodes.isEmpty ? nil : timeline.index(at: t) }

  /// Whether the participant is on the move in episode `i`.
  func moving(_ i: Int) -> Bool { place(episodes[i].context) == nil }

  /// The phone's true position at `t` (before the fix's error).
  public func position(at t: SimTime) -> (Double, Double) {
    guard let i = episode(at: t) else { return home }
    let e = episodes[i]
    if e.context == .exercise {
      // Round a 300 m loop at 2.5 m/s (a lap every 2 minutes).
      let angle = 2 * Double.pi * Double(t - e.start) / Double(2 * Tick.minute)
      return Self.offset(park, north: 300 / (2 * Double.pi) * cos(angle), east: 300 / (2 * Double.pi) * sin(angle))
    }
    if let p = place(e.context) { return p }
    // A trip: the run of moving episodes around i, from the place before it to the one after.
    var first = i
    while first > 0 && moving(first - 1) { first -= 1 }
    var last = i
    while last + 1 < episodes.count && moving(last + 1) { last += 1 }
    let from = first > 0 ? place(episodes[first - 1].context)! : home
    let to = last + 1 < episodes.count ? place(episodes[last + 1].context)! : from
    let span = Double(episodes[last].end - episodes[first].start)
    let f = span > 0 ? min(max(Double(t - episodes[first].start) / span, 0), 1) : 0
    return (from.0 + (to.0 - from.0) * f, from.1 + (to.1 - from.1) * f)
  }

  /// A GPS fix at `t`: latitude, longitude (the position plus a normal error of
  /// ``accuracy`` metres' sd each way).
  public func fix(at t: SimTime) -> (latitude: Double, longitude: Double) {
    let p = position(at: t)
    let q = Self.offset(p, north: Self.accuracy * normal(t, 11), east: Self.accuracy * normal(t, 12))
    return (q.0, q.1)
  }

  /// The accelerometer at `t` (x, y, z in g): gravity on z plus the context's movement.
  public func acceleration(at t: SimTime) -> (Double, Double, Double) {
    let context = episode(at: t).map { episodes[$0].context } ?? .home
    switch context {
    case .exercise:
      let step = 0.3 * sin(2 * Double.pi * 2 * Double(t) / Double(Tick.second))
      return (0.05 * normal(t, 21), 0.05 * normal(t, 22), -1 + step + 0.05 * normal(t, 23))
    case .transit, .underground, .driving:
      return (0.05 * normal(t, 21), 0.05 * normal(t, 22), -1 + 0.05 * normal(t, 23))
    default:
      return (0.01 * normal(t, 21), 0.01 * normal(t, 22), -1 + 0.01 * normal(t, 23))
    }
  }

  /// The rotation rate at `t` (rad/s each axis): 0.01 still, 0.2 on the move, 1 exercising.
  public func rotation(at t: SimTime) -> (Double, Double, Double) {
    let context = episode(at: t).map { episodes[$0].context } ?? .home
    let sd: Double =
      switch context {
      case .exercise: 1
      case .transit, .underground, .driving: 0.2
      default: 0.01
      }
    return (sd * normal(t, 31), sd * normal(t, 32), sd * normal(t, 33))
  }

  /// The magnetometer at `t` (µT): the Earth's field in London (19 north, 0 east, 45 down)
  /// with 0.5 µT of noise each way.
  public func field(at t: SimTime) -> (Double, Double, Double) {
    (19 + 0.5 * normal(t, 41), 0.5 * normal(t, 42), -45 + 0.5 * normal(t, 43))
  }

  /// A standard normal fixed by the participant, the time and `salt` (a hash: the same in
  /// every file and whatever the threads).
  func normal(_ t: SimTime, _ salt: UInt64) -> Double {
    let key = UInt64(bitPattern: Int64(t)) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(participant) << 40 ^ salt
    let u1 = max(Self.unit(key, 1), 1e-300)
    let u2 = Self.unit(key, 2)
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// A uniform in [0, 1) from a key and a salt (``SplitMix``).
  static func unit(_ key: UInt64, _ salt: UInt64) -> Double {
    SplitMix.unit(SplitMix.mix(key &+ salt &* 0x9E37_79B9_7F4A_7C15))
  }
}
