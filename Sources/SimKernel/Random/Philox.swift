/// The Philox4x32-10 counter-based generator (Salmon, Moraes, Dror & Shaw, "Parallel random
/// numbers: as easy as 1, 2, 3", SC'11; the Random123 library).
///
/// A pure function of a 128-bit counter and a 64-bit key: the same inputs give the same four
/// 32-bit outputs on every machine, thread and shard. Checked against Random123's published
/// known-answer vectors (`tests/kat_vectors`) in `PhiloxTests`.
public enum Philox4x32 {
  /// Multipliers and Weyl key increments of Philox4x32 (Random123 `philox.h`).
  @usableFromInline static let m0: UInt32 = 0xD251_1F53
  @usableFromInline static let m1: UInt32 = 0xCD9E_8D57
  @usableFromInline static let w0: UInt32 = 0x9E37_79B9
  @usableFromInline static let w1: UInt32 = 0xBB67_AE85

  /// One block: ten rounds over `counter` under `key` (the rounds written out, which the
  /// compiler keeps in registers).
  @inlinable @inline(__always)
  public static func block(
    counter: (UInt32, UInt32, UInt32, UInt32), key: (UInt32, UInt32)
  ) -> (UInt32, UInt32, UInt32, UInt32) {
    var c = counter
    var k = key
    round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    bump(&k); round(&c, k)
    return c
  }

  @inlinable @inline(__always)
  static func bump(_ k: inout (UInt32, UInt32)) {
    k.0 &+= w0
    k.1 &+= w1
  }

  @inlinable @inline(__always)
  static func round(_ c: inout (UInt32, UInt32, UInt32, UInt32), _ k: (UInt32, UInt32)) {
    let p0 = UInt64(m0) &* UInt64(c.0)
    let p1 = UInt64(m1) &* UInt64(c.2)
    c = (
      UInt32(truncatingIfNeeded: p1 >> 32) ^ c.1 ^ k.0,
      UInt32(truncatingIfNeeded: p1),
      UInt32(truncatingIfNeeded: p0 >> 32) ^ c.3 ^ k.1,
      UInt32(truncatingIfNeeded: p0)
    )
  }
}
