// libFuzzer harness for the pilot readers (AWARE esms rows, Beiwe survey timings, m-Path, ESMira, a generic CSV) and the protocol proposed from them (scripts/fuzz.sh builds and runs it; make fuzz).
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let data = Data(bytes: bytes, count: size)
  _ = try? Readers.pilot(data)
  return 0
}
