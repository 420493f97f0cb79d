import SimKernel
import Testing

@testable import StudyModel

@Suite("Timelines")
struct TimelineTests {
  @Test("a timeline built a block at a time is the one appended episode by episode")
  func builderMatchesAppending() {
    // More episodes than several blocks hold, some of no length (both skip them).
    var stream = RandomStream(StreamAddress(seed: 5, purpose: .traits))
    var appended = Timeline()
    var builder = TimelineBuilder(capacity: 10)
    var t: SimTime = 0
    let contexts = Context.allCases
    for k in 0..<(3 * TimelineBuilder.blockSize + 17) {
      let length = k % 11 == 0 ? 0 : SimTime(stream.integer(in: 1...90)) * Tick.minute
      let e = Episode(
        start: t, end: t + length, context: contexts[k % contexts.count], phoneAtHand: k % 2 == 0,
        network: k % 3 == 0 ? .wifi : .cellular)
      appended.append(e)
      builder.append(e)
      t += length
    }
    let built = builder.timeline()
    #expect(built.episodes.count > 2 * TimelineBuilder.blockSize)
    #expect(built.episodes == appended.episodes)
    #expect(built.end == appended.end)
    #expect(built.end == t)
    // The builder is left empty.
    #expect(builder.timeline().episodes.isEmpty)
  }
}
