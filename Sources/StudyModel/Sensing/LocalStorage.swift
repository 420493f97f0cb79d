import Foundation
import SimKernel

/// The phone's free storage and the app's local store (AWARE-iOS, seed 004 §3.2 and guideline
/// 1(a)): the app keeps what its sensors collect until it syncs; when the unsynced rows fill the
/// free space, the sensors store nothing more until the next sync empties the store.
///
/// Free space: a share of participants have a small-storage phone (16 or 32 GB), 80 % of
/// which had under 1.5 GB free in the paper's 2016 sample; read as exponential with that
/// quantile (mean 0.93 GB). Larger phones never fill (an assumption).
public enum LocalStorage {
  /// The paper's figure: 80 % of small phones had less than this many GB free.
  static let quantileGB = 1.5
  static let quantileShare = 0.8
  /// The mean free GB of a small phone: exponential with P(free < 1.5 GB) = 0.8.
  public static var meanFreeGB: Double { quantileGB / -log(1 - quantileShare) }

  /// Bytes the sensors store per hour the app runs (periodic sensors: rows × row size).
  public static func bytesPerHour(_ sensors: [SensorPlan]) -> Double {
    sensors.reduce(0) { $0 + Double($1.expectedPerHour) * Double($1.bytesPerRow) }
  }

  /// The stretches in which the store is full: from the moment the unsynced bytes (collected
  /// at `bytesPerHour` while the app `runs`) reach `freeBytes`, to the start of the next sync
  /// stretch (`syncs`, which happen while the app runs), which empties it.
  public static func full(runs: Intervals, syncs: Intervals, freeBytes: Double, bytesPerHour: Double, until end: SimTime)
    -> Intervals
  {
    guard bytesPerHour > 0, freeBytes.isFinite else { return Intervals() }
    // Run time that fills the store, in ticks.
    let fill = freeBytes / bytesPerHour * Double(Tick.hour)
    var out: [(SimTime, SimTime)] = []
    var stored = 0.0  // ticks of running since the last sync
    var s = 0
    let syncSpans = syncs.spans
    var fullSince: SimTime?
    for r in runs.spans where r.start < end {
      var t = r.start
      let stop = min(r.end, end)
      while t < stop {
        // The next sync stretch that has not ended by t.
        while s < syncSpans.count && syncSpans[s].end <= t { s += 1 }
        if s < syncSpans.count && syncSpans[s].start <= t {
          // Syncing: the store is emptied; a full stretch ends here.
          if let f = fullSince {
            out.append((f, t))
            fullSince = nil
          }
          stored = 0
          t = min(syncSpans[s].end, stop)
          continue
        }
        let next = s < syncSpans.count ? min(syncSpans[s].start, stop) : stop
        if fullSince == nil {
          let left = fill - stored
          if Double(next - t) < left {
            stored += Double(next - t)
          } else {
            fullSince = t + SimTime(left.rounded(.up))
            stored = fill
          }
        }
        t = next
      }
    }
    // Syncs happen while the app runs, so a store still full was not synced again: full to the end.
    if let f = fullSince, f < end { out.append((f, end)) }
    return Intervals(out.filter { $0.0 < $0.1 })
  }
}
