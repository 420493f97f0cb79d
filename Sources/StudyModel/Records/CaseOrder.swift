/// An enum without payloads, whose cases are stored as their position in declaration order
/// (one byte): a case and its position convert into each other without a search or a
/// switch. Each conforming type's positions are tested against `allCases`.
public protocol CaseOrdered: CaseIterable {}

extension CaseOrdered {
  /// The case's position in `allCases`.
  @inlinable @inline(__always)
  public var position: Int { Int(unsafeBitCast(self, to: UInt8.self)) }

  /// The case at `position`, which the caller has checked is one.
  @inlinable @inline(__always)
  static func unchecked(position: UInt8) -> Self { unsafeBitCast(position, to: Self.self) }
}
