internal import CGSL

/// A `gsl_rng_type` whose state is a ``RandomStream``: GSL's samplers (`gsl_ran_*`) then draw
/// from esmsim's own addressed streams. GSL never seeds it (`gsl_rng_set` is a no-op), so a
/// user's seed never reaches `gsl_rng_set`, where seed 0 would alias mt19937's default 4357.
enum PhiloxGSLType {
  nonisolated(unsafe) static let pointer: UnsafePointer<gsl_rng_type> = {
    GSL.start()
    let name = UnsafePointer(strdup("esmsim-philox4x32-10")!)
    let type = UnsafeMutablePointer<gsl_rng_type>.allocate(capacity: 1)
    type.initialize(
      to: gsl_rng_type(
        name: name, max: 0xFFFF_FFFF, min: 0, size: MemoryLayout<RandomStream>.size,
        set: { _, _ in },
        get: { state in
          UInt(state!.assumingMemoryBound(to: RandomStream.self).pointee.next64() >> 32)
        },
        get_double: { state in
          state!.assumingMemoryBound(to: RandomStream.self).pointee.uniform()
        }))
    return UnsafePointer(type)
  }()
}

extension RandomStream {
  /// Runs `body` with a `gsl_rng` that draws from this stream.
  mutating func withGSL<R>(_ body: (UnsafeMutablePointer<gsl_rng>) -> R) -> R {
    let type = PhiloxGSLType.pointer
    return withUnsafeMutablePointer(to: &self) { stream in
      var rng = gsl_rng(type: type, state: UnsafeMutableRawPointer(stream))
      return body(&rng)
    }
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
