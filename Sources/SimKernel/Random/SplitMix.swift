/// SplitMix64's step (Steele, Lea and Flood 2014): a 64-bit hash of a key, for values that
/// must be a pure function of what they describe (a participant, a time, an item) rather
/// than draws from a stream: an item's own error, a sensor sample's noise.
public enum SplitMix {
  /// The hash of `x` (the golden-ratio increment, then the finaliser).
  @inlinable
  public static func mix(_ x: UInt64) -> UInt64 {
    var z = x &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A hash as a number in [0, 1): its top 53 bits over 2⁵³.
  @inlinable
  public static func unit(_ x: UInt64) -> Double { Double(x >> 11) * 0x1p-53 }
}
