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
  var stage: [Stage]
  /// When each prompt stops being answerable (`.max`: not delivered, or no expiry).
  var expiresAt: [SimTime]
  var remindersLeft: [Int]
  var deliveredAsleep: [Bool]
  /// When an opened prompt's answers will be submitted, or the answering broken off.
  var submitAt: [SimTime]
  /// Whether an opened prompt's answering breaks off at ``submitAt`` (and its whole
  /// answering time, to tell how far it got).
  var breaksOff: [Bool]
  var answeringTime: [SimTime]
  /// The last delivered prompt still answerable under "until the next signal" (-1: none).
  var openUntilNext = -1

  /// Every prompt of `timetable`, waiting, each with its schedule's `reminders`.
  init(_ timetable: Timetable, reminders: [Reminders]) {
    let n = timetable.count
    records = timetable.times.indices.map {
      var r = PromptRecord(index: $0, day: Int(timetable.days[$0]), scheduled: timetable.times[$0])
      r.schedule = Int(timetable.scheduleOf[$0])
      return r
    }
    stage = Array(repeating: .waiting, count: n)
    expiresAt = Array(repeating: .max, count: n)
    remindersLeft = timetable.scheduleOf.map { reminders[Int($0)].count }
    deliveredAsleep = Array(repeating: false, count: n)
    submitAt = Array(repeating: .max, count: n)
    breaksOff = Array(repeating: false, count: n)
    answeringTime = Array(repeating: 0, count: n)
  }

  /// Adds prompt `i` of `timetable`, a follow-up created while the study runs, waiting, with
  /// its schedule's `reminders`.
  mutating func append(_ i: Int, _ timetable: Timetable, reminders: Reminders) {
    var r = PromptRecord(index: i, day: Int(timetable.days[i]), scheduled: timetable.times[i])
    r.schedule = Int(timetable.scheduleOf[i])
    records.append(r)
    stage.append(.waiting)
    expiresAt.append(.max)
    remindersLeft.append(reminders.count)
    deliveredAsleep.append(false)
    submitAt.append(.max)
    breaksOff.append(false)
    answeringTime.append(0)
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
  func isOpen(_ i: Int, at t: SimTime) -> Bool { t < expiresAt[i] }

  /// Whether prompt `i` has reached the phone.
  @inline(__always)
  func isDelivered(_ i: Int) -> Bool { records[i].delivered >= 0 }

  /// Whether prompt `i` is delivered, undecided or declined, and open at `t`: a reminder or
  /// an opening of the app brings it up.
  func isPending(_ i: Int, at t: SimTime) -> Bool {
    isDelivered(i) && (stage[i] == .waiting || stage[i] == .declined) && isOpen(i, at: t)
  }

  /// Closes prompt `i`'s life at `t` (once: later calls do nothing).
  mutating func settle(_ i: Int, _ status: PromptStatus, _ reason: MissReason, at t: SimTime) {
    guard stage[i] != .final else { return }
    if openUntilNext == i { openUntilNext = -1 }  // settled: no longer answerable
    stage[i] = .final
    records[i].status = status
    records[i].reason = reason
    records[i].closed = t
  }

  /// Prompt `i` expires at `t` unless it is settled or being answered; why it was missed
  /// follows from how far it got.
  mutating func expire(_ i: Int, at t: SimTime, droppedOut: Bool) {
    guard stage[i] != .final, isDelivered(i) else { return }
    if stage[i] == .opened {
      // Expired while being answered (Beiwe's "expired before submit"): how far it got.
      guard t < submitAt[i] else { return }
      let opened = records[i].opened
      records[i].reached = submitAt[i] > opened ? Double(t - opened) / Double(submitAt[i] - opened) : 0
      settle(i, .expired, droppedOut ? .droppedOut : .tooLate, at: t)
      return
    }
    expiresAt[i] = min(expiresAt[i], t)
    let reason: MissReason
    switch stage[i] {
    case .intending: reason = .tooLate
    case .declined: reason = .unwilling
    default: reason = deliveredAsleep[i] && records[i].noticed < 0 ? .asleep : .notNoticed
    }
    settle(i, .expired, droppedOut ? .droppedOut : reason, at: t)
  }
}
