import Testing

@testable import Measures

@Suite("Estimates over participants")
struct EstimateTests {
  @Test("a ratio of sums and its linearised standard error, worked by hand")
  func ratioByHand() {
    // R = 6/8; residuals −0.5, 0, 0.5; √(3/2 · 0.5) / 8.
    let e = Estimate.ratio([(1, 2), (3, 4), (2, 2)])
    #expect(e.value == 0.75)
    #expect(abs(e.standardError - (1.5 * 0.5).squareRoot() / 8) < 1e-15)
    #expect(e.degrees == 2)
    // With every denominator 1 it is the mean and its usual standard error s/√n.
    let ys = [3.0, 7, 1, 4, 9, 2]
    let r = Estimate.ratio(ys.map { ($0, 1) })
    let m = Estimate.mean(ys)
    #expect(abs(r.value - m.value) < 1e-15 && abs(r.standardError - m.standardError) < 1e-15)
    #expect(Estimate.ratio([(1, 0), (2, 0)]).value.isNaN)
    #expect(Estimate.ratio([(1, 2)]).standardError.isNaN)
  }

  @Test("quantiles as R's type 7")
  func quantiles() {
    // quantile(c(1, 2, 3, 4, 10), c(0.1, 0.5, 0.9)) in R: 1.4, 3, 7.6.
    let v = [4.0, 1, 10, 3, 2]
    #expect(abs(Estimate.quantile(v, 0.1) - 1.4) < 1e-12)
    #expect(Estimate.quantile(v, 0.5) == 3)
    #expect(abs(Estimate.quantile(v, 0.9) - 7.6) < 1e-12)
    #expect(Estimate.quantile([], 0.5).isNaN)
  }
}

@Suite("Answers per participant against a target")
struct AnswersDistributionTests {
  @Test("the share reaching the target counts those at or above it; percentiles as Estimate's; none: nan")
  func byHand() {
    let d = AnswersDistribution([31, 2, 30, 29, 45], target: 30)
    #expect(d.reaching == 3 && d.shareReaching == 0.6)
    #expect(d.reachingIndicators == [1, 0, 1, 0, 1])  // in participant order
    #expect(d.quantile(0.5) == 30 && abs(d.quantile(0.1) - 12.8) < 1e-12)
    #expect(AnswersDistribution([], target: 30).shareReaching.isNaN)
  }
}

@Suite("Histogram quantiles")
struct HistogramTests {
  @Test("a median past the fine bins is read from the coarse ones (a 4-hour histogram gave none for a 7-day window)")
  func coarseBins() {
    var h = Histogram(binWidth: 1, bins: 4 * 3600, coarseWidth: 60, coarseBins: 31 * 24 * 60)
    for x: Double in [10, 20, 5 * 3600 + 30, 6 * 3600, 3 * 86400] { h.add(x) }
    // The third of five: 5 h 0.5 min falls in the coarse bin [5 h, 5 h + 1 min).
    #expect(h.quantile(0.5) == 5 * 3600 + 30)
    // R's type 7: h = 0.2 × 4 = 0.8 of the way from 10.5 to 20.5.
    #expect(abs(h.quantile(0.2) - 18.5) < 1e-9)
    // Merged histograms, one of them without a coarse value.
    var fine = Histogram(binWidth: 1, bins: 4 * 3600, coarseWidth: 60, coarseBins: 31 * 24 * 60)
    fine.add(1)
    fine.merge(h)
    #expect(fine.count == 6 && fine.quantile(1) == 3 * 86400 + 30)
    // Past the coarse bins: the overflow, no quantile.
    h.add(40 * 86400)
    #expect(h.quantile(1) == .infinity)
    // Without coarse bins, as before.
    var plain = Histogram(binWidth: 1, bins: 10)
    plain.add(3)
    plain.add(30)
    #expect(plain.quantile(1) == .infinity && plain.quantile(0.5) == .infinity && plain.quantile(0) == 3.5)
  }

  @Test("an even count's median is the mean of its middle two, as a median of the rows is (it was the lower one)")
  func evenMedian() {
    var h = Histogram(binWidth: 1, bins: 100)
    for x: Double in [1, 2, 40, 60] { h.add(x) }
    #expect(h.quantile(0.5) == (2.5 + 40.5) / 2)
    #expect(h.quantile(0) == 1.5 && h.quantile(1) == 60.5)
  }
}
