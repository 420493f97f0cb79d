import Foundation
import Testing

/// The citations of code, documents, scenarios and notebooks: every key cited as `[@Key]` is
/// an entry of `docs/sources.md`, and nothing cites notes outside the repository.
@Suite("Sources: every citation points into docs/sources.md")
struct SourcesTests {
  /// The entries of `docs/sources.md` (its `### Key` headings).
  static func entries() throws -> Set<String> {
    let text = try String(contentsOf: repository.appendingPathComponent("docs/sources.md"), encoding: .utf8)
    return Set(text.split(separator: "\n").filter { $0.hasPrefix("### ") }.map { String($0.dropFirst(4)) })
  }

  /// Every text file under the folders that may cite.
  static func citingFiles() -> [URL] {
    var files: [URL] = []
    for folder in ["Sources", "docs", "scenarios", "notebooks", "scripts", "r", "bench"] {
      let root = repository.appendingPathComponent(folder)
      guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { continue }
      for case let url as URL in walk
      where ["swift", "md", "yaml", "ipynb", "h", "c", "py", "sh", "R", "Rmd"].contains(url.pathExtension) {
        files.append(url)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  /// The keys cited in `text`.
  static func citedKeys(_ text: String) -> [String] {
    var keys: [String] = []
    var rest = Substring(text)
    while let open = rest.range(of: "[@") {
      rest = rest[open.upperBound...]
      let key = rest.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
      if !key.isEmpty && rest.dropFirst(key.count).first == "]" { keys.append(String(key)) }
    }
    return keys
  }

  @Test("the key reader finds keys and only keys")
  func readsKeys() {
    #expect(Self.citedKeys("a [@Rintala2019], b [@AppleAPNs] §2 and [x] [@ not] [@Open") == ["Rintala2019", "AppleAPNs"])
    #expect(Self.citedKeys("for p in \"${pids[@]}\"; do") == [])  // a shell array, not a citation
  }

  @Test("every cited key is an entry of docs/sources.md, and the model cites many")
  func citedKeysExist() throws {
    let entries = try Self.entries()
    #expect(entries.count >= 30)
    var cited = Set<String>()
    for url in Self.citingFiles() {
      let text = try String(contentsOf: url, encoding: .utf8)
      for key in Self.citedKeys(text) {
        cited.insert(key)
        #expect(entries.contains(key), "\(url.path) cites [@\(key)], which docs/sources.md does not have")
      }
    }
    #expect(cited.count >= 20, "only \(cited.count) keys cited")
  }

  @Test("no file cites the research notes outside the repository")
  func nothingOutside() throws {
    let outside = ["des_engines.md", "device_and_compliance.md", "scheduling.md", "style-anchors.md", "shared/research"]
    for url in Self.citingFiles() {
      let text = try String(contentsOf: url, encoding: .utf8)
      for name in outside {
        #expect(!text.contains(name), "\(url.path) cites \(name), outside the repository")
      }
    }
  }
}
