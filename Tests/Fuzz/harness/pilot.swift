// libFuzzer harness for the pilot reader (AWARE esms rows, Beiwe survey timings) (scripts/fuzz.sh builds and runs it; make fuzz).
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let data = Data(bytes: bytes, count: size)
  _ = try? Readers.pilot(data)
  return 0
}
