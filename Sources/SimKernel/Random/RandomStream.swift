internal import CPhilox

/// A reproducible stream of random numbers, addressed by a ``StreamAddress``.
///
/// Built on ``Philox4x32``: the key is the master seed and the counter is
/// `(block, purpose, participant, replication)`, so a stream is a pure function of its
/// address and the n-th number of a stream is the same whatever else the program does,
/// on any thread or shard. Each block gives two 64-bit numbers; a stream holds 2^33 of them.
/// Where the CPU has AVX2 the blocks are computed sixteen at a time (`CPhilox`), else two at a
/// time; the numbers are the same.
///
/// The type deliberately does **not** conform to `RandomNumberGenerator`: Swift's
/// `random(in:using:)` may change its algorithm between Swift versions, so every
/// conversion to a distribution is our own (here and in `Distributions.swift`).
///
/// **Native and GSL draws.** Uniform, exponential, Bernoulli and bounded integers are native
/// Swift: they run on every event of the hot path. The exponential is Marsaglia and Tsang's
/// ziggurat (`ExponentialZiggurat.swift`; `esmsim bench random` times it against the
/// inverse CDF and `gsl_ran_exponential`). The normal is GSL's ziggurat
/// written natively (`GaussianZiggurat.swift`: the same numbers as GSL's). Everything else
/// (gamma, beta, Poisson, binomial, lognormal, discrete) comes from GSL's samplers drawing
/// from this same stream.
public struct RandomStream: Sendable {
  @usableFromInline let key0: UInt32
  @usableFromInline let key1: UInt32
  @usableFromInline let purpose: UInt32
  @usableFromInline let participant: UInt32
  @usableFromInline let replication: UInt32
  @usableFromInline var block: UInt32 = 0
  /// Numbers computed ahead, served in order from `position` up to `filled`.
  @usableFromInline var buffer:
    (
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
      UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
    ) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
  @usableFromInline var position: UInt8 = 0
  @usableFromInline var filled: UInt8 = 0
  /// ``wide``, read once when the stream is made (the static is initialised lazily, and
  /// reading it on every refill cost a `swift_once` call each time: 0.4 % of the city study).
  let computesWide = RandomStream.wide

  /// The stream at `address`, positioned at its first number.
  public init(_ address: StreamAddress) {
    key0 = UInt32(truncatingIfNeeded: address.seed)
    key1 = UInt32(truncatingIfNeeded: address.seed >> 32)
    purpose = address.purpose.rawValue
    participant = address.participant
    replication = address.replication
  }

  /// The stream's address.
  public var address: StreamAddress {
    StreamAddress(
      seed: UInt64(key1) << 32 | UInt64(key0), replication: replication,
      participant: participant, purpose: Purpose(kind: UInt8(purpose >> 24), index: purpose & 0xFF_FFFF))
  }

  /// The next 64 random bits.
  @inlinable @inline(__always)
  public mutating func next64() -> UInt64 {
    if position < filled {
      let offset = Int(position) &* 8
      position &+= 1
      return withUnsafeBytes(of: &buffer) { $0.load(fromByteOffset: offset, as: UInt64.self) }
    }
    return refill()
  }

  /// Whether this CPU computes sixteen Philox blocks at once (AVX2; `CPhilox`).
  static let wide = cphilox_has_avx2() == 1

  /// ``refill(wide:)`` the way this CPU does it best. Kept out of line so that the common
  /// path of ``next64()`` stays small enough to inline.
  @usableFromInline @inline(never)
  mutating func refill() -> UInt64 {
    refill(wide: computesWide)
  }

  /// Computes the next blocks and returns the first of their numbers: sixteen blocks at once
  /// with AVX2 (`wide`), else two side by side in Swift (their rounds interleave, which
  /// hides the multiply latency of each). Either way the stream's numbers are the same: a
  /// block's two numbers are word 0 << 32 | word 1 and word 2 << 32 | word 3, blocks in
  /// counter order.
  mutating func refill(wide: Bool) -> UInt64 {
    precondition(block < .max - 16, "random stream exhausted (2^33 numbers drawn)")
    if wide {
      withUnsafeMutableBytes(of: &buffer) { out in
        cphilox_blocks16(
          block, purpose, participant, replication, key0, key1,
          out.baseAddress!.assumingMemoryBound(to: UInt64.self))
      }
      block &+= 16
      filled = 32
    } else {
      let x = Philox4x32.block(counter: (block, purpose, participant, replication), key: (key0, key1))
      let y = Philox4x32.block(
        counter: (block &+ 1, purpose, participant, replication), key: (key0, key1))
      block &+= 2
      buffer.0 = UInt64(x.0) << 32 | UInt64(x.1)
      buffer.1 = UInt64(x.2) << 32 | UInt64(x.3)
      buffer.2 = UInt64(y.0) << 32 | UInt64(y.1)
      buffer.3 = UInt64(y.2) << 32 | UInt64(y.3)
      filled = 4
    }
    position = 1
    return buffer.0
  }

  /// A uniform number in [0, 1) with 53 random bits.
  @inlinable @inline(__always)
  public mutating func uniform() -> Double {
    Double(next64() >> 11) * 0x1p-53
  }

  /// A uniform number in (0, 1): never exactly 0 or 1.
  @inlinable @inline(__always)
  public mutating func openUniform() -> Double {
    (Double(next64() >> 11) + 0.5) * 0x1p-53
  }

  /// A uniform number in [`low`, `high`).
  @inlinable @inline(__always)
  public mutating func uniform(_ low: Double, _ high: Double) -> Double {
    low + (high - low) * uniform()
  }

  /// Three uniform numbers in [0, 1) on the grid of 2⁻²¹, from one 64-bit draw (bits 0–20,
  /// 21–41 and 42–62): for Bernoulli trials (`u < p`) where a probability counted in steps of
  /// 2⁻²¹ (about 5 × 10⁻⁷, the largest error in the chance of any trial) is ample, at a third
  /// of the draws.
  @inlinable @inline(__always)
  public mutating func threeCoarseUniforms() -> (Double, Double, Double) {
    let w = next64()
    let mask: UInt64 = (1 << 21) - 1
    return (
      Double(w & mask) * 0x1p-21, Double((w >> 21) & mask) * 0x1p-21, Double((w >> 42) & mask) * 0x1p-21
    )
  }

  /// True with probability `p` (clamped to [0, 1]).
  @inlinable @inline(__always)
  public mutating func bernoulli(_ p: Double) -> Bool {
    uniform() < p
  }

  /// The failures before the first success of trials that each succeed with chance `p`
  /// (a geometric draw by inverse CDF, `log u / log(1 − p)`, with `p` capped just below 1),
  /// as a real number: its whole part is the count. Infinite never, huge when `p` is tiny.
  public mutating func geometricFailures(_ p: Double) -> Double {
    log(openUniform()) / log1p(-min(p, 0.999_999))
  }

  /// A uniform integer in `0..<bound`, without bias (Lemire's multiply-and-reject method).
  ///
  /// - Precondition: `bound > 0`.
  @inlinable
  public mutating func integer(below bound: UInt64) -> UInt64 {
    precondition(bound > 0, "integer(below: 0)")
    var product = next64().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound
      while product.low < threshold {
        product = next64().multipliedFullWidth(by: bound)
      }
    }
    return product.high
  }

  /// A uniform integer in the closed range `low...high`.
  @inlinable
  public mutating func integer(in range: ClosedRange<Int>) -> Int {
    let width = UInt64(bitPattern: Int64(range.upperBound) &- Int64(range.lowerBound)) &+ 1
    if width == 0 { return Int(truncatingIfNeeded: next64()) }  // the full 64-bit range
    return range.lowerBound &+ Int(truncatingIfNeeded: integer(below: width))
  }

  /// An index drawn with probabilities proportional to `cumulative` differences:
  /// `cumulative` is non-decreasing and its last element is the total weight.
  /// A linear scan: meant for the handful of categories of a context or a device mix.
  @inlinable @inline(__always)
  public mutating func index(cumulative: [Double]) -> Int {
    index(count: cumulative.count) { cumulative[$0] }
  }

  /// ``index(cumulative:)`` over `count` cumulative weights read by `cumulative(i)`, for
  /// weights not held in an array (a period's table of the day, inline).
  @inlinable @inline(__always)
  public mutating func index(count: Int, cumulative: (Int) -> Double) -> Int {
    let target = uniform() * cumulative(count - 1)
    for i in 0..<count where target < cumulative(i) { return i }
    return count - 1
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
