import Foundation
import SimKernel
import Testing

@Suite("esmsim command line: foundation")
struct FoundationCommandTests {
  @Test("--version prints the version, --help the commands")
  func versionAndHelp() throws {
    let version = try ESMSimBinary.run(["--version"])
    #expect(version.status == 0)
    // "0.1.0 (built from source)": the version, then how the binary was built.
    let words = version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")
    #expect(words.first?.split(separator: ".").count == 3)
    #expect(version.stdout.contains("(built from source)") || version.stdout.contains("(make dist"))
    let help = try ESMSimBinary.run(["--help"])
    #expect(help.status == 0)
    #expect(help.stdout.contains("bench"))
  }

  @Test("an unknown command or flag gets the usage text and exit code 64")
  func unknownCommandAndFlag() throws {
    for args in [["frobnicate"], ["--frobnicate"], ["bench", "kernel", "--entities", "0"]] {
      let r = try ESMSimBinary.run(args)
      #expect(r.status == 64, "\(args)")
      #expect(r.stderr.contains("Usage") || r.stderr.contains("Error"), "\(args)")
    }
  }

  @Test("two processes print the same 1,000 numbers for one address, equal to this process's")
  func twoProcessesSameNumbers() throws {
    let args = [
      "random", "--seed", "99", "--replication", "2", "--participant", "17", "--purpose-kind", "4",
      "--count", "1000",
    ]
    let a = try ESMSimBinary.run(args)
    let b = try ESMSimBinary.run(args)
    #expect(a.status == 0)
    #expect(a.stdout == b.stdout)
    var stream = RandomStream(
      StreamAddress(seed: 99, replication: 2, participant: 17, purpose: Purpose(kind: 4)))
    let expected = (0..<1_000).map { _ in "\(stream.next64())" }
    #expect(a.stdout.split(separator: "\n").map(String.init) == expected)
  }

  @Test("the kernel benchmark prints its figures as its last line, and both modes agree")
  func kernelBenchmark() throws {
    var checksums: [String] = []
    for mode in ["per-entity", "global"] {
      let r = try ESMSimBinary.run([
        "bench", "kernel", "--entities", "200", "--events-per-entity", "50", "--mode", mode,
        "--repeats", "1",
      ])
      #expect(r.status == 0)
      let lines = r.stdout.split(separator: "\n")
      let last = try #require(lines.last)
      #expect(last.hasPrefix("events=10000 seconds="))
      #expect(last.contains(" events_per_second="))
      checksums.append(String(lines[0].split(separator: " ").last ?? ""))
    }
    #expect(checksums[0] == checksums[1])
  }
}
