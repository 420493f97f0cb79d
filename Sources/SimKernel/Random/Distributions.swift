internal import CGSL

// GSL's samplers drawing from a RandomStream (see GSLAdaptor.swift). Parameters are checked
// by the scenario validator before they reach here; a bad one is a programming error.

extension RandomStream {
  /// A normal draw by GSL's ziggurat sampler through the adaptor; the model uses the native
  /// ``normal(mean:sd:)``, which gives the same numbers faster. This one is there to check
  /// and time it against.
  public mutating func gslNormal(mean: Double = 0, sd: Double) -> Double {
    precondition(sd >= 0, "normal: negative sd")
    return mean + withGSL { gsl_ran_gaussian_ziggurat($0, sd) }
  }

  /// A lognormal draw: `exp(N(mu, sigma))`.
  public mutating func lognormal(mu: Double, sigma: Double) -> Double {
    precondition(sigma >= 0, "lognormal: negative sigma")
    return withGSL { gsl_ran_lognormal($0, mu, sigma) }
  }

  /// A gamma draw with the given shape and scale (mean = shape · scale).
  public mutating func gamma(shape: Double, scale: Double) -> Double {
    precondition(shape > 0 && scale > 0, "gamma: shape and scale must be positive")
    return withGSL { gsl_ran_gamma($0, shape, scale) }
  }

  /// A beta draw.
  public mutating func beta(_ a: Double, _ b: Double) -> Double {
    precondition(a > 0 && b > 0, "beta: parameters must be positive")
    return withGSL { gsl_ran_beta($0, a, b) }
  }

  /// A Poisson count with the given mean.
  public mutating func poisson(mean: Double) -> Int {
    precondition(mean >= 0, "poisson: negative mean")
    return Int(withGSL { gsl_ran_poisson($0, mean) })
  }

  /// A binomial count of `trials` trials with success probability `p`.
  public mutating func binomial(trials: Int, p: Double) -> Int {
    precondition(trials >= 0 && (0...1).contains(p), "binomial: bad parameters")
    return Int(withGSL { gsl_ran_binomial($0, p, UInt32(trials)) })
  }

  /// An exponential draw through GSL (`gsl_ran_exponential`). The model uses the native
  /// ``exponential(mean:)``, which is faster; this one exists to compare the two.
  public mutating func gslExponential(mean: Double) -> Double {
    withGSL { gsl_ran_exponential($0, mean) }
  }

  /// A uniform draw in [0, 1) through GSL (`gsl_rng_uniform`), to check the adaptor.
  public mutating func gslUniform() -> Double {
    withGSL { gsl_rng_uniform($0) }
  }
}

/// A categorical distribution over `0..<count` (GSL's Walker alias table,
/// `gsl_ran_discrete_preproc`): O(1) per draw, for tables too large for a linear scan.
public final class DiscreteDistribution: @unchecked Sendable {
  // Immutable after init; GSL only reads it when sampling.
  private let table: OpaquePointer
  /// The number of categories.
  public let count: Int

  /// Builds the table from non-negative weights (at least one positive).
  ///
  /// - Throws: ``GSLError`` when GSL rejects the weights (a negative weight).
  public init(weights: [Double]) throws {
    GSL.start()
    guard !weights.isEmpty, weights.allSatisfy({ $0.isFinite }), weights.contains(where: { $0 > 0 })
    else { throw GSLError(code: Int32(GSL_EINVAL), function: "gsl_ran_discrete_preproc") }
    guard let t = weights.withUnsafeBufferPointer({ gsl_ran_discrete_preproc($0.count, $0.baseAddress) })
    else { throw GSLError(code: Int32(GSL_EINVAL), function: "gsl_ran_discrete_preproc") }
    table = OpaquePointer(t)
    count = weights.count
  }

  deinit { gsl_ran_discrete_free(UnsafeMutablePointer<gsl_ran_discrete_t>(table)) }

  /// Draws a category.
  public func draw(_ stream: inout RandomStream) -> Int {
    let t = UnsafePointer<gsl_ran_discrete_t>(table)
    return Int(stream.withGSL { gsl_ran_discrete($0, t) })
  }
}
