import Foundation

/// Writes a zip archive of stored (uncompressed) files to a file, one file at a time, in
/// bounded memory: each file is copied through a 1 MB buffer, its CRC-32 computed on the way
/// and written back into its header. ZIP64 records (APPNOTE 6.3.x, §4.3.14–4.3.16, §4.5.3) are
/// added where a size, an offset or the number of files passes what the 16- and 32-bit fields
/// hold, so any number of files of any size can be packed. Times are fixed (1980-01-01) so
/// that the same files give the same bytes.
struct ZipWriter: ~Copyable {
  /// A problem writing the archive.
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  private let fd: Int32
  private var offset: UInt64 = 0
  private var central: [UInt8] = []
  private(set) var count = 0
  private var buffer = [UInt8](repeating: 0, count: 1 << 20)

  /// Writes into the open file `fd`, from its start.
  init(fd: Int32) { self.fd = fd }

  /// Adds the file at `path` under `name`.
  mutating func add(_ name: String, path: String) throws(Failure) {
    let source = open(path, O_RDONLY | O_CLOEXEC)
    guard source >= 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
    defer { close(source) }
    var info = stat()
    guard fstat(source, &info) == 0 else { throw Failure(description: "cannot read \(path)") }
    let size = UInt64(info.st_size)
    let nameBytes = Array(name.utf8)
    let start = offset
    let large = size >= 0xFFFF_FFFF
    // The local header, its CRC-32 filled in once the data is written.
    var header = le32(0x0403_4b50) + le16(large ? 45 : 20) + le16(0x0800) + le16(0) + le16(0) + le16(0x21)
    let crcAt = header.count
    header += le32(0) + le32(large ? 0xFFFF_FFFF : UInt32(size)) + le32(large ? 0xFFFF_FFFF : UInt32(size))
    header += le16(UInt16(nameBytes.count)) + le16(large ? 20 : 0) + nameBytes
    if large { header += le16(1) + le16(16) + le64(size) + le64(size) }
    try write(header)
    var crc: UInt32 = 0xffff_ffff
    var copied: UInt64 = 0
    while true {
      let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
      guard n >= 0 else { throw Failure(description: "cannot read \(path): \(String(cString: strerror(errno)))") }
      if n == 0 { break }
      crc = Self.crc32(crc, buffer[..<n])
      try write(buffer[..<n])
      copied += UInt64(n)
    }
    guard copied == size else { throw Failure(description: "\(path) changed while it was packed") }
    crc ^= 0xffff_ffff
    let crcBytes = le32(crc)
    guard pwrite(fd, crcBytes, 4, off_t(start) + off_t(crcAt)) == 4 else {
      throw Failure(description: "cannot write the archive: \(String(cString: strerror(errno)))")
    }
    // The central directory's record; 0xFFFFFFFF fields are in the ZIP64 extra, in order.
    let farOffset = start >= 0xFFFF_FFFF
    var extra: [UInt8] = []
    if large { extra += le64(size) + le64(size) }
    if farOffset { extra += le64(start) }
    if !extra.isEmpty { extra = le16(1) + le16(UInt16(extra.count)) + extra }
    let version: UInt16 = extra.isEmpty ? 20 : 45
    central += le32(0x0201_4b50) + le16(version) + le16(version) + le16(0x0800) + le16(0) + le16(0) + le16(0x21) + crcBytes
    central += le32(large ? 0xFFFF_FFFF : UInt32(size)) + le32(large ? 0xFFFF_FFFF : UInt32(size))
    central += le16(UInt16(nameBytes.count)) + le16(UInt16(extra.count)) + le16(0) + le16(0) + le16(0) + le32(0)
    central += le32(farOffset ? 0xFFFF_FFFF : UInt32(start)) + nameBytes + extra
    count += 1
  }

  /// Writes the central directory and its end records; returns the archive's size.
  consuming func finish() throws(Failure) -> UInt64 {
    let directoryStart = offset
    try write(central)
    let directorySize = UInt64(central.count)
    if count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF {
      let record = offset
      try write(
        le32(0x0606_4b50) + le64(44) + le16(45) + le16(45) + le32(0) + le32(0) + le64(UInt64(count)) + le64(UInt64(count))
          + le64(directorySize) + le64(directoryStart))
      try write(le32(0x0706_4b50) + le32(0) + le64(record) + le32(1))
    }
    let entries = UInt16(min(count, 0xFFFF))
    try write(
      le32(0x0605_4b50) + le16(0) + le16(0) + le16(entries) + le16(entries)
        + le32(UInt32(min(directorySize, 0xFFFF_FFFF))) + le32(UInt32(min(directoryStart, 0xFFFF_FFFF))) + le16(0))
    return offset
  }

  private mutating func write(_ bytes: some Collection<UInt8>) throws(Failure) {
    let n = bytes.withContiguousStorageIfAvailable { Foundation.write(fd, $0.baseAddress, $0.count) }
      ?? Array(bytes).withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
    guard n == bytes.count else {
      throw Failure(description: "cannot write the archive: \(n < 0 ? String(cString: strerror(errno)) : "disk full")")
    }
    offset += UInt64(n)
  }

  private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xff), UInt8(v >> 8)] }
  private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } }
  private func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8((v >> (8 * $0)) & 0xff) } }

  static let table: [UInt32] = (0..<256).map { n -> UInt32 in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
  }

  /// CRC-32 (ISO 3309, as zip uses it) of `data` continued from the running value `c`.
  static func crc32(_ c: UInt32, _ data: ArraySlice<UInt8>) -> UInt32 {
    var c = c
    table.withUnsafeBufferPointer { t in
      for b in data { c = t[Int((c ^ UInt32(b)) & 0xff)] ^ (c >> 8) }
    }
    return c
  }
}
