import SimKernel

/// The stationary Ornstein–Uhlenbeck noise over a stretch of Δ minutes from a known value z:
/// its value at the end is a·z + ε1 and its integral b·z + ε2, with a = e^(−Δ/τ),
/// b = (1 − a)τ, Var ε1 = sd²(1 − a²), Var ε2 = 2sd²τ[Δ − 2b + (1 − a²)τ/2] and
/// Cov(ε1, ε2) = sd²·b²/τ (Gillespie 1996, "Exact numerical simulation of the
/// Ornstein-Uhlenbeck process and its integral", [@Gillespie1996]).
struct OUStep: Sendable {
  /// The time constant τ, minutes.
  let tau: Double
  /// The stationary variance sd².
  let variance: Double

  /// The step's coefficients and the (co)variances of its two errors.
  struct Moments {
    var a: Double
    var b: Double
    var endVariance: Double
    var integralVariance: Double
    var covariance: Double
  }

  /// The moments of a stretch of `ticks`, `a` its decay.
  @inline(__always)
  func moments(ticks: SimTime, decay a: Double) -> Moments {
    let minutes = Double(ticks) / Double(Tick.minute)
    let b = (1 - a) * tau
    return Moments(
      a: a, b: b, endVariance: variance * (1 - a * a),
      integralVariance: max(2 * variance * tau * (minutes - 2 * b + 0.5 * (1 - a * a) * tau), 0),
      covariance: variance * b * b / tau)
  }
}

/// The noise over one stretch of the path between two anchors, known at its end, at its
/// start or its last look, and (waking) its integral over the rest: a look draws the noise
/// at its moment from the exact conditional law given these (all jointly normal), and the
/// integral up to it, so that a later look is conditioned on everything drawn before.
struct OUBridge: Sendable {
  /// The stretch's end and the noise there.
  private(set) var end: SimTime
  private(set) var endNoise: Double
  /// The last point known inside the stretch (its start, or the last look) and the noise there.
  private(set) var known: SimTime
  private(set) var knownNoise: Double
  /// Whether the stretch is waking (its integral counts towards the waking mean).
  private(set) var waking = false
  /// The noise's integral over the whole stretch (waking), and over what follows the last look.
  private(set) var integral = 0.0
  private(set) var rest = 0.0

  /// A stretch of no length at `start`, with the noise there.
  init(start: SimTime, noise: Double) {
    end = start
    endNoise = noise
    known = start
    knownNoise = noise
  }

  /// Draws the next stretch, from this one's end to `t`: the noise at `t` and, if waking,
  /// the integral (one or two normals from the path's stream).
  mutating func advance(to t: SimTime, waking: Bool, step: OUStep, decay: DecayTable, _ s: inout RandomStream) {
    let m = step.moments(ticks: t - end, decay: decay.value(ticks: t - end))
    let z = endNoise
    let sd = m.endVariance.squareRoot()
    let e1 = s.normal(sd: 1)
    known = end
    knownNoise = z
    end = t
    endNoise = m.a * z + sd * e1
    self.waking = waking
    if waking {
      let e2 = s.normal(sd: 1)
      let c = sd > 0 ? m.covariance / sd : 0
      integral = m.b * z + c * e1 + max(m.integralVariance - c * c, 0).squareRoot() * e2
    } else {
      integral = 0
    }
    rest = integral
  }

  /// The noise at `t` (between the last known point and the end) given everything drawn,
  /// from the caller's stream: one normal asleep, two waking (the noise, then the integral
  /// up to `t` given it). Inlined into its one caller, the truth's `advance`, which then
  /// saves the registers for both.
  @inline(__always)
  mutating func look(at t: SimTime, step: OUStep, decay: DecayTable, _ s: inout RandomStream) -> Double {
    if t >= end {
      known = end
      knownNoise = endNoise
      rest = 0
      return endNoise
    }
    guard t > known else { return knownNoise }
    let first = step.moments(ticks: t - known, decay: decay.value(ticks: t - known))
    let second = step.moments(ticks: end - t, decay: decay.value(ticks: end - t))
    let z0 = knownNoise
    // Given the noise z0 at the known point: X, the noise at t, and I, the integral from
    // the known point to t; then the end's noise a₂X + f1 and the rest's integral
    // I + b₂X + f2 (f independent of X and I).
    let (vX, vI, cXI) = (first.endVariance, first.integralVariance, first.covariance)
    let (a2, b2) = (second.a, second.b)
    let mX = first.a * z0
    let mI = first.b * z0
    var x: Double
    var i: Double
    if waking {
      // Observed: y1 = the end's noise, y2 = the rest's integral.
      let m1 = a2 * mX
      let m2 = mI + b2 * mX
      let s11 = a2 * a2 * vX + second.endVariance
      let s12 = a2 * (cXI + b2 * vX) + second.covariance
      let s22 = vI + 2 * b2 * cXI + b2 * b2 * vX + second.integralVariance
      let det = s11 * s22 - s12 * s12
      // Cov(X, y) and Cov(I, y).
      let (kx1, kx2) = (a2 * vX, cXI + b2 * vX)
      let (ki1, ki2) = (a2 * cXI, vI + b2 * cXI)
      let d1 = endNoise - m1
      let d2 = rest - m2
      if det > 0 && det.isFinite {
        // Σ_uy Σ_yy⁻¹ with Σ_yy⁻¹ = [s22, −s12; −s12, s11] / det.
        let gx1 = (kx1 * s22 - kx2 * s12) / det
        let gx2 = (kx2 * s11 - kx1 * s12) / det
        let gi1 = (ki1 * s22 - ki2 * s12) / det
        let gi2 = (ki2 * s11 - ki1 * s12) / det
        let mx = mX + gx1 * d1 + gx2 * d2
        let mi = mI + gi1 * d1 + gi2 * d2
        let cxx = max(vX - (gx1 * kx1 + gx2 * kx2), 0)
        let cii = max(vI - (gi1 * ki1 + gi2 * ki2), 0)
        let cxi = cXI - (gx1 * ki1 + gx2 * ki2)
        x = mx + cxx.squareRoot() * s.normal(sd: 1)
        let slope = cxx > 0 ? cxi / cxx : 0
        i = mi + slope * (x - mx) + max(cii - slope * cxi, 0).squareRoot() * s.normal(sd: 1)
      } else {
        // A stretch too short to tell apart from its ends.
        x = knownNoise
        i = 0
      }
      rest -= i
    } else {
      let s11 = a2 * a2 * vX + second.endVariance
      let g = s11 > 0 ? a2 * vX / s11 : 0
      let mx = mX + g * (endNoise - a2 * mX)
      x = mx + max(vX - g * a2 * vX, 0).squareRoot() * s.normal(sd: 1)
    }
    known = t
    knownNoise = x
    return x
  }
}
