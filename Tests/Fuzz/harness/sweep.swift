// libFuzzer harness for the sweep-file reader (scripts/fuzz.sh builds and runs it; make fuzz).
// The sweep's base scenario is a small fixed file in a temporary folder.
import Foundation
import Scenarios

let folder: String = {
  let dir = NSTemporaryDirectory() + "esmsim-fuzz-sweep-\(getpid())"
  try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
  let base = """
    name: fuzz base
    duration: 2d
    population: {size: 4, devices: {ideal: 0.5, heavy: 0.5}}
    protocol: {schedule: {algorithm: mappiness, per_day: 3}, sensors: {location: {every: 3m}}}
    """
  try? base.write(toFile: dir + "/base.yaml", atomically: true, encoding: .utf8)
  return dir
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  _ = try? Readers.sweep(Data(bytes: bytes, count: size), file: folder + "/sweep.yaml")
  return 0
}
