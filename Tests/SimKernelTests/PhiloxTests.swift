import CPhilox
import Testing

@testable import SimKernel

@Suite("Philox4x32-10")
struct PhiloxTests {
  // Random123's published known-answer vectors (tests/kat_vectors, the three
  // "philox4x32 10" lines): counter (4 words), key (2 words), expected output (4 words).
  static let vectors: [((UInt32, UInt32, UInt32, UInt32), (UInt32, UInt32), [UInt32])] = [
    ((0, 0, 0, 0), (0, 0), [0x6627_e8d5, 0xe169_c58d, 0xbc57_ac4c, 0x9b00_dbd8]),
    (
      (0xffff_ffff, 0xffff_ffff, 0xffff_ffff, 0xffff_ffff), (0xffff_ffff, 0xffff_ffff),
      [0x408f_276d, 0x41c8_3b0e, 0xa20b_c7c6, 0x6d54_51fd]
    ),
    (
      (0x243f_6a88, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344), (0xa409_3822, 0x299f_31d0),
      [0xd16c_fe09, 0x94fd_cceb, 0x5001_e420, 0x2412_6ea1]
    ),
  ]

  @Test("known-answer vectors", arguments: 0..<3)
  func knownAnswers(_ i: Int) {
    let (counter, key, expected) = Self.vectors[i]
    let out = Philox4x32.block(counter: counter, key: key)
    #expect([out.0, out.1, out.2, out.3] == expected)
  }

  @Test("a stream's numbers are the Philox blocks of its address, in order")
  func streamLayout() {
    let address = StreamAddress(
      seed: 0x299f_31d0_a409_3822, replication: 0x0370_7344, participant: 0x1319_8a2e,
      purpose: Purpose(kind: 0x85, index: 0xa3_08d3))
    var stream = RandomStream(address)
    // Block 0x243f6a88 of this address is the third known-answer vector.
    var expected: [UInt64] = []
    for block in UInt32(0)..<3 {
      let o = Philox4x32.block(
        counter: (block, 0x85a3_08d3, 0x1319_8a2e, 0x0370_7344), key: (0xa409_3822, 0x299f_31d0))
      expected += [UInt64(o.0) << 32 | UInt64(o.1), UInt64(o.2) << 32 | UInt64(o.3)]
    }
    #expect((0..<6).map { _ in stream.next64() } == expected)
    #expect(stream.address == address)
  }

  /// Words of the `count` blocks `block..<block + count` as a stream lays them out.
  static func narrow(
    _ block: UInt32, _ c: (UInt32, UInt32, UInt32), _ key: (UInt32, UInt32), count: Int = 16
  ) -> [UInt64] {
    (0..<count).flatMap { i -> [UInt64] in
      let o = Philox4x32.block(counter: (block &+ UInt32(i), c.0, c.1, c.2), key: key)
      return [UInt64(o.0) << 32 | UInt64(o.1), UInt64(o.2) << 32 | UInt64(o.3)]
    }
  }

  @Test(
    "sixteen blocks at once with AVX2 are the sixteen blocks one by one (random counters and keys)",
    .enabled(if: cphilox_has_avx2() == 1, "this CPU has no AVX2: streams use the Swift blocks only"))
  func wideBlocks() {
    var s = RandomStream(StreamAddress(seed: 99, purpose: .general))
    func word() -> UInt32 { UInt32(truncatingIfNeeded: s.next64()) }
    var cases = [(UInt32(0), (UInt32(0), UInt32(0), UInt32(0)), (UInt32(0), UInt32(0)))]
    cases.append((.max - 16, (.max, .max, .max), (.max, .max)))
    cases.append((0x243f_6a88, (0x85a3_08d3, 0x1319_8a2e, 0x0370_7344), (0xa409_3822, 0x299f_31d0)))
    for _ in 0..<2_000 { cases.append((word(), (word(), word(), word()), (word(), word()))) }
    var mismatches = 0
    for (block, c, key) in cases {
      var out = [UInt64](repeating: 0, count: 32)
      cphilox_blocks16(block, c.0, c.1, c.2, key.0, key.1, &out)
      if out != Self.narrow(block, c, key) { mismatches += 1 }
    }
    #expect(mismatches == 0)
  }
}
