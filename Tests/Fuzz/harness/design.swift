// libFuzzer harness for the design search's arguments (`esmsim design --target T --vary V ...`):
// the input's lines are a target and --vary values; each is read or refused, and the work the
// search could do is computed, without a crash or an overflow (scripts/fuzz.sh; make fuzz).
import Foundation
import Study

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: bytes, count: size), as: UTF8.self)
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  guard let first = lines.first else { return 0 }
  if let target = DesignTarget(first) {
    _ = target.figure
    _ = target.level
  }
  if let ranges = try? DesignRanges.parse(Array(lines.dropFirst())) {
    let work = DesignRanges.mostWork(
      participants: ranges["participants"] ?? [10], days: ranges["days"] ?? [7], perDay: ranges["per_day"] ?? [5], replications: 50)
    precondition(!work.isNaN && work >= 0)
  }
  return 0
}
