import Foundation
import Reporting
import Scenarios

/// A scenario's results folder (what `esmsim run` writes) as a zip file, for the planner's
/// export: written into a private temporary folder, packed, and removed.
enum ResultsArchive {
  static func zip(_ scenario: Scenario, threads: Int, version: String) throws -> [UInt8] {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("esmsim-serve-\(UUID().uuidString)")
    try fm.createDirectory(at: root, withIntermediateDirectories: false)
    defer { try? fm.removeItem(at: root) }
    let folder = root.appendingPathComponent("results")
    let outcome = try StudyRun.run(scenario, to: folder.path, options: .init(threads: threads), version: version)
    var archive = ZipArchive()
    for file in outcome.files {
      let path = folder.appendingPathComponent(file).path
      var isDir: ObjCBool = false
      guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
      if isDir.boolValue {
        for case let sub as String in fm.enumerator(atPath: path)?.allObjects ?? [] {
          let full = (path as NSString).appendingPathComponent(sub)
          var d: ObjCBool = false
          if fm.fileExists(atPath: full, isDirectory: &d), !d.boolValue, let data = fm.contents(atPath: full) {
            archive.add("results/\(file)/\(sub)", [UInt8](data))
          }
        }
      } else if let data = fm.contents(atPath: path) {
        archive.add("results/\(file)", [UInt8](data))
      }
    }
    return archive.bytes()
  }
}

/// A zip archive of stored (uncompressed) files: local headers, then the central directory.
struct ZipArchive {
  private var body: [UInt8] = []
  private var central: [UInt8] = []
  private var count = 0

  mutating func add(_ name: String, _ data: [UInt8]) {
    let nameBytes = Array(name.utf8)
    let crc = Self.crc32(data)
    let offset = UInt32(body.count)
    // Local file header: version 2.0, no flags, stored, a fixed time (1980-01-01) for the same bytes every time.
    body += le32(0x0403_4b50) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21) + le32(crc)
      + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count)) + le16(0) + nameBytes + data
    central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21) + le32(crc)
      + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0)
      + le16(0) + le32(0) + le32(offset) + nameBytes
    count += 1
  }

  func bytes() -> [UInt8] {
    body + central + le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(count)) + le16(UInt16(count))
      + le32(UInt32(central.count)) + le32(UInt32(body.count)) + le16(0)
  }

  private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
  private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }

  static let table: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  static func crc32(_ data: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xffff_ffff
    for b in data { c = table[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
    return c ^ 0xffff_ffff
  }
}
