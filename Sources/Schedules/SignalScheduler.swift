import SimKernel

/// A signal-scheduling algorithm: window + parameters + random stream → one day's times.
///
/// Each algorithm is a small value type in `Algorithms/`, in its own file, naming the real
/// system it reproduces and every choice made where that system's source is silent.
/// Schedulers are pure: the same window, parameters and stream position give the same times.
public protocol SignalScheduler: Sendable {
  /// Appends one day's signal times to `times`, in minutes after the window's start,
  /// sorted ascending.
  func schedule(in window: Window, into times: inout [Double], using stream: inout RandomStream)

  /// The part of the window the algorithm samples, in minutes after its start (Mappiness
  /// stops 10 minutes early). Uniformity and predictability are measured on it.
  func samplingWindow(for window: Window) -> Block

  /// Checks the parameters against the window.
  ///
  /// - Throws: ``ScheduleError`` naming the parameter that is impossible.
  func validate(for window: Window) throws(ScheduleError)
}

extension SignalScheduler {
  public func samplingWindow(for window: Window) -> Block { Block(start: 0, end: window.length) }

  /// One day's times as a new array.
  public func day(in window: Window, using stream: inout RandomStream) -> [Double] {
    var times: [Double] = []
    schedule(in: window, into: &times, using: &stream)
    return times
  }
}

extension Array where Element == Double {
  /// Sorts the elements from `first` on, in place and by insertion: a day's signal times are
  /// few (sorting the slice `self[first...]` instead allocated a copy of it every day).
  mutating func sortTail(from first: Int) {
    guard first + 1 < count else { return }
    for i in (first + 1)..<count {
      let t = self[i]
      var j = i
      while j > first && self[j - 1] > t {
        self[j] = self[j - 1]
        j -= 1
      }
      self[j] = t
    }
  }
}

/// A scheduling parameter, named neutrally: the command line shows it as `--per-day`, a
/// scenario file as its key path.
public enum ScheduleParameter: String, Sendable, CaseIterable {
  case algorithm, window, perDay = "per-day", endMargin = "end-margin", minGap = "min-gap"
  case gapMethod = "gap-method", blocks, times, jitter, fixedLag = "fixed-lag"
  case randomLag = "random-lag", buffer
}

/// An impossible scheduling parameter, with the parameter it concerns.
public struct ScheduleError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The parameter at fault.
  public let parameter: ScheduleParameter
  /// What is wrong with it.
  public let message: String

  /// Creates an error.
  public init(_ parameter: ScheduleParameter, _ message: String) {
    self.parameter = parameter
    self.message = message
  }

  public var description: String { "\(parameter.rawValue): \(message)" }
}
