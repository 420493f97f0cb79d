import Foundation
import Testing

/// Mounts a small tmpfs (root only), for full-disk and read-only tests; nil where not allowed.
func mountTmpfs(_ dir: String, options: String) -> Bool {
  guard getuid() == 0 else { return false }
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/bin/mount")
  p.arguments = ["-t", "tmpfs", "-o", options, "tmpfs", dir]
  p.standardError = FileHandle.nullDevice
  guard (try? p.run()) != nil else { return false }
  p.waitUntilExit()
  return p.terminationStatus == 0
}

/// Whether this machine lets the tests mount a small tmpfs (root, and mount permitted): tried
/// once on a scratch folder.
let tmpfsMountable: Bool = {
  let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-mount-\(getpid())").path
  guard (try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)) != nil else { return false }
  defer { try? FileManager.default.removeItem(atPath: dir) }
  guard mountTmpfs(dir, options: "size=64k") else { return false }
  unmount(dir)
  return true
}()

func unmount(_ dir: String) {
  let p = Process()
  p.executableURL = URL(fileURLWithPath: "/bin/umount")
  p.arguments = [dir]
  try? p.run()
  p.waitUntilExit()
}

@Suite("Hostile input, limits and faults")
struct FaultTests {
  /// Hostile YAML: each refused with one line naming the file, in bounded time and memory.
  static let hostile: [(name: String, text: String, message: String)] = {
    var bomb = ["name: bomb", "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in 1..<10 { bomb.append("a\(i): &a\(i) [" + Array(repeating: "*a\(i - 1)", count: 9).joined(separator: ", ") + "]") }
    bomb.append("population: {size: *a9}")
    return [
      ("bomb.yaml", bomb.joined(separator: "\n") + "\n", "more than 200000 values"),
      ("deep.yaml", "name: deep\nprotocol: " + String(repeating: "[", count: 50_000) + String(repeating: "]", count: 50_000) + "\n", "nesting deeper than 64 levels"),
      ("long-value.yaml", "name: \"" + String(repeating: "x", count: 100_000) + "\"\n", "a value of 100000 characters"),
      ("long-key.yaml", "name: n\n" + String(repeating: "k", count: 5_000) + ": 1\n", "a key longer than 1024 characters"),
      ("duplicate.yaml", "name: a\nname: b\n", "duplicate key 'name'"),
      ("nan.yaml", "name: n\npopulation: {size: .nan}\n", "population.size"),
      ("inf.yaml", "name: n\nduration: .inf\n", "duration"),
      ("negative.yaml", "name: n\nprotocol: {reminders: {count: -2}}\n", "protocol.reminders.count"),
      ("negative-duration.yaml", "name: n\nprotocol: {expiry: -5m}\n", "protocol.expiry"),
      ("nan-share.yaml", "name: n\npopulation: {devices: {ideal: .nan}}\n", "population.devices"),
    ]
  }()

  @Test("hostile YAML is refused with a clear message, exit code 1, quickly", arguments: 0..<10)
  func hostileYAML(index: Int) throws {
    let (name, text, message) = Self.hostile[index]
    let tmp = try Scratch()
    defer { tmp.remove() }
    let path = try tmp.write(name, text)
    let start = Date()
    let r = try ESMSimBinary.run(["run", path, "--output", tmp.path("out")])
    #expect(r.status == 1, "\(name): \(r.stderr)")
    #expect(r.stderr.hasPrefix("esmsim: \(path)"), "\(r.stderr)")
    #expect(r.stderr.contains(message), "\(name): \(r.stderr)")
    #expect(r.stderr.split(separator: "\n").count == 1)
    #expect(Date().timeIntervalSince(start) < 20)
    #expect(!FileManager.default.fileExists(atPath: tmp.path("out")))
  }

  @Test("calibrate: a malformed pilot file gets one located error, exit code 1, and no output file")
  func malformedPilot() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let scenario = try tmp.write("pilot.yaml", "name: pilot\nduration: 3d\npopulation: {size: 10}\n")
    let header = "id,deviceId,timestamp,timezone,os,jsonVersion,label,scheduleId,esmTrigger,esmType,esmTitle,esmInstructions,esmAnswer,esmAnswerTime,esmStatus,esmNotificationTime\n"
    let good = "1,a,1767606934708,0,iOS,1,x,esm,mood,6,Mood,,50,1767606934708,1,1767606886037\n"
    let bad = "2,a,1767616015059,0,iOS,1,x,esm,mood,6,Mood,,56,1767616015059,9,1767614873555\n"
    let pilot = try tmp.write("esms.csv", header + good + bad)
    let r = try ESMSimBinary.run(["calibrate", pilot, "--format", "aware", "--scenario", scenario, "--output", tmp.path("block.yaml")])
    #expect(r.status == 1)
    #expect(r.stderr == "esmsim: \(pilot): esmStatus (line 3, column 63): expected 0 (new), 1 (answered), 2 (dismissed) or 3 (expired), found 9\n", "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: tmp.path("block.yaml")))
    let format = try ESMSimBinary.run(["calibrate", pilot, "--format", "sema3", "--scenario", scenario])
    #expect(format.status != 0 && format.stderr.contains("--format"))
    // Read as another platform's file, it lacks that platform's columns, named.
    let mpath = try ESMSimBinary.run(["calibrate", pilot, "--format", "mpath", "--scenario", scenario])
    #expect(mpath.status == 1 && mpath.stderr.contains("connectionId"), "\(mpath.stderr)")
  }

  @Test("a non-UTF-8 file is refused")
  func notUTF8() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    try Data([0x6E, 0x61, 0x6D, 0x65, 0x3A, 0x20, 0xFF, 0xFE, 0x0A]).write(to: URL(fileURLWithPath: tmp.path("bin.yaml")))
    let r = try ESMSimBinary.run(["validate", tmp.path("bin.yaml")])
    #expect(r.status == 1)
    #expect(r.stderr.contains("is not UTF-8 text"))
  }

  @Test("an absurd study size is refused with its estimate unless --allow-large")
  func absurdSize() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let path = try tmp.write("huge.yaml", "name: huge\nduration: 3650d\npopulation: {size: 10000000}\nreplications: 1000\n")
    let r = try ESMSimBinary.run(["run", path, "--output", tmp.path("out")])
    #expect(r.status == 1)
    #expect(r.stderr.contains("3.6e+13 participant-days"), "\(r.stderr)")
    #expect(r.stderr.contains("--allow-large"))
    #expect(!FileManager.default.fileExists(atPath: tmp.path("out")))
    let v = try ESMSimBinary.run(["validate", path])
    #expect(v.status == 0 && v.stdout.contains("needs --allow-large"))
  }

  @Test("SIGINT mid-run stops promptly with exit code 130 and leaves no results folder; a rerun starts cleanly")
  func interrupt() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let out = tmp.path("run")
    let p = Process()
    p.executableURL = ESMSimBinary.url
    p.arguments = ["run", "scenarios/city-study-benchmark.yaml", "--output", out, "--participants", "4000", "--duration", "60d"]
    p.currentDirectoryURL = ESMSimBinary.packageRoot
    let err = Pipe()
    p.standardError = err
    p.standardOutput = FileHandle.nullDevice
    try p.run()
    // Wait until the run has started writing (its staging folder exists).
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline {
      let staged = (try? FileManager.default.contentsOfDirectory(atPath: tmp.url.path))?.contains { $0.hasPrefix(".run.partial") } ?? false
      if staged { break }
      usleep(20_000)
    }
    usleep(300_000)
    let sent = Date()
    kill(p.processIdentifier, SIGINT)
    let stderr = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    #expect(Date().timeIntervalSince(sent) < 10, "stopped within 10 s")
    #expect(p.terminationStatus == 130, "\(String(decoding: stderr, as: UTF8.self))")
    #expect(String(decoding: stderr, as: UTF8.self).contains("interrupted"))
    #expect(try FileManager.default.contentsOfDirectory(atPath: tmp.url.path).isEmpty, "no results folder and no staging folder")
    let again = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml", "--output", out, "--participants", "5", "--duration", "1d"])
    #expect(again.status == 0, "\(again.stderr)")
  }

  @Test("writing to a device fails with the file's name, exit code 1, and leaves the device alone")
  func unwritableDevice() throws {
    let dev = try ESMSimBinary.run(["schedule", "generate", "--algorithm", "mappiness", "--window", "08:00-22:00", "--output", "/dev/full"])
    #expect(dev.status != 0)
    #expect(dev.stderr.contains("cannot write /dev/full: it is a device or special file"), "\(dev.stderr)")
    var info = stat()
    #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR, "/dev/full is still a device")
  }

  @Test(
    "writing to a full disk or a read-only folder fails with the file's name, exit code 1",
    .enabled(if: tmpfsMountable, "mounting a small tmpfs needs root"))
  func unwritableFolder() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let small = tmp.path("small")
    let readOnly = tmp.path("ro")
    try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: readOnly, withIntermediateDirectories: true)
    try #require(mountTmpfs(small, options: "size=256k"))
    defer { unmount(small) }
    // Refused before it starts: the estimate of its files against the space free.
    let full = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml", "--participants", "50", "--duration", "3d", "--output", small + "/out"])
    #expect(full.status == 1)
    #expect(full.stderr.contains(small) && full.stderr.contains("free"), "\(full.stderr)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: small).isEmpty, "nothing left behind")
    try #require(mountTmpfs(readOnly, options: "ro,size=64k"))
    defer { unmount(readOnly) }
    let ro = try ESMSimBinary.run(["run", "scenarios/quickstart.yaml", "--participants", "5", "--duration", "1d", "--output", readOnly + "/out"])
    #expect(ro.status == 1)
    #expect(ro.stderr.contains(readOnly) && ro.stderr.contains("Read-only file system"), "\(ro.stderr)")
  }
}
