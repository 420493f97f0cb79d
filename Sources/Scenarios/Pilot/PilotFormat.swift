import Foundation

/// The platforms whose per-prompt records `esmsim calibrate` reads (`--format`).
public enum PilotFormat: String, CaseIterable, Sendable {
  /// AWARE's `esms` table as CSV.
  case aware
  /// Beiwe's iOS survey timings, one file per participant or survey.
  case beiwe
  /// m-Path's per-beep export (the basic file; the meta file beside it is skipped).
  case mpath
  /// ESMira's events.csv and questionnaire files.
  case esmira
  /// Any platform's per-prompt table, its columns named or mapped (``PilotColumns``).
  case csv

  /// Reads a pilot's files, refusing a pilot beyond ``Pilot``'s limits. `columns` holds the
  /// generic file's mapping and the participants' clock (Beiwe, a generic file).
  public func read(_ files: [(file: String, data: Data)], columns: PilotColumns = .init()) throws(ScenarioError) -> Pilot {
    var pilot: Pilot
    switch self {
    case .esmira: pilot = try PilotReaders.esmira(files)
    default:
      var parts: [Pilot] = []
      for (file, data) in files {
        switch self {
        case .aware: parts.append(try PilotReaders.aware(data, file: file))
        case .beiwe:
          parts.append(
            try PilotReaders.beiweTimings(
              data, file: file, participant: Self.beiweParticipant(file), clock: columns.clock ?? .offset(minutes: 0)))
        case .mpath: parts.append(try PilotReaders.mpath(data, file: file))
        default: parts.append(try PilotReaders.generic(data, file: file, columns: columns))
        }
      }
      pilot = Pilot(merging: parts)
    }
    try pilot.checkLimits()
    pilot.leaveOutFarTimes()
    return pilot
  }

  /// Beiwe's layout: PARTICIPANT/survey_timings/SURVEY/FILE.csv (or SURVEY.csv).
  public static func beiweParticipant(_ path: String) -> String {
    let parts = path.split(separator: "/").map(String.init)
    if let k = parts.lastIndex(of: "survey_timings"), k > 0 { return parts[k - 1] }
    return ((path as NSString).lastPathComponent as NSString).deletingPathExtension
  }
}
