/// The events of one participant's study (``ParticipantSimulation``). The kernel only sees
/// their raw values; the order of simultaneous events follows the priority each is
/// scheduled with.
enum EventKind: UInt16, CaseOrdered {
  /// A prompt's scheduled time (payload: prompt index): a local notification fires, or the
  /// server sends a push at its next tick.
  case promptDue
  /// A push reaches the phone (payload: prompt index).
  case promptArrives
  /// The participant notices a prompt (payload: ``Noticed/payload(_:reminded:)``).
  case promptNoticed
  /// The participant opens a prompt (payload: prompt index).
  case promptOpened
  /// The answers are submitted (payload: prompt index).
  case promptSubmitted
  /// A prompt's answer window closes (payload: prompt index).
  case promptExpires
  /// The participant dismisses a prompt (payload: prompt index).
  case promptDismissed
  /// A reminder of a prompt (payload: prompt index).
  case reminder
  /// The app's lifecycle timer (slot ``Slot/app``): the OS suspends or kills the background
  /// app, the user force-quits it, or a bounded background run ends (payload: ``AppTimer``).
  case appTimer
  /// Something wakes the app in the background (slot ``Slot/wake``; payload: ``WakeSource``).
  case appWake
  /// The participant opens the app of their own accord (payload 1: to volunteer an answer).
  case spontaneousOpen
  /// A spontaneous session ends.
  case sessionEnds
  /// The battery reaches a level that matters (slot ``Slot/battery``).
  case battery
  /// The participant wakes (payload: study day).
  case wakes
  /// The participant goes to bed (payload: study day).
  case goesToBed
  /// The phone reboots.
  case reboot
  /// The phone is on again.
  case phoneOn
  /// The app's own background task (ESMira: about every 12 hours).
  case backgroundTask
  /// A new study day starts (payload: study day).
  case dayStarts
  /// The participant drops out.
  case dropout
  /// A charger is plugged in (payload 1) or out (payload 0) during the day.
  case charger
  /// An Android app's own periodic alarm, or a push from the study's server, fires (payload:
  /// ``WakeSource``; deferred by Doze to a maintenance window unless exempt).
  case androidWake
  /// The participant removes the app.
  case appRemoved
  /// An Android maker's battery manager force-stops an app that does not keep itself alive.
  case makerStop
  /// The app's TestFlight build expires (iOS).
  case buildExpired
  /// A follow-up prompt's time (payload: prompt index; ``FollowUps``): as ``promptDue``.
  case followUpDue
}

extension EventKind {
  /// The kind of a raw value from the queue, checked to be one (the synthesized
  /// `init(rawValue:)` is called out of line for every event; the raw values are the
  /// positions, from 0: tested).
  @inline(__always)
  static func of(_ raw: UInt16) -> EventKind {
    precondition(raw <= last.rawValue, "unknown event kind \(raw)")
    return .unchecked(position: UInt8(truncatingIfNeeded: raw))
  }

  /// The last case (a constant, where a stored count would be checked for its
  /// initialisation at every event: tested to be the last).
  static var last: EventKind { .followUpDue }
}

/// Cancellation slots of the participant's simulator.
enum Slot {
  static let app: UInt16 = 1
  static let wake: UInt16 = 2
  static let battery: UInt16 = 3
  static let count = 4
}
