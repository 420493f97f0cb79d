/// Where a random stream lives: `(master seed, replication, participant, purpose)`.
///
/// The address alone decides the numbers (see ``RandomStream``): nothing about threads,
/// shards or the order in which participants are simulated enters it. Purposes separate the
/// scheduler's draws from the participant's and the phone's, so that variants compared in
/// one run share everything but what they change (common random numbers).
public struct StreamAddress: Hashable, Sendable, CustomStringConvertible {
  /// The study's master seed.
  public var seed: UInt64
  /// The replication number (ns-3's "run number": a number, not a new seed).
  public var replication: UInt32
  /// The participant's index in the study population.
  public var participant: UInt32
  /// What the numbers are for.
  public var purpose: Purpose

  /// Creates an address.
  public init(seed: UInt64, replication: UInt32 = 0, participant: UInt32 = 0, purpose: Purpose) {
    self.seed = seed
    self.replication = replication
    self.participant = participant
    self.purpose = purpose
  }

  public var description: String {
    "(seed \(seed), replication \(replication), participant \(participant), purpose \(purpose))"
  }
}

/// What a stream's numbers are for: a kind (8 bits) and an index within that kind (24 bits,
/// for example a study day or a variant's scheduler).
public struct Purpose: Hashable, Sendable, CustomStringConvertible {
  /// The packed value: `kind << 24 | index`.
  public let rawValue: UInt32

  /// Creates a purpose from a kind and an index below 2^24.
  public init(kind: UInt8, index: UInt32 = 0) {
    precondition(index < 1 << 24, "purpose index \(index) is not below 2^24")
    rawValue = UInt32(kind) << 24 | index
  }

  /// The purpose's kind.
  public var kind: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 24) }
  /// The purpose's index within its kind.
  public var index: UInt32 { rawValue & 0x00FF_FFFF }

  /// The same kind with another index (for example one stream per study day).
  public func indexed(_ index: UInt32) -> Purpose { Purpose(kind: kind, index: index) }

  public var description: String { "\(kind).\(index)" }

  // The kinds used by esmsim: the kernel's own here; the model's where they are drawn
  // (`Schedules/StreamPurpose.swift`: kind 1; `StudyModel/Participant/StreamPurposes.swift`:
  // kinds 2–8, the table of every kind). Each model component draws only from its own kind,
  // so adding draws to one never shifts the numbers of another.

  /// Benchmarks and tests.
  public static let general = Purpose(kind: 0)
}
