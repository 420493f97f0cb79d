import SimKernel
import StudyModel

/// A protocol read from another system's file (an AWARE ESM schedule, an ESMira study, a PACO
/// experiment, a Beiwe study).
struct ImportedProtocol: Sendable {
  /// The signal schedules.
  var parts: [SchedulePart]
  /// The questionnaire.
  var survey: SurveyPlan
  /// The channel preset the system uses on iOS.
  var channelPreset: String
  /// How long a prompt can be answered.
  var expiry: ExpiryPolicy
  /// Reminders.
  var reminders: Reminders
  /// The schedules the file holds (AWARE `schedule_id`s), when there are several.
  var alternatives: [String] = []
  /// The time zone the file's server schedules in (Beiwe's `study_time_zone`), if it names one.
  var serverTimeZone: String?
  /// What the file asks for that esmsim does not simulate.
  var warnings: [ScenarioWarning] = []
}
