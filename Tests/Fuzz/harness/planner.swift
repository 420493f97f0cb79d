// libFuzzer harness for the planner's requests (scripts/fuzz.sh builds and runs it; make fuzz):
// the request body as `esmsim serve` reads it, then its scenario with its uploaded files.
import Foundation
import Planner
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let data = Data(bytes: bytes, count: size)
  guard let request = try? PlannerRequest.read(data, maxBytes: 1_000_000, maxFiles: 4) else { return 0 }
  _ = try? Readers.scenario(Data(request.scenario.utf8), file: "scenario.yaml", uploads: request.files.mapValues { Data($0.utf8) })
  return 0
}
