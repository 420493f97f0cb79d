import SimKernel

/// How a prompt ended.
public enum PromptStatus: String, Sendable, CaseOrdered {
  /// Submitted.
  case answered
  /// Dismissed by the participant.
  case dismissed
  /// Delivered but not answered in time.
  case expired
  /// Arrived while the participant was inside another survey and was not counted
  /// (Mappiness `apn_ignored`; not rescheduled).
  case ignored
  /// Never reached the phone's screen.
  case undelivered
  /// Due after the participant dropped out.
  case droppedOut = "dropped_out"
  /// Opened and broken off part-way: the items answered so far (``PromptRecord/reached``)
  /// are all there is.
  case partial
}

/// Why a prompt was not answered.
public enum MissReason: String, Sendable, CaseOrdered {
  case none = ""
  /// The phone was off (battery empty, rebooting) when the prompt fell due.
  case phoneOff = "phone_off"
  /// Not on the phone: the app's plan stopped at the notification cap.
  case cap
  /// Not on the phone: the app did not run in time to plan it.
  case notRefilled = "not_refilled"
  /// A push held while offline was replaced by a newer one (APNs keeps one per app).
  case replaced
  /// A push held while offline expired before the phone came back.
  case offline
  /// Delivered during sleep and expired before the participant saw it.
  case asleep
  /// Delivered while awake but not noticed before it expired.
  case notNoticed = "not_noticed"
  /// Noticed; the participant did not want to answer.
  case unwilling
  /// Noticed and wanted to answer, but could not before it expired (driving…).
  case tooLate = "too_late"
  /// Arrived during another survey (Mappiness `apn_ignored`).
  case busy
  /// The participant had dropped out.
  case droppedOut = "dropped_out"
  /// The participant had removed the app.
  case appRemoved = "app_removed"
  /// Android: the phone maker's battery manager had force-stopped the app (its alarms
  /// cancelled) or put it into deep sleep, and the participant had not opened it since.
  case appStopped = "app_stopped"
  /// Opened, and the participant stopped answering part-way.
  case brokeOff = "broke_off"
  /// The app's notifications were off (permission denied at install or withdrawn): the
  /// phone did not show the prompt (`population.phones.notifications_off`).
  case notificationsOff = "notifications_off"
  /// iOS: the app's TestFlight build had expired (90 days after its upload), and the app no
  /// longer opened (`protocol.distribution`).
  case buildExpired = "build_expired"
}

/// One prompt's whole life.
public struct PromptRecord: Sendable, Equatable {
  /// The prompt's number within the participant's study (0-based, in time order).
  public var index: Int
  /// The study day it was scheduled for.
  public var day: Int
  /// When the schedule wanted it.
  public var scheduled: SimTime
  /// When it reached the phone's screen (-1: never).
  public var delivered: SimTime = -1
  /// When the participant noticed it (-1: never).
  public var noticed: SimTime = -1
  /// When the participant opened it (-1: never).
  public var opened: SimTime = -1
  /// When the answers were submitted (-1: never).
  public var submitted: SimTime = -1
  /// When the prompt reached its final status (submitted, dismissed, expired…; -1: never
  /// settled before the study ended).
  public var closed: SimTime = -1
  /// How it ended.
  public var status: PromptStatus = .undelivered
  /// Why it was not answered.
  public var reason: MissReason = .none
  /// The context at delivery (or at the scheduled time when undelivered).
  public var context: Context = .home
  /// The true latent state: at opening when answered, else at delivery (nan: undelivered).
  public var trueState: Double = .nan
  /// The reported state (nan unless answered).
  public var reported: Double = .nan
  /// Whether the answer reached the server before the study ended.
  public var received = false
  /// An answer given with no prompt pending (excluded from analysis).
  public var volunteered = false
  /// With others (``CompanyPlan``) at the moment of ``trueState``: 1 or 0, -1 when not
  /// looked at or company is off.
  public var withOthers: Int8 = -1
  /// The prompt's number as the run created it: the drawn prompts in time order, then the
  /// follow-ups (``EventTrigger/isFollowUp``) in the order created; ``index`` unless the
  /// protocol has follow-ups. Careless responding's chance is decided by it (``Careless``).
  public var created: Int32
  /// The true state when the prompt fell due, and company then (company on only; nan and
  /// -1 otherwise, and for prompts after a dropout): every prompt's, for an analysis of the
  /// complete data.
  public var dueState = Double.nan
  public var dueWithOthers: Int8 = -1
  /// The state's momentary deviation from the person's level in their context, in sds,
  /// company's effect included, when the prompt fell due (after a dropout too): recorded only
  /// when a variable of `population.variables` takes an effect of the state
  /// (``AnswersPlan/readsState``); nan otherwise.
  public var dueDeviation = Double.nan

  /// Creates a record of a scheduled prompt.
  /// The schedule it came from (its index in the protocol's schedules; 0 for volunteered).
  public var schedule = 0
  /// How far through the survey the participant got: 1 when submitted, the share of its
  /// answering time when it was broken off or expired while being answered, nan when never
  /// opened.
  public var reached = Double.nan

  public init(index: Int, day: Int, scheduled: SimTime) {
    self.index = index
    created = Int32(truncatingIfNeeded: index)
    self.day = day
    self.scheduled = scheduled
  }

  /// Delivery latency to opening, in seconds (nan unless opened).
  public var responseSeconds: Double {
    opened >= 0 && delivered >= 0 ? Double(opened - delivered) / 1000 : .nan
  }
}
