import SimKernel

/// Careless responding's prompts (`population.careless`): whether a careless person
/// straight-lines prompt `i` (its index among their prompts) is a chance decided by a hash of
/// the participant's address and the index (``SplitMix``), not a stream draw, so that the
/// simulation, which makes such an answer fast (`seconds_per_item`), and the answers, which
/// straight-line it (``ParticipantAnswers``), agree. Whether the person is careless is the
/// answers' own draw, which the simulation replays (``fast(_:seed:replication:participant:)``).
public struct Careless: Sendable {
  let key: UInt64
  let share: Double

  /// The prompts' chances for a participant.
  public init(_ plan: CarelessPlan, seed: UInt64, replication: UInt32, participant: UInt32) {
    let mix = SplitMix.mix
    key = mix(seed ^ mix(UInt64(replication) &+ mix(UInt64(participant) &+ 0x6361_7265_6c65_7373)))
    share = plan.prompts
  }

  /// Whether a careless person's prompt `i` is answered carelessly.
  public func prompt(_ i: Int) -> Bool {
    SplitMix.unit(SplitMix.mix(key ^ SplitMix.mix(UInt64(i) &+ 1))) < share
  }

  /// The participant's careless prompts when they answer too fast: nil unless the scenario
  /// sets `careless.seconds_per_item` and the person is careless (their answers' own draw,
  /// replayed from the same stream: ``ParticipantAnswers/drawPerson(_:_:)``).
  public static func fast(_ plan: StudyPlan, seed: UInt64, replication: UInt32, participant: UInt32) -> Careless? {
    let a = plan.answers
    guard a.careless.secondsPerItem != nil, a.careless.people > 0, a.isOn else { return nil }
    var stream = RandomStream(StreamAddress(seed: seed, replication: replication, participant: participant, purpose: .answers))
    guard ParticipantAnswers.drawPerson(a, &stream).careless else { return nil }
    return Careless(a.careless, seed: seed, replication: replication, participant: participant)
  }
}
