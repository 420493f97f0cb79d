import Schedules
import SimKernel
import StudyModel

/// A small study for tests: `days` days, the given devices, Mappiness-style signals in a
/// fixed 08:00–22:00 window unless told otherwise.
func testPlan(
  days: Int = 7, participants: Int = 50, devices: [(DeviceProfile, Double)] = [(.ideal, 1)],
  systems: [(OperatingSystem, Double)] = [(.ios, 1)],
  schedule: ScheduleChoice = ScheduleChoice(.fixedBlocks, ScheduleParameters(perDay: 6)),
  window: WindowPlan? = nil, channel: ChannelPlan = .iosLocal, expiry: ExpiryPolicy = .after(30 * Tick.minute),
  sensors: [SensorPlan] = [], configure: (inout StudyPlan) -> Void = { _ in }
) -> StudyPlan {
  let w = try! Window(parsing: "08:00-22:00")
  var plan = StudyPlan(
    days: days, participants: participants, devices: devices.map { (profile: $0.0, share: $0.1) },
    systems: systems.map { (os: $0.0, share: $0.1) },
    protocolPlan: ProtocolPlan(
      schedules: [SchedulePart(schedule, window: window ?? .fixed(weekday: w, weekend: w))], channel: channel,
      expiry: expiry, sensors: sensors))
  configure(&plan)
  return plan
}

/// Runs every participant of a plan.
func outcomes(_ plan: StudyPlan, seed: UInt64 = 1, replication: UInt32 = 0, keepRows: Bool = false) -> [ParticipantOutcome] {
  (0..<plan.participants).map {
    ParticipantSimulation.outcome(plan: plan, seed: seed, replication: replication, participant: UInt32($0), detail: keepRows ? .coverageRows : [])
  }
}

extension Array where Element == ParticipantOutcome {
  var allPrompts: [PromptRecord] { flatMap(\.prompts) }
}

/// The AWARE-iOS case study's sensors.
let caseStudySensors: [SensorPlan] = [
  SensorPlan(name: "accelerometer", kind: .periodic(period: 200)),
  SensorPlan(name: "location", kind: .periodic(period: 3 * Tick.minute)),
  SensorPlan(name: "weather", kind: .periodic(period: 10 * Tick.minute), needsNetwork: true),
  SensorPlan(name: "pedometer", kind: .periodic(period: 10 * Tick.minute), coprocessor: true),
]

/// The answered share of the prompts due (volunteered answers left out) with its
/// cluster-robust standard error, participants as clusters.
func answeredShare(_ outcomes: [ParticipantOutcome]) -> (share: Double, se: Double) {
  let people = outcomes.map { $0.prompts.filter { !$0.volunteered } }
  let pairs = people.map { (Double($0.filter { $0.status == .answered }.count), Double($0.count)) }
  let (y, x) = pairs.reduce((0.0, 0.0)) { ($0.0 + $1.0, $0.1 + $1.1) }
  let r = y / x
  let n = Double(pairs.count)
  let ss = pairs.reduce(0.0) { $0 + ($1.0 - r * $1.1) * ($1.0 - r * $1.1) }
  return (r, (n / (n - 1) * ss).squareRoot() / x)
}
