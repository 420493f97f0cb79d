import SimKernel

/// A ``Timeline`` being written episode after episode: the episodes gather in a small block
/// of memory the builder alone owns (it cannot be copied) and join the timeline's array a
/// block at a time.
///
/// Daily life writes about 30 episodes a day. Appended to the array one by one, each was
/// checked that the array was not shared (a call into the Swift runtime: 490,000 of them on
/// the city workload); a block of 64 costs one check and a short copy. (Writing them all
/// to memory of its own and copying that into an array at the end cost more: a copy that
/// large is done byte by byte.)
struct TimelineBuilder: ~Copyable {
  private var episodes: [Episode] = []
  private let block: UnsafeMutablePointer<Episode>
  private var inBlock = 0

  /// Episodes gathered before they join the array.
  static let blockSize = 64

  /// An empty builder with room for `capacity` episodes (it grows as needed).
  init(capacity: Int) {
    episodes.reserveCapacity(capacity)
    block = .allocate(capacity: Self.blockSize)
  }

  deinit { block.deallocate() }

  /// Appends an episode; a zero-length one is skipped (as ``Timeline/append(_:)``).
  @inline(__always)
  mutating func append(_ e: Episode) {
    guard e.end > e.start else { return }
    let last = inBlock > 0 ? block[inBlock - 1] : episodes.last
    precondition(Timeline.follows(e, after: last), "episodes must follow one another")
    if inBlock == Self.blockSize { flush() }
    (block + inBlock).initialize(to: e)
    inBlock += 1
  }

  private mutating func flush() {
    episodes.append(contentsOf: UnsafeBufferPointer(start: block, count: inBlock))
    inBlock = 0
  }

  /// The timeline written; the builder is left empty.
  mutating func timeline() -> Timeline {
    flush()
    defer { episodes = [] }
    return Timeline(episodes: episodes)
  }
}
