import Foundation

/// `esmsim design --vary NAME=VALUES`: the values a search tries of participants, days and
/// prompts a day, read from text (a list `7,14,21`, a range `5..28`, a range with a step
/// `50..200:50`), each within its limits, sorted and distinct, at most ``maxValues``. Any
/// text is refused with a message or read: nothing in it can overflow (the fuzz harness
/// `design` checks).
public enum DesignRanges {
  /// A refusal's text.
  public struct Failure: Error, Sendable {
    public var message: String
  }

  /// Most values of one varied key.
  public static let maxValues = 1_000
  /// Each key's limits.
  public static let limits = ["participants": 1...1_000_000, "days": 1...3_650, "per_day": 1...288]

  /// The varied keys' values, by key.
  public static func parse(_ vary: [String]) throws(Failure) -> [String: [Int]] {
    var out: [String: [Int]] = [:]
    for v in vary {
      let parts = v.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, let range = limits[parts[0]] else {
        throw Failure(message: "--vary: expected NAME=VALUES with NAME participants, days or per_day, found '\(v.prefix(60))'")
      }
      guard out[parts[0]] == nil else { throw Failure(message: "--vary: \(parts[0]) is given twice") }
      guard let values = values(parts[1], maxCount: maxValues), !values.isEmpty, values.allSatisfy(range.contains) else {
        throw Failure(
          message:
            "--vary \(parts[0]): expected whole numbers in \(range.lowerBound)–\(range.upperBound) as a list (7,14,21), a range (5..28) or a range with a step (50..200:50), at most \(maxValues) values; found '\(parts[1].prefix(60))'"
        )
      }
      out[parts[0]] = values
    }
    return out
  }

  /// A list or range's values, nil when it is not one (or holds more than `maxCount`).
  public static func values(_ text: String, maxCount: Int) -> [Int]? {
    if let dots = text.range(of: "..") {
      let from = Int(text[..<dots.lowerBound])
      let rest = text[dots.upperBound...].split(separator: ":", maxSplits: 1).map(String.init)
      guard let from, let to = rest.first.flatMap({ Int($0) }), to >= from else { return nil }
      let step = rest.count == 2 ? Int(rest[1]) : 1
      // The span computed without overflow (the ends are any Int the text can hold).
      let (span, overflow) = to.subtractingReportingOverflow(from)
      guard let step, step >= 1, !overflow, span / step < maxCount else { return nil }
      return Array(stride(from: from, through: to, by: step))
    }
    let items = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
    guard items.count <= maxCount, items.allSatisfy({ $0 != nil }) else { return nil }
    return Array(Set(items.map { $0! })).sorted()
  }

  /// The most participant-days a search over these values can simulate: every participants
  /// and prompts a day, the days' bisection (its top and log2 steps), every replication (in
  /// Double: no overflow whatever the values).
  public static func mostWork(participants: [Int], days: [Int], perDay: [Int], replications: Int) -> Double {
    let steps = Double(Int(log2(Double(max(days.count, 1))).rounded(.up)) + 1)
    return participants.reduce(0.0) { $0 + Double($1) } * Double(days.last ?? 0) * Double(perDay.count) * steps * Double(replications)
  }
}
