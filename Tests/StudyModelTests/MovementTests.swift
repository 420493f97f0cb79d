#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel
import Testing

@testable import StudyModel

@Suite("Movement: where the phone is and how it moves, from the day's contexts")
struct MovementTests {
  /// A day: asleep, home, driving and transit to work, work, transit to the social place,
  /// social, exercise, driving home, home.
  static let day: [(Context, Int)] = [
    (.asleep, 420), (.home, 60), (.driving, 20), (.transit, 20), (.work, 480), (.transit, 30), (.social, 90),
    (.exercise, 60), (.driving, 30), (.home, 230),
  ]
  static func timeline() -> Timeline {
    var timeline = Timeline()
    var t: SimTime = 0
    for (c, minutes) in day {
      timeline.append(Episode(start: t, end: t + SimTime(minutes) * Tick.minute, context: c, phoneAtHand: true, network: .wifi))
      t += SimTime(minutes) * Tick.minute
    }
    return timeline
  }
  static func metres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let north = (a.0 - b.0) * 111_320
    let east = (a.1 - b.1) * 111_320 * cos(a.0 * Double.pi / 180)
    return (north * north + east * east).squareRoot()
  }
  static func minute(_ m: Double) -> SimTime { SimTime(m * Double(Tick.minute)) }

  @Test("each place where its context is; a trip goes evenly from the place left to the place reached")
  func places() {
    for participant in 0..<200 {
      let m = Movement(participant: participant, timeline: Self.timeline())
      #expect((2_000...15_000).contains(Self.metres(m.home, m.work).rounded()), "work \(Self.metres(m.home, m.work)) m away")
      #expect((500...5_000).contains(Self.metres(m.home, m.social).rounded()))
      #expect(Self.metres(m.position(at: Self.minute(100)), m.home) < 1e-6)
      #expect(Self.metres(m.position(at: Self.minute(600)), m.work) < 1e-6)
      #expect(Self.metres(m.position(at: Self.minute(1060)), m.social) < 1e-6)
      // Driving then transit, 480 → 520 minutes: halfway at 500.
      let half = m.position(at: Self.minute(500))
      let mid = ((m.home.0 + m.work.0) / 2, (m.home.1 + m.work.1) / 2)
      #expect(Self.metres(half, mid) < 1e-3)
      // Exercise: on a 300 m loop round the park (radius 300 / 2π).
      #expect(abs(Self.metres(m.position(at: Self.minute(1150.5)), m.park) - 300 / (2 * Double.pi)) < 0.5)
    }
  }

  @Test("fixes scatter round the position with the accuracy's sd; the accelerometer moves with the context")
  func noise() {
    let m = Movement(participant: 7, timeline: Self.timeline())
    // 5,000 fixes a second apart at home: each axis's error has sd 10 m (within 4 standard errors, 10/√(2n)).
    let n = 5_000
    let errors = (0..<n).map { k -> Double in
      let f = m.fix(at: Self.minute(1300) + SimTime(k) * Tick.second)
      return (f.latitude - m.home.0) * 111_320
    }
    let sd = (errors.reduce(0) { $0 + $1 * $1 } / Double(n)).squareRoot()
    #expect(abs(sd - 10) < 4 * 10 / (2 * Double(n)).squareRoot(), "\(sd)")
    func zSD(from minute: Double) -> Double {
      let z = (0..<1_000).map { m.acceleration(at: Self.minute(minute) + SimTime($0) * 137).2 }
      let mean = z.reduce(0, +) / 1_000
      return (z.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / 999).squareRoot()
    }
    let (home, exercise) = (zSD(from: 1300), zSD(from: 1150))
    #expect(home < 0.02 && exercise > 0.15, "still \(home) g, exercising \(exercise) g")
    // The same sample gives the same values (a hash of participant and time, no stream).
    #expect(m.fix(at: 12_345) == m.fix(at: 12_345))
  }
}

@Suite("Movement on simulated days: trips in the GPS fixes")
struct MovementTripTests {
  /// Stops in a series of fixes (time order): runs of fixes within 100 m of the run's first
  /// that last at least 5 minutes, each at its first fix.
  static func stops(_ fixes: [(t: SimTime, p: (Double, Double))]) -> [(Double, Double)] {
    var out: [(Double, Double)] = []
    var i = 0
    while i < fixes.count {
      var j = i
      while j + 1 < fixes.count && MovementTests.metres(fixes[j + 1].p, fixes[i].p) < 100 { j += 1 }
      if fixes[j].t - fixes[i].t >= 5 * Tick.minute { out.append(fixes[i].p) }
      i = j + 1
    }
    return out
  }

  /// Changes of place along a series of places (consecutive ones more than 200 m apart).
  static func changes(_ places: [(Double, Double)]) -> Int {
    zip(places, places.dropFirst()).filter { MovementTests.metres($0, $1) > 200 }.count
  }

  @Test("trips counted from GPS fixes by a stop/move segmentation equal the simulated trips within 10 %; places at their distances")
  func trips() {
    // Ideal phones, a fix a minute for a week: what the files of `outputs.beiwe_sensors` hold.
    let gps = SensorPlan(name: "location", kind: .periodic(period: Tick.minute))
    let plan = testPlan(days: 7, participants: 30, sensors: [gps]) { $0.compliance.dropoutPerDay = 0 }
    var fromFixes = 0
    var simulated = 0
    var workDistances: [Double] = []
    for k in 0..<plan.participants {
      let o = ParticipantSimulation.outcome(plan: plan, seed: 9, replication: 0, participant: UInt32(k), detail: .sensorSamples)
      let sensing = try! #require(o.sensing)
      var fixes: [(t: SimTime, p: (Double, Double))] = []
      sensing.samples(of: gps) { t in
        let f = sensing.movement.fix(at: t)
        fixes.append((t, (f.latitude, f.longitude)))
      }
      fromFixes += Self.changes(Self.stops(fixes))
      // The simulated trips: changes between the places of the stays (moving episodes left
      // out; stays shorter than the segmentation's 5 minutes cannot be seen and are left out too).
      let m = sensing.movement
      let stays = m.episodes.indices.filter { !m.moving($0) && m.episodes[$0].end - m.episodes[$0].start >= 5 * Tick.minute }
      simulated += Self.changes(stays.map { m.place(m.episodes[$0].context)! })
      workDistances.append(MovementTests.metres(m.home, m.work))
    }
    #expect(simulated > 200, "\(simulated) trips in 30 participant-weeks")
    #expect(abs(Double(fromFixes - simulated)) <= 0.1 * Double(simulated), "fixes \(fromFixes), simulated \(simulated)")
    #expect(workDistances.allSatisfy { (2_000...15_000).contains($0.rounded()) })
  }
}
