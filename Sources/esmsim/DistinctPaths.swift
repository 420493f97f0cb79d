import ArgumentParser
import Foundation

/// Every path a command writes compared with every file it reads, before any work starts: an
/// output that is an input (`calibrate g.csv --output g.csv`, `design s.yaml --output s.yaml`),
/// or the same input given twice (the same pilot file read twice would double its prompts),
/// is refused naming both. Paths name the same file when they resolve to the same device and
/// inode (links and `./` spellings included), or, for a path not yet written, to the same
/// absolute path.
enum DistinctPaths {
  /// The file's identity on disk, nil when it does not exist.
  static func identity(_ path: String) -> (UInt64, UInt64)? {
    var s = stat()
    guard stat(path, &s) == 0 else { return nil }
    return (UInt64(s.st_dev), UInt64(s.st_ino))
  }

  static func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
  }

  static func same(_ a: String, _ b: String) -> Bool {
    if let x = identity(a), let y = identity(b) { return x == y }
    return absolute(a) == absolute(b)
  }

  /// Refuses an input given twice and an output that is an input or another output.
  /// - Parameters:
  ///   - inputs: (what it is, path), for example ("the pilot's file", "g.csv").
  ///   - outputs: (the option, path) the command will write.
  static func check(inputs: [(String, String)], outputs: [(String, String)]) throws {
    for i in inputs.indices {
      for j in inputs.indices where j > i && same(inputs[i].1, inputs[j].1) {
        throw ValidationError(
          "\(inputs[j].1) is given twice (\(inputs[i].0) and \(inputs[j].0) are the same file): each file is read once; give it once")
      }
    }
    for (option, path) in outputs {
      if let hit = inputs.first(where: { same($0.1, path) }) {
        throw ValidationError("\(option) \(path) is \(hit.0) (\(hit.1)): writing it would replace the input; choose another path")
      }
    }
    for i in outputs.indices {
      for j in outputs.indices where j > i && same(outputs[i].1, outputs[j].1) {
        throw ValidationError("\(outputs[i].0) and \(outputs[j].0) name the same file \(outputs[j].1)")
      }
    }
  }
}
