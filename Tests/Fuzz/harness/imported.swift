// libFuzzer harness past the import readers (scripts/fuzz.sh builds and runs it; make fuzz):
// an AWARE schedule, ESMira study, PACO experiment or Beiwe study (the first byte chooses)
// as a scenario's protocol, resolved and simulated for one participant-day.
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  _ = try? Readers.simulateImported(Data(bytes: bytes, count: size))
  return 0
}
