// libFuzzer harness for the pilot readers (AWARE esms rows, Beiwe survey timings, m-Path, ESMira, a generic CSV) and the protocol proposed from them (scripts/fuzz.sh builds and runs it; make fuzz).
//
// Wide and long inputs: an input starting with the byte 0xFF is a recipe, not a file: its
// next two bytes say how many times (x 64) to repeat the header's last field (a wide header)
// and to repeat the first record (a long file), the rest is the file to widen and lengthen. So
// inputs of hundreds of thousands of columns or rows are fuzzed from seeds of a few bytes
// (libFuzzer's inputs are at most 64 KB): each is read or refused in linear time.
import Foundation
import Scenarios

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var data = Data(bytes: bytes, count: size)
  if size >= 3 && bytes[0] == 0xFF {
    let wide = Int(bytes[1]) * 64
    let long = Int(bytes[2]) * 64
    let text = Data(bytes: bytes + 3, count: size - 3)
    let lines = text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    guard let header = lines.first else { return 0 }
    let last = header.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).last ?? Data()
    var out = Data(header)
    for k in 0..<wide {
      out.append(UInt8(ascii: ","))
      out.append(last)
      out.append(contentsOf: Array(String(k).utf8))
    }
    out.append(UInt8(ascii: "\n"))
    if lines.count > 1 {
      for _ in 0..<max(long, 1) {
        out.append(lines[1])
        out.append(UInt8(ascii: "\n"))
      }
      for l in lines.dropFirst(2) {
        out.append(l)
        out.append(UInt8(ascii: "\n"))
      }
    }
    data = out
  }
  _ = try? Readers.pilot(data)
  return 0
}
