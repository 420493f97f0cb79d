import ArgumentParser
import SimKernel

/// `esmsim random`: print the numbers of one stream, to check reproducibility by hand.
struct RandomNumbers: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "random",
    abstract: "Print the first numbers of the random stream at an address.",
    discussion: """
      A stream is addressed by (seed, replication, participant, purpose); the same address \
      prints the same numbers on every run, thread count and machine with the same toolchain.
      """
  )

  @Option(help: "Master seed.") var seed: UInt64 = 1
  @Option(help: "Replication number.") var replication: UInt32 = 0
  @Option(help: "Participant index.") var participant: UInt32 = 0
  @Option(help: "Purpose kind (0–255).") var purposeKind: UInt8 = 0
  @Option(help: "Purpose index (below 2^24).") var purposeIndex: UInt32 = 0
  @Option(help: "How many numbers.") var count = 10
  @Flag(help: "Print uniform numbers in [0, 1) instead of 64-bit integers.") var uniform = false

  func validate() throws {
    guard count >= 0 else { throw ValidationError("--count must not be negative") }
    guard purposeIndex < 1 << 24 else { throw ValidationError("--purpose-index must be below 16777216") }
  }

  func run() throws {
    var stream = RandomStream(
      StreamAddress(
        seed: seed, replication: replication, participant: participant,
        purpose: Purpose(kind: purposeKind, index: purposeIndex)))
    var out = ""
    for _ in 0..<count {
      if uniform { out += "\(stream.uniform())\n" } else { out += "\(stream.next64())\n" }
    }
    print(out, terminator: "")
  }
}
