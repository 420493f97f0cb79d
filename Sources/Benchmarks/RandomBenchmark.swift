#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif
import SimKernel

/// Times the random draws the hot path uses: native Swift against GSL through the adaptor.
public enum RandomBenchmark {
  /// One line of figures.
  public struct Line: Sendable {
    /// What was drawn.
    public var name: String
    /// Nanoseconds per draw.
    public var nanoseconds: Double
    /// The sum of the draws (printed so that the work cannot be optimised away).
    public var sum: Double
  }

  /// Draws `count` numbers of each kind from one stream and times them.
  public static func run(count: Int, seed: UInt64) -> [Line] {
    func time(_ name: String, _ draw: (inout RandomStream) -> Double) -> Line {
      var stream = RandomStream(StreamAddress(seed: seed, purpose: .general))
      let watch = Stopwatch()
      var sum = 0.0
      for _ in 0..<count { sum += draw(&stream) }
      return Line(name: name, nanoseconds: watch.seconds * 1e9 / Double(count), sum: sum)
    }
    return [
      time("uniform (native)") { $0.uniform() },
      time("uniform (GSL gsl_rng_uniform)") { $0.gslUniform() },
      time("exponential (native ziggurat)") { $0.exponential(mean: 1) },
      time("exponential (native inverse CDF, -log U)") { -log($0.openUniform()) },
      time("exponential (GSL gsl_ran_exponential)") { $0.gslExponential(mean: 1) },
      time("normal (GSL's ziggurat, native)") { $0.normal(sd: 1) },
      time("normal (GSL gsl_ran_gaussian_ziggurat)") { $0.gslNormal(sd: 1) },
      time("gamma (GSL)") { $0.gamma(shape: 2, scale: 1) },
    ]
  }
}
