/// A problem with a scenario: the file, the key path and where it was written, and what is
/// wrong. Printed as one line: `file: key.path (line 3, column 5): message`.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file.
  public var file: String
  /// The key path (`population.size`, `variants[1].protocol.expiry`), empty for the file.
  public var key: String
  /// Where in the file, if known.
  public var location: ScenarioValue.Location?
  /// What is wrong.
  public var message: String

  /// An error about the whole file.
  public init(file: String, at location: ScenarioValue.Location? = nil, _ message: String) {
    self.file = file
    key = ""
    self.location = location
    self.message = message
  }

  /// An error about a key.
  public init(file: String, key: String, at location: ScenarioValue.Location?, _ message: String) {
    self.file = file
    self.key = key
    self.location = location
    self.message = message
  }

  /// The same error one level down the tree: under the mapping key `parent`, or the list
  /// entry `parent` (`[2]`).
  func under(_ parent: String) -> ScenarioError {
    var e = self
    e.key = key.hasPrefix("[") ? parent + key : parent + "." + key
    return e
  }

  public var description: String {
    var out = file
    if !key.isEmpty { out += ": " + key }
    if let location { out += " (\(location))" }
    return out + ": " + message
  }
}
