import SimKernel

/// How prompts reach the phone: the channel, the app's plan of local notifications, the push
/// APNs holds for an offline phone.
///
/// - iOS local notifications are planned by the app ahead of time and capped
///   (``LocalPlanner``); the plan is topped up only when the app runs.
/// - Android's local prompts are exact alarms: every one is planned from the start.
/// - Pushes are sent by a server on its tick (``Timetable/serverTick``); APNs holds the newest
///   for an offline phone.
/// Silent pushes, which wake the app rather than deliver prompts: ``SilentPush``.
struct Delivery {
  /// Whether the app plans notifications on the phone (iOS local notifications): only then
  /// does running the app top up the plan.
  let plansOnPhone: Bool
  var planner: LocalPlanner
  /// The prompt whose push APNs holds for the offline phone (-1: none).
  var heldPush = -1
  /// iOS's budget for silent pushes, with the deliveries spent so far (nil: no silent pushes yet).
  var pushBudget: PushBudget?

  init(channel: ChannelPlan, os: OperatingSystem, reminders: Int) {
    plansOnPhone = channel.kind == .local && os == .ios
    planner = LocalPlanner(channel: channel, reminders: reminders)
  }
}
