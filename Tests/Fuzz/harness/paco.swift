// libFuzzer harness for the paco reader (scripts/fuzz.sh builds and runs it; make fuzz).
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let data = Data(bytes: bytes, count: size)
  _ = try? Readers.pacoExperiment(data)
  return 0
}
