internal import CGSL
import Foundation

/// GNU GSL set-up and errors.
///
/// GSL's default error handler calls `abort()`. esmsim turns it off once per process
/// (``start()``, called by every entry point that reaches GSL) and turns the status codes
/// GSL returns into ``GSLError``s instead.
public enum GSL {
  /// Turns GSL's aborting error handler off. Idempotent and thread-safe (a lazy global).
  public static func start() { _ = handlerOff }

  private static let handlerOff: Bool = {
    gsl_set_error_handler_off()
    return true
  }()

  /// The GSL version this program was built against (for run manifests).
  public static var version: String { String(cString: esmsim_gsl_version()) }

  /// Throws a ``GSLError`` when `status` is not `GSL_SUCCESS`.
  public static func check(_ status: Int32, in function: String) throws {
    if status != Int32(GSL_SUCCESS) {
      throw GSLError(code: status, function: function)
    }
  }

  /// The upper tail Q(x) of the chi-square distribution with `degrees` degrees of freedom.
  public static func chiSquareUpperTail(_ x: Double, degrees: Double) throws -> Double {
    start()
    guard x >= 0, degrees > 0 else { throw GSLError(code: Int32(GSL_EDOM), function: "gsl_cdf_chisq_Q") }
    return gsl_cdf_chisq_Q(x, degrees)
  }

  /// The quantile of Student's t distribution with `degrees` degrees of freedom.
  public static func studentTQuantile(_ p: Double, degrees: Double) throws -> Double {
    start()
    guard p > 0, p < 1, degrees > 0 else {
      throw GSLError(code: Int32(GSL_EDOM), function: "gsl_cdf_tdist_Pinv")
    }
    return gsl_cdf_tdist_Pinv(p, degrees)
  }

  /// P(B ≤ k) for B ~ Binomial(n, p) (`gsl_cdf_binomial_P`); n up to 2^32 − 1.
  public static func binomialCDF(_ k: Int, p: Double, n: Int) -> Double {
    start()
    if k < 0 { return 0 }
    if k >= n { return 1 }
    return gsl_cdf_binomial_P(UInt32(k), p, UInt32(n))
  }

  /// The standard normal distribution function Φ(x).
  public static func normalCDF(_ x: Double) -> Double {
    gsl_cdf_ugaussian_P(x)
  }

  /// The standard normal quantile at `p` (in (0, 1)).
  public static func normalQuantile(_ p: Double) -> Double {
    gsl_cdf_ugaussian_Pinv(p)
  }

  /// The quantile of the Beta(a, b) distribution at `p` (p clamped inside (0, 1); nan for
  /// parameters that are not positive). GSL's inversion (`gsl_cdf_beta_Pinv`) for ordinary
  /// shapes; for a shape under 0.05 (a spread near its largest, almost all the mass at 0 and
  /// 1) its Newton steps can run for minutes, so there the CDF is inverted by bisection on the
  /// log-odds scale: 200 halvings, bounded time, within 1e-12 of the quantile.
  public static func betaQuantile(_ p: Double, _ a: Double, _ b: Double) -> Double {
    start()
    guard a > 0, b > 0 else { return .nan }
    let q = min(max(p, 1e-12), 1 - 1e-12)
    guard min(a, b) < 0.05 else { return gsl_cdf_beta_Pinv(q, a, b) }
    var (lo, hi) = (-745.0, 745.0)  // log-odds: the whole of (0, 1) in doubles
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if gsl_cdf_beta_P(1 / (1 + exp(-mid)), a, b) < q { lo = mid } else { hi = mid }
    }
    return 1 / (1 + exp(-(lo + hi) / 2))
  }
}

/// An error reported by GNU GSL: its status code and GSL's own words for it.
public struct GSLError: Error, CustomStringConvertible, Equatable {
  /// GSL's status code (`gsl_errno.h`).
  public let code: Int32
  /// The GSL function that failed.
  public let function: String

  /// GSL's description of the status code.
  public var message: String { String(cString: gsl_strerror(code)) }

  public var description: String { "GSL error in \(function): \(message) (code \(code))" }
}
