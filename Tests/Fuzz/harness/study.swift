// libFuzzer harness past the scenario reader (scripts/fuzz.sh builds and runs it; make fuzz):
// a scenario resolved for one participant and one day, then simulated in every variant, so
// that what a file can ask the simulation for (a count its types cannot hold) is found here.
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  _ = try? Readers.simulateOneDay(Data(bytes: bytes, count: size))
  return 0
}
