import Foundation
import Testing

@testable import Measures

@Suite("Kolmogorov–Smirnov test as scipy computes it")
struct KolmogorovSmirnovTests {
  struct Row: CustomStringConvertible {
    var n: Int
    var d: Double
    var sf: Double
    var description: String { "n=\(n) d=\(d) scipy=\(sf)" }
  }

  static let rows: [Row] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/kstwo_sf.csv")
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") && !$0.hasPrefix("n,") }.compactMap {
      let f = $0.split(separator: ",")
      guard f.count == 3, let n = Int(f[0]), let d = Double(f[1]), let sf = Double(f[2]) else { return nil }
      return Row(n: n, d: d, sf: sf)
    }
  }()

  @Test("kstwo.sf matches scipy on every branch of the method selection (relative 2e-8)")
  func matchesScipy() {
    #expect(Self.rows.count > 300)
    var worst = 0.0
    for row in Self.rows {
      let ours = KolmogorovSmirnov.survival(n: row.n, d: row.d)
      let error = abs(ours - row.sf) / max(row.sf, 1e-300)
      let ok = abs(ours - row.sf) <= 1e-13 || error <= 2e-8
      #expect(ok, "\(row): esmsim \(ours)")
      if row.sf > 1e-300 { worst = max(worst, error) }
    }
    print("worst relative error against scipy: \(worst)")
  }

  @Test("the statistic D of a small sample, worked by hand")
  func statistic() {
    // Sorted 0.1, 0.4, 0.7: D+ = max(1/3 − 0.1, 2/3 − 0.4, 1 − 0.7) = 0.3 (rounded);
    // D− = max(0.1, 0.4 − 1/3, 0.7 − 2/3) = 0.1; D = 0.3.
    let r = KolmogorovSmirnov.uniform(sorted: [0.1, 0.4, 0.7])
    #expect(abs(r.d - 0.3) < 1e-12)
    #expect(r.p > 0.5 && r.p <= 1)
  }
}
