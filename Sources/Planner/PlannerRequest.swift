import Foundation

/// What the planner's page (`esmsim serve`) sends: the scenario's text, the files its import
/// keys name (uploaded from the user's disk), the participant whose week to draw, and whether
/// to draw the true day (the teaching page).
public struct PlannerRequest: Sendable {
  /// The scenario, YAML or JSON.
  public var scenario: String
  /// Files its import keys name (an AWARE schedule, an ESMira study …), by name.
  public var files: [String: String]
  /// The participant whose week is drawn (from 0).
  public var participant: Int
  /// Also draw the true day beside the answered one (the teaching page).
  public var truth: Bool

  public init(scenario: String, files: [String: String] = [:], participant: Int = 0, truth: Bool = false) {
    self.scenario = scenario
    self.files = files
    self.participant = participant
    self.truth = truth
  }

  /// The largest request body: the scenario and every file at their largest.
  public static func maxBody(maxBytes: Int, maxFiles: Int) -> Int { maxBytes * (maxFiles + 1) }

  /// A request refused: the message names the file and key where it can.
  public struct Refusal: Error, Sendable, CustomStringConvertible {
    /// Why a request is refused, which sets its HTTP status.
    public enum Kind: Sendable {
      /// The body is not the request's JSON (not an object, no scenario text, a file not
      /// text or not a plain name): 400.
      case malformed
      /// The request, a file or the work it asks for is larger than the limits: 413.
      case tooLarge
      /// The request is well formed but its scenario is not (the reader's located message): 422.
      case invalid
    }

    /// What is wrong.
    public var description: String
    /// Why it is refused.
    public var kind: Kind

    public init(description: String, kind: Kind) {
      self.description = description
      self.kind = kind
    }
  }
}

extension PlannerRequest {
  /// Reads a request body: `{"scenario": "...", "files": {"name": "..."}, "participant": 0,
  /// "truth": false}`, each text at most `maxBytes`, at most `maxFiles` files with plain names.
  /// Refuses, never crashes, on any input (`make fuzz`: the planner harness).
  public static func read(_ data: Data, maxBytes: Int, maxFiles: Int) throws(PlannerRequest.Refusal) -> PlannerRequest {
    typealias Refusal = PlannerRequest.Refusal
    let limit = PlannerRequest.maxBody(maxBytes: maxBytes, maxFiles: maxFiles)
    guard data.count <= limit else {
      throw Refusal(description: "the request is \(data.count) bytes; at most \(limit)", kind: .tooLarge)
    }
    guard let object = try? JSONSerialization.jsonObject(with: data), let body = object as? [String: Any] else {
      throw Refusal(description: "the request is not a JSON object", kind: .malformed)
    }
    guard let scenario = body["scenario"] as? String else {
      throw Refusal(description: "the request has no \"scenario\" text", kind: .malformed)
    }
    var files: [String: String] = [:]
    if let given = body["files"] {
      guard let map = given as? [String: Any] else { throw Refusal(description: "\"files\" must map names to texts", kind: .malformed) }
      guard map.count <= maxFiles else {
        throw Refusal(description: "\(map.count) files uploaded; at most \(maxFiles)", kind: .tooLarge)
      }
      for (name, text) in map {
        guard let text = text as? String else { throw Refusal(description: "file \(name) must be text", kind: .malformed) }
        guard name.count <= 200, !name.contains("/"), !name.hasPrefix(".") else {
          throw Refusal(description: "file name '\(name.prefix(200))' must be a plain name: no '/', not starting with '.'", kind: .malformed)
        }
        guard text.utf8.count <= maxBytes else {
          throw Refusal(description: "\(name) is \(text.utf8.count) bytes; at most \(maxBytes)", kind: .tooLarge)
        }
        files[name] = text
      }
    }
    guard scenario.utf8.count <= maxBytes else {
      throw Refusal(description: "the scenario is \(scenario.utf8.count) bytes; at most \(maxBytes)", kind: .tooLarge)
    }
    let known: Set<String> = ["scenario", "files", "participant", "truth"]
    if let unknown = body.keys.sorted().first(where: { !known.contains($0) }) {
      throw Refusal(
        description: "\"\(unknown.prefix(40))\" is not a key of the request (scenario, files, participant, truth)", kind: .malformed)
    }
    // JSON's kinds as JSONSerialization keeps them: a boolean is "c", a whole number "i" or "q".
    func kind(_ v: Any) -> String? { (v as? NSNumber).map { String(cString: $0.objCType) } }
    var participant = 0
    if let given = body["participant"] {
      guard let k = kind(given), k != "c", k != "d", k != "f", let n = given as? Int, n >= 0 else {
        throw Refusal(description: "\"participant\" is the number of a participant, a whole number from 0", kind: .malformed)
      }
      participant = n
    }
    var truth = false
    if let given = body["truth"] {
      guard kind(given) == "c", let b = given as? Bool else {
        throw Refusal(description: "\"truth\" is true or false", kind: .malformed)
      }
      truth = b
    }
    return PlannerRequest(scenario: scenario, files: files, participant: participant, truth: truth)
  }
}
