import Schedules
import SimKernel

/// One fully resolved study (one variant of a scenario): who takes part, what the protocol
/// does, for how long. Built by the `Scenarios` module from a scenario file; the model never
/// sees a file format.
public struct StudyPlan: Sendable, Equatable {
  /// Study days.
  public var days: Int
  /// The weekday of the first study day (0 Monday … 6 Sunday).
  public var startWeekday: Int
  /// How many people take part.
  public var participants: Int
  /// Participants join on a day of their own among the first `enrolmentDays` days (uniform;
  /// 1: everyone on the first), each for `days` days from then (``Person/joinDay``).
  public var enrolmentDays = 1
  /// Device profiles and their shares.
  public var devices: [(profile: DeviceProfile, share: Double)]
  /// The mean of `value` over the device profiles, weighted by their shares (nil when the
  /// shares sum to 0).
  public func devicesMean(_ value: (DeviceProfile) -> Double) -> Double? {
    let total = devices.reduce(0) { $0 + $1.share }
    return total > 0 ? devices.reduce(0) { $0 + $1.share * value($1.profile) } / total : nil
  }
  /// Operating systems and their shares.
  public var systems: [(os: OperatingSystem, share: Double)]
  /// How participants' own phones differ (default: every phone as its device condition has it).
  public var phones = PhonePopulation()
  /// The participants' time zones and their shares (default: everyone in UTC).
  public var timeZones: [(zone: ZoneOffsets, share: Double)] = [(.utc, 1)]
  /// Their days.
  public var dailyLife: DailyLifePlan
  /// Their compliance.
  public var compliance: CompliancePlan
  /// The protocol.
  public var protocolPlan: ProtocolPlan
  /// The answers researchers analyse: variables, person-level predictors, items (empty:
  /// none; ``ParticipantAnswers``).
  public var answers = AnswersPlan()

  /// Creates a plan.
  public init(
    days: Int, startWeekday: Int = 0, participants: Int,
    devices: [(profile: DeviceProfile, share: Double)] = [(.ideal, 1)],
    systems: [(os: OperatingSystem, share: Double)] = [(.ios, 1)], dailyLife: DailyLifePlan = DailyLifePlan(),
    compliance: CompliancePlan = CompliancePlan(), protocolPlan: ProtocolPlan
  ) {
    self.days = days
    self.startWeekday = startWeekday
    self.participants = participants
    self.devices = devices
    self.systems = systems
    self.dailyLife = dailyLife
    self.compliance = compliance
    self.protocolPlan = protocolPlan
  }

  public static func == (a: StudyPlan, b: StudyPlan) -> Bool {
    a.days == b.days && a.startWeekday == b.startWeekday && a.participants == b.participants && a.enrolmentDays == b.enrolmentDays
      && a.devices.map(\.profile) == b.devices.map(\.profile) && a.devices.map(\.share) == b.devices.map(\.share)
      && a.systems.map(\.os) == b.systems.map(\.os) && a.systems.map(\.share) == b.systems.map(\.share)
      && a.phones == b.phones && a.timeZones.map(\.zone) == b.timeZones.map(\.zone) && a.timeZones.map(\.share) == b.timeZones.map(\.share)
      && a.dailyLife == b.dailyLife && a.compliance == b.compliance && a.protocolPlan == b.protocolPlan
      && a.answers == b.answers
  }

  /// The part of a day the schedules sample for a participant whose usual times are the
  /// population's (minutes after midnight): the envelope of every schedule part's sampling
  /// window; nil without schedules.
  public func typicalSamplingWindow(weekend: Bool = false) -> Block? {
    var lo = Double.infinity
    var hi = -Double.infinity
    for part in protocolPlan.schedules {
      let window: Window?
      switch part.window {
      case .fixed(let weekday, let weekendWindow):
        window = weekend ? weekendWindow : weekday
      case .participant(let afterWake, let beforeBed):
        window = try? Window(
          start: Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(dailyLife.weekdayWake) + afterWake)),
          end: Mappiness.quarterHour(ClockTime(minutes: Tick.inMinutes(dailyLife.weekdayBed) - beforeBed)))
      }
      guard let window else { continue }
      let sampling =
        part.choice.flatMap { try? AnyScheduler($0.algorithm, $0.parameters, window: window) }?.samplingWindow(for: window)
        ?? Block(start: 0, end: window.length)
      lo = min(lo, window.start.minutes + sampling.start)
      hi = max(hi, window.start.minutes + sampling.end)
    }
    return lo < hi ? Block(start: lo, end: hi) : nil
  }

  /// The length of the window the uniformity slots cut (720 minutes without schedules).
  public var referenceSamplingMinutes: Double { typicalSamplingWindow()?.length ?? 720 }

  /// The weekday of study day `day` (Monday 0).
  public func weekday(ofDay day: Int) -> Int { (startWeekday + day) % 7 }

  /// Whether study day `day` is a weekend day.
  public func isWeekend(_ day: Int) -> Bool { weekday(ofDay: day) >= 5 }

  /// Whether schedule part `part` signals on study day `day` (its weekdays, every n days, dates).
  public func signals(_ part: SchedulePart, onDay day: Int) -> Bool { part.isActive(day: day, weekday: weekday(ofDay: day)) }

  /// The study days schedule part `part` signals on, of the study's `days` (from its first weekday).
  public func signallingDays(_ part: SchedulePart) -> Int { (0..<days).filter { signals(part, onDay: $0) }.count }
}

extension StudyPlan {
  /// The plan as a participant who joins `k` days after the study's first date lives it:
  /// their study days start then, so their weekdays and their clocks' changes (their zones',
  /// the push server's) move by `k` days.
  public func joining(on k: Int) -> StudyPlan {
    guard k != 0 else { return self }
    var p = self
    p.startWeekday = (startWeekday + k) % 7
    p.timeZones = timeZones.map { ($0.zone.shifted(byDays: k), $0.share) }
    p.protocolPlan.serverZone = protocolPlan.serverZone.shifted(byDays: k)
    return p
  }
}
