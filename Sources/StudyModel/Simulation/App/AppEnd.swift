import SimKernel

// What ends the study app on either system before the study does: the participant removes it
// (`population.phones.app_removal_per_day`), or its TestFlight build expires (iOS,
// `protocol.distribution`). Its later prompts are lost as app_removed or build_expired.
extension ParticipantSimulation {
  /// Schedules the app's removal and its build's expiry, when they come before the
  /// participant leaves.
  mutating func scheduleAppEnd(_ sim: inout Simulator) {
    if phone.removesAppAt < leaves {
      sim.schedule(at: phone.removesAppAt, kind: EventKind.appRemoved.rawValue)
    }
    if person.os == .ios, let t = proto.buildExpiresAt, t < leaves {
      sim.schedule(at: t, kind: EventKind.buildExpired.rawValue)
    }
  }

  /// The app is gone: removed by the participant, or (`expired`) its TestFlight build expired
  /// and it no longer opens (seed 004, Table 2).
  @inline(never)  // an event's handler: see `ParticipantSimulation.handle(_:_:)`
  mutating func removeApp(expired: Bool = false, _ sim: inout Simulator) {
    guard !droppedOut, !app.removed else { return }
    halt(.notRunning, &sim)
    app.removed = true
    app.expired = expired
    app.forceQuit = true
  }
}
