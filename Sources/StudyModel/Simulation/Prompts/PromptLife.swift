import SimKernel

/// Every prompt's life, one state machine:
///
/// ```
///  due ─► delivered ─► noticed ─► decided ─┬─ intending ─► opened ─► submitted   (answered)
///   │         │                            └─ declined ──► dismissed            (unwilling)
///   │         ├─ expired: the expiry passes first (the one rule: isOpen(_:at:))
///   │         ├─ replaced: the next signal arrives, under "until the next signal"
///   │         └─ ignored: it arrives inside another survey (Mappiness `apn_ignored`)
///   └─ undelivered (not planned, cap, phone off, offline, replaced while held) or dropped out
/// ```
/// A declined prompt may still be answered after a reminder or when the participant opens
/// the app while it is open. ``Stage`` is where the participant's decision stands; the
/// record (``PromptRecord``) keeps when each step happened, and ``settle(_:_:_:at:)`` closes
/// the life once, with its status and the reason it was missed.
struct PromptLife {
  /// Where a delivered prompt's decision stands.
  enum Stage: UInt8 {
    /// Not yet decided on (not delivered, or not noticed).
    case waiting
    /// Noticed and declined; a reminder may bring it up again.
    case declined
    /// Noticed and to be answered, once the participant can.
    case intending
    /// Opened: the answers are being given.
    case opened
    /// Settled: answered, dismissed, expired, undelivered, ignored or dropped out.
    case final
  }

  /// Every prompt's record, in time order; answers given with no prompt pending.
  var records: [PromptRecord]
  var volunteered: [PromptRecord] = []
  /// Every prompt's state in the run, beside its record.
  var states: [State]

  /// A prompt's state in the run. One array of them, not one array for each: a handler
  /// writing several checks once that the array is not shared.
  struct State {
    /// Where the decision stands.
    var stage = Stage.waiting
    /// Whether it reached the phone while the participant slept.
    var deliveredAsleep = false
    /// Whether, opened, its answering breaks off at ``submitAt`` (and its whole answering
    /// time, ``answeringTime``, to tell how far it got).
    var breaksOff = false
    /// Reminders still to come.
    var remindersLeft: Int
    /// When it stops being answerable (`.max`: not delivered, or no expiry).
    var expiresAt = SimTime.max
    /// When, opened, its answers will be submitted, or the answering broken off.
    var submitAt = SimTime.max
    /// The whole answering time drawn when it was opened.
    var answeringTime: SimTime = 0
  }
  /// The last delivered prompt still answerable under "until the next signal" (-1: none).
  var openUntilNext = -1

  /// Every prompt of `timetable`, waiting, each with its schedule's `reminders`.
  init(_ timetable: Timetable, reminders: [Reminders]) {
    records = timetable.times.indices.map {
      var r = PromptRecord(index: $0, day: Int(timetable.days[$0]), scheduled: timetable.times[$0])
      r.schedule = Int(timetable.scheduleOf[$0])
      return r
    }
    states = timetable.scheduleOf.map { State(remindersLeft: reminders[Int($0)].count) }
  }

  /// Adds prompt `i` of `timetable`, a follow-up created while the study runs, waiting, with
  /// its schedule's `reminders`.
  mutating func append(_ i: Int, _ timetable: Timetable, reminders: Reminders) {
    var r = PromptRecord(index: i, day: Int(timetable.days[i]), scheduled: timetable.times[i])
    r.schedule = Int(timetable.scheduleOf[i])
    records.append(r)
    states.append(State(remindersLeft: reminders.count))
  }

  /// Puts the records in time order once the study has run, when follow-ups were added
  /// after the drawn prompts (equal times in the order created), numbering them again;
  /// ``PromptRecord/created`` keeps each one's number in the run.
  mutating func putInTimeOrder() {
    guard zip(records, records.dropFirst()).contains(where: { $0.scheduled > $1.scheduled }) else { return }
    records.sort { ($0.scheduled, $0.index) < ($1.scheduled, $1.index) }
    for k in records.indices { records[k].index = k }
  }

  /// The one expiry rule: a prompt can be noticed, opened or reminded of at `t` only before
  /// it expires.
  @inline(__always)
  func isOpen(_ i: Int, at t: SimTime) -> Bool { t < states[i].expiresAt }

  /// Whether prompt `i` has reached the phone.
  @inline(__always)
  func isDelivered(_ i: Int) -> Bool { records[i].delivered >= 0 }

  /// Whether prompt `i` is delivered, undecided or declined, and open at `t`: a reminder or
  /// an opening of the app brings it up.
  func isPending(_ i: Int, at t: SimTime) -> Bool {
    isDelivered(i) && (states[i].stage == .waiting || states[i].stage == .declined) && isOpen(i, at: t)
  }

  /// Closes prompt `i`'s life at `t` (once: later calls do nothing).
  mutating func settle(_ i: Int, _ status: PromptStatus, _ reason: MissReason, at t: SimTime) {
    guard states[i].stage != .final else { return }
    if openUntilNext == i { openUntilNext = -1 }  // settled: no longer answerable
    states[i].stage = .final
    records[i].status = status
    records[i].reason = reason
    records[i].closed = t
  }

  /// Prompt `i` expires at `t` unless it is settled or being answered; why it was missed
  /// follows from how far it got.
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func expire(_ i: Int, at t: SimTime, droppedOut: Bool) {
    guard states[i].stage != .final, isDelivered(i) else { return }
    if states[i].stage == .opened {
      // Expired while being answered (Beiwe's "expired before submit"): how far it got.
      guard t < states[i].submitAt else { return }
      let opened = records[i].opened
      records[i].reached = states[i].submitAt > opened ? Double(t - opened) / Double(states[i].submitAt - opened) : 0
      settle(i, .expired, droppedOut ? .droppedOut : .tooLate, at: t)
      return
    }
    states[i].expiresAt = min(states[i].expiresAt, t)
    let reason: MissReason
    switch states[i].stage {
    case .intending: reason = .tooLate
    case .declined: reason = .unwilling
    default: reason = states[i].deliveredAsleep && records[i].noticed < 0 ? .asleep : .notNoticed
    }
    settle(i, .expired, droppedOut ? .droppedOut : reason, at: t)
  }
}
