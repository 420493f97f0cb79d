import Foundation

/// A time in a pilot's records as a generic file may write it: a number of seconds or
/// milliseconds since 1970 (told apart by size: below 10¹¹ seconds, else milliseconds), or
/// ISO 8601 (`2024-04-16T09:30:00`, a space for the `T`, seconds and their fraction
/// optional, with `Z` or an offset such as `+02:00`, or none: then local time).
struct PilotTime: Equatable {
  /// Milliseconds since 1970: UTC unless ``local``, then the local clock read as if it were UTC.
  var milliseconds: Int64
  /// The offset from UTC the text gave (ISO 8601 with an offset such as `+02:00`): the
  /// participant's clock at that time. A `Z`, like a number, gives the instant only.
  var offsetMinutes: Int?
  /// Whether the text was a local time without an offset (ISO 8601 without `Z` or offset).
  var local: Bool

  /// Reads `text`; nil when it is neither a number nor ISO 8601.
  static func parse(_ text: String) -> PilotTime? {
    let t = text.trimmingCharacters(in: .whitespaces)
    if let x = Double(t), x.isFinite, t.first != "+" {
      guard abs(x) < 1e15 else { return nil }
      return PilotTime(milliseconds: Int64((abs(x) < 1e11 ? x * 1000 : x).rounded()), offsetMinutes: nil, local: false)
    }
    return iso(Array(t.utf8))
  }

  /// ISO 8601's extended date and time: YYYY-MM-DD[T| ]HH:MM[:SS[.fff]][Z|±HH[:MM]|±HHMM].
  private static func iso(_ b: [UInt8]) -> PilotTime? {
    var i = 0
    func number(_ digits: Int) -> Int? {
      guard i + digits <= b.count else { return nil }
      var n = 0
      for k in i..<i + digits {
        guard b[k] >= 48 && b[k] <= 57 else { return nil }
        n = n * 10 + Int(b[k] - 48)
      }
      i += digits
      return n
    }
    func expect(_ c: Character) -> Bool {
      guard i < b.count, b[i] == c.asciiValue! else { return false }
      i += 1
      return true
    }
    guard let y = number(4), expect("-"), let mo = number(2), expect("-"), let d = number(2) else { return nil }
    guard i < b.count, b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: " ") else { return nil }
    i += 1
    guard let h = number(2), expect(":"), let mi = number(2) else { return nil }
    var s = 0
    var ms = 0
    if expect(":") {
      guard let sec = number(2) else { return nil }
      s = sec
      if expect(".") || expect(",") {
        var scale = 100
        var any = false
        while i < b.count, b[i] >= 48 && b[i] <= 57 {
          ms += Int(b[i] - 48) * scale
          scale /= 10
          i += 1
          any = true
        }
        guard any else { return nil }
      }
    }
    var offset: Int?
    var zulu = false
    if i < b.count {
      if b[i] == UInt8(ascii: "Z") {
        offset = 0
        zulu = true
        i += 1
      } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
        let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
        i += 1
        guard let oh = number(2) else { return nil }
        var om = 0
        if expect(":") {
          guard let m = number(2) else { return nil }
          om = m
        } else if i < b.count {
          guard let m = number(2) else { return nil }
          om = m
        }
        guard oh <= 14, om < 60 else { return nil }
        offset = sign * (oh * 60 + om)
      }
    }
    guard i == b.count, (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
    guard let day = daysFromCivil(y, mo, d), d <= daysInMonth(y, mo) else { return nil }
    let local = ((Int64(day) * 24 + Int64(h)) * 60 + Int64(mi)) * 60_000 + Int64(s) * 1000 + Int64(ms)
    return PilotTime(milliseconds: local - Int64(offset ?? 0) * 60_000, offsetMinutes: zulu ? nil : offset, local: offset == nil)
  }

  /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar.
  static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int? {
    let y = m <= 2 ? y0 - 1 : y0
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func daysInMonth(_ y: Int, _ m: Int) -> Int {
    switch m {
    case 2: (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}

/// The participants' clock: a fixed offset from UTC, or an IANA zone with its
/// daylight-saving changes.
public enum PilotClock: Sendable, Equatable {
  case offset(minutes: Int)
  case zone(String)

  /// The offset from UTC, minutes, at `utc` (milliseconds since 1970).
  func offsetMinutes(atUTC utc: Int64) -> Int {
    switch self {
    case .offset(let m): return m
    case .zone(let name):
      guard let tz = TimeZone(identifier: name) else { return 0 }
      return tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc) / 1000)) / 60
    }
  }

  /// UTC milliseconds of a local clock time (read as if UTC): the offset found at the time
  /// less a first guess of it (a time in a spring-forward gap takes the later offset).
  func utc(ofLocal local: Int64) -> Int64 {
    let guess = local - Int64(offsetMinutes(atUTC: local)) * 60_000
    return local - Int64(offsetMinutes(atUTC: guess)) * 60_000
  }
}
