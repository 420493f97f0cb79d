import CSQLite
import Presentation
import Study
import Foundation
import Testing

@testable import Reporting
@testable import Scenarios

/// A scratch folder with a small base scenario and sweep files.
struct SweepFixture {
  let root: String

  init() throws {
    root = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-sweep-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    try write(
      "base.yaml",
      """
      name: sweep base
      seed: 5
      duration: 2d
      population: {size: 12, devices: {non_controlled: 0.5, heavy: 0.5}, os: {ios: 0.5, android: 0.5}}
      protocol:
        schedule: {algorithm: mappiness, per_day: 3}
        sensors: {location: {every: 3m}}
      variants:
        - name: local
        - name: push
          protocol: {channel: push}
      """)
    try write(
      "sweep.yaml",
      """
      name: small sweep
      scenario: base.yaml
      replications: 3
      grid:
        protocol.schedule.per_day: [2, 4]
        protocol.expiry: [15m, until_next]
      """)
  }

  func path(_ name: String) -> String { (root as NSString).appendingPathComponent(name) }

  @discardableResult
  func write(_ name: String, _ text: String) throws -> String {
    try text.write(toFile: path(name), atomically: true, encoding: .utf8)
    return path(name)
  }

  func remove() { try? FileManager.default.removeItem(atPath: root) }

  /// Runs every shard of a K-way split into `dir` and merges; returns summary.csv.
  func runSharded(_ spec: SweepSpec, shards k: Int, into dir: String) throws -> Data {
    for i in 0..<k {
      _ = try SweepRun.run(spec, directory: path(dir), shard: i, of: k, threads: 2, version: "test")
    }
    _ = try SweepRun.merge(spec, directory: path(dir))
    return try Data(contentsOf: URL(fileURLWithPath: path(dir + "/summary.csv")))
  }
}

@Suite("Parameter sweeps: shards, resume, merge checks")
struct SweepTests {
  @Test("the spec: a grid of 2 × 2 points × 3 replications is 12 units, split contiguously")
  func plan() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    #expect(spec.parameters == ["protocol.schedule.per_day", "protocol.expiry"])
    #expect((0..<spec.pointCount).map(spec.values) == [["2", "15m"], ["2", "until_next"], ["4", "15m"], ["4", "until_next"]])
    #expect(spec.unitCount == 12)
    #expect(try spec.point(2).scenario.variants[0].plan.protocolPlan.schedules[0].choice?.parameters.perDay == 4)
    // Every unit in exactly one shard, for any K.
    for k in [1, 3, 5, 7, 12, 13, 40] {
      let all = (0..<k).flatMap { Array(spec.units(shard: $0, of: k)) }
      #expect(all == Array(0..<12), "K = \(k)")
    }
    // Any shard count the command line can give: no overflow, the last shard ends at N.
    #expect(spec.units(shard: Int.max - 1, of: Int.max) == 11..<12)
    #expect(spec.units(shard: 0, of: Int.max).isEmpty)
    // The hash depends on what decides the results.
    let other = try SweepSpec.load(path: f.write("other.yaml", "scenario: base.yaml\nreplications: 4\ngrid: {protocol.expiry: [15m]}\n"))
    #expect(other.hash != spec.hash)
  }

  @Test("merged results are byte-identical for K = 1, 3 and 7 shards")
  func shardCountDoesNotMatter() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    let one = try f.runSharded(spec, shards: 1, into: "k1")
    let text = String(decoding: one, as: UTF8.self)
    // 4 points × 2 variants × every metric; the parameter columns are there.
    #expect(text.hasPrefix("point,protocol.schedule.per_day,protocol.expiry,variant,metric,mean,sd,ci_low,ci_high,n,participant_ci_low,participant_ci_high\n"))
    #expect(text.contains("\n4,4,until_next,push,compliance,"))
    #expect(try f.runSharded(spec, shards: 3, into: "k3") == one)
    #expect(try f.runSharded(spec, shards: 7, into: "k7") == one)
  }

  @Test("results.sqlite stores a swept number as a number, a duration as text")
  func parameterColumnTypes() throws {
    #expect(SweepRun.parameterColumnType(["2", "4", "10"]) == "INTEGER")
    #expect(SweepRun.parameterColumnType(["0.5", "1", "1e-3"]) == "REAL")
    #expect(SweepRun.parameterColumnType(["15m", "until_next"]) == "TEXT")
    #expect(SweepRun.parameterColumnType(["1", "nan"]) == "TEXT")
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    _ = try f.runSharded(spec, shards: 1, into: "typed")
    var db: OpaquePointer?
    #expect(sqlite3_open_v2(f.path("typed/results.sqlite"), &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK)
    defer { sqlite3_close(db) }
    // A numeric comparison: the grid's per_day values are 2 and 4, so none is over 10 (as
    // text, '2' and '4' both sort after '10') and the points with 4 are those over 3.
    func scalar(_ sql: String) -> String {
      var stmt: OpaquePointer?
      guard sqlite3_prepare_v2(db, sql, -1, &stmt, nil) == SQLITE_OK else { return "prepare failed" }
      defer { sqlite3_finalize(stmt) }
      guard sqlite3_step(stmt) == SQLITE_ROW, let text = sqlite3_column_text(stmt, 0) else { return "no row" }
      return String(cString: text)
    }
    #expect(scalar(#"SELECT group_concat(DISTINCT typeof("protocol.schedule.per_day")) FROM summary"#) == "integer")
    #expect(scalar(#"SELECT group_concat(DISTINCT typeof("protocol.expiry")) FROM summary"#) == "text")
    #expect(scalar(#"SELECT count(*) FROM summary WHERE "protocol.schedule.per_day" > 10"#) == "0")
    #expect(scalar(#"SELECT group_concat(DISTINCT point) FROM summary WHERE "protocol.schedule.per_day" > 3"#) == "3,4")
  }

  @Test("a shard stopped part-way is rerun without running or counting any unit twice")
  func resume() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    let reference = try f.runSharded(spec, shards: 1, into: "whole")
    // Shard 0 of 2 (units 0–5) is stopped after three units, as a wall-time kill would.
    let units = f.path("resumed/units")
    let stopped = try SweepRun.run(
      spec, directory: f.path("resumed"), shard: 0, of: 2, threads: 1, version: "test",
      shouldStop: { ((try? FileManager.default.contentsOfDirectory(atPath: units).count) ?? 0) >= 3 })
    #expect(stopped == nil)
    #expect(try FileManager.default.contentsOfDirectory(atPath: f.path("resumed/units")).filter { $0.hasSuffix(".json") }.count == 3)
    // The merge refuses the incomplete folder, naming what is missing.
    #expect(throws: SweepRun.Failure.self) { try SweepRun.merge(spec, directory: f.path("resumed")) }
    let rerun = try SweepRun.run(spec, directory: f.path("resumed"), shard: 0, of: 2, threads: 1, version: "test")
    #expect(rerun?.ran == 3 && rerun?.skipped == 3)
    _ = try SweepRun.run(spec, directory: f.path("resumed"), shard: 1, of: 2, threads: 1, version: "test")
    _ = try SweepRun.merge(spec, directory: f.path("resumed"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: f.path("resumed/summary.csv"))) == reference)
  }

  @Test("the merge refuses a missing unit, a duplicated unit and a unit of another spec")
  func mergeRefuses() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    _ = try f.runSharded(spec, shards: 2, into: "done")
    let units = f.path("done/units")
    func mergeError() -> String? {
      do {
        _ = try SweepRun.merge(spec, directory: f.path("done"))
        return nil
      } catch { return "\(error)" }
    }
    #expect(mergeError() == nil)
    // Missing.
    let five = units + "/u0000005.json"
    let saved = try Data(contentsOf: URL(fileURLWithPath: five))
    try FileManager.default.removeItem(atPath: five)
    #expect(mergeError()?.contains("1 of 12 unit(s) missing") == true)
    #expect(mergeError()?.contains("5 (point 2, replication 3)") == true)
    try saved.write(to: URL(fileURLWithPath: five))
    // Duplicated.
    try saved.write(to: URL(fileURLWithPath: units + "/u0000005-copy.json"))
    #expect(mergeError()?.contains("present more than once") == true)
    #expect(mergeError()?.contains("u0000005-copy.json") == true)
    try FileManager.default.removeItem(atPath: units + "/u0000005-copy.json")
    // Another spec's unit.
    var text = String(decoding: saved, as: UTF8.self)
    text = text.replacingOccurrences(of: spec.hash, with: String(repeating: "0", count: 64))
    try text.write(toFile: five, atomically: true, encoding: .utf8)
    #expect(mergeError()?.contains("different sweep spec") == true)
    // And running into a folder of another sweep is refused.
    let other = try SweepSpec.load(path: f.write("other.yaml", "scenario: base.yaml\nreplications: 2\ngrid: {protocol.expiry: [15m]}\n"))
    #expect(throws: SweepRun.Failure.self) {
      _ = try SweepRun.run(other, directory: f.path("done"), shard: 0, of: 1, threads: 1, version: "test")
    }
  }

  /// Rewrites a unit file's rows with `change` and, unless `keepChecksum`, a checksum that
  /// matches them (a unit from a faulty program, not a damaged one).
  func rewrite(_ path: String, keepChecksum: Bool = false, _ change: ([[String]]) -> [[String]]) throws {
    var o = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
    let rows = change(o["rows"] as! [[String]])
    o["rows"] = rows
    if !keepChecksum { o["rows_sha256"] = SweepRun.rowsHash(JSONValue.array(rows.map { .array($0.map { .string($0) }) }).text()) }
    try JSONSerialization.data(withJSONObject: o).write(to: URL(fileURLWithPath: path))
  }

  @Test("the merge refuses units of the wrong shape by name: fewer rows (a crash before), an extra variant, a metric twice, a changed value")
  func mergeChecksUnits() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    _ = try f.runSharded(spec, shards: 1, into: "done")
    let unit = f.path("done/units/u0000004.json")
    let saved = try Data(contentsOf: URL(fileURLWithPath: unit))
    func mergeError() -> String? {
      do {
        _ = try SweepRun.merge(spec, directory: f.path("done"))
        return nil
      } catch { return "\(error)" }
    }
    let cases: [(String, Bool, ([[String]]) -> [[String]])] = [
      ("where a run of its point writes", false, { Array($0.dropLast(3)) }),
      ("variants local, push, extra", false, { $0 + [["extra", "compliance", "0.5", "nan", "0", "share", "nan"]] }),
      ("appears twice", false, { $0 + [$0[0]] }),
      ("checksum", true, { rows in rows.map { $0[1] == "compliance" ? [$0[0], $0[1], "nan"] + $0[3...] : $0 } }),
      ("damaged row", false, { rows in rows.map { $0[1] == "compliance" ? [$0[0], $0[1], "inf"] + $0[3...] : $0 } }),
      ("older esmsim", false, { rows in rows.map { Array($0.prefix(5)) } }),
    ]
    for (expected, keep, change) in cases {
      try rewrite(unit, keepChecksum: keep, change)
      let error = mergeError()
      #expect(error?.contains("u0000004.json") == true && error?.contains(expected) == true, "\(expected): \(String(describing: error))")
      try saved.write(to: URL(fileURLWithPath: unit))
    }
    #expect(mergeError() == nil)
    // Every replication of a point cut to its first 3 rows alike: still refused (L4).
    let point = (0..<spec.replications).map { f.path(String(format: "done/units/u%07d.json", $0)) }
    let kept = try point.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
    // Each variant's first 3 rows kept.
    for u in point {
      try rewrite(u) { rows in
        var seen: [String: Int] = [:]
        return rows.filter { r in
          seen[r[0], default: 0] += 1
          return seen[r[0]]! <= 3
        }
      }
    }
    #expect(mergeError()?.contains("6 metric rows where a run of its point writes") == true, "\(String(describing: mergeError()))")
    for (u, d) in zip(point, kept) { try d.write(to: URL(fileURLWithPath: u)) }
    #expect(mergeError() == nil)
  }

  /// The fixture's sweep, its units run into `folder` (two shards), not merged.
  static func ranInto(_ folder: String) throws -> (SweepFixture, SweepSpec) {
    let f = try SweepFixture()
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    for i in 0..<2 { _ = try SweepRun.run(spec, directory: f.path(folder), shard: i, of: 2, threads: 2, version: "test") }
    return (f, spec)
  }

  @Test("a merge that cannot write results.sqlite leaves no summary.csv either")
  func mergeIsWhole() throws {
    let (f, spec) = try Self.ranInto("done")
    defer { f.remove() }
    // results.sqlite cannot be replaced: a folder with a file in it stands in its place.
    try FileManager.default.createDirectory(atPath: f.path("done/results.sqlite"), withIntermediateDirectories: false)
    try "x".write(toFile: f.path("done/results.sqlite/x"), atomically: true, encoding: .utf8)
    #expect(throws: (any Error).self) { try SweepRun.merge(spec, directory: f.path("done")) }
    let left = try FileManager.default.contentsOfDirectory(atPath: f.path("done")).sorted()
    #expect(left == ["results.sqlite", "sweep.json", "units"], "\(left)")
  }

  @Test("a folder holding other files is not a sweep's: refused before any unit runs")
  func foreignFolder() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    try FileManager.default.createDirectory(atPath: f.path("mine"), withIntermediateDirectories: false)
    try "notes".write(toFile: f.path("mine/readme.txt"), atomically: true, encoding: .utf8)
    #expect { _ = try SweepRun.run(spec, directory: f.path("mine"), shard: 0, of: 1, threads: 2, version: "test") } throws: {
      "\($0)".contains("not a sweep's (readme.txt)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: f.path("mine")) == ["readme.txt"])
    // An empty folder, or one with only hidden files and the slurm/ folder of `sweep
    // slurm-script` (its scripts and the jobs' logs, written before any job runs), is fine.
    try FileManager.default.removeItem(atPath: f.path("mine/readme.txt"))
    try "".write(toFile: f.path("mine/.hidden"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: f.path("mine/slurm/logs"), withIntermediateDirectories: true)
    #expect(try SweepRun.run(spec, directory: f.path("mine"), shard: 0, of: 2, threads: 2, version: "test") != nil)
  }

  @Test("a merge that cannot write summary.csv leaves the earlier results.sqlite as it was")
  func mergeKeepsTheOld() throws {
    let (f, spec) = try Self.ranInto("done")
    defer { f.remove() }
    // An earlier results.sqlite (here a stand-in) and a folder where summary.csv goes: the
    // merge fails and replaces neither (it replaced results.sqlite before).
    try "earlier".write(toFile: f.path("done/results.sqlite"), atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: f.path("done/summary.csv"), withIntermediateDirectories: false)
    #expect(throws: (any Error).self) { try SweepRun.merge(spec, directory: f.path("done")) }
    #expect(try String(contentsOfFile: f.path("done/results.sqlite"), encoding: .utf8) == "earlier")
    let left = try FileManager.default.contentsOfDirectory(atPath: f.path("done")).sorted()
    #expect(left == ["results.sqlite", "summary.csv", "sweep.json", "units"], "\(left)")
  }

  @Test("a grid is resolved point by point as it runs; its limits are stated as they are")
  func lazyGrid() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    // Every value of each parameter is checked at load (with the others at their first) ...
    let bad = try f.write("bad-corner.yaml", "scenario: base.yaml\ngrid: {protocol.schedule.per_day: [2, 9]}\n")
    #expect(throws: ScenarioError.self) { try SweepSpec.load(path: bad) }
    // ... but no point is kept: a point is resolved when asked for.
    let spec = try SweepSpec.load(path: f.path("sweep.yaml"))
    #expect(try spec.point(3).values == ["4", "until_next"])
    #expect(try spec.checkPoints() == 4 * 2 * 12 * 2)
    let huge = try f.write(
      "huge.yaml", "scenario: base.yaml\ngrid:\n  protocol.expiry: [" + (1...400).map { "\($0)m" }.joined(separator: ", ") + "]\n  seed: ["
        + (1...251).map(String.init).joined(separator: ", ") + "]\n")
    let error = #expect(throws: ScenarioError.self) { try SweepSpec.load(path: huge) }
    #expect(error?.message.contains("more than 100000 points") == true, "\(String(describing: error))")
  }

  @Test("a variant that sets the swept key itself (its own schedule) gets the point's value over its own (it kept its own, labelled with the point's)")
  func variantsGetThePoint() throws {
    let f = try SweepFixture()
    defer { f.remove() }
    try f.write(
      "variants.yaml",
      """
      name: own schedules
      duration: 2d
      population: {size: 3}
      protocol: {schedule: {algorithm: mappiness, per_day: 3}}
      variants:
        - name: shared
        - name: blocks
          protocol: {schedule: {algorithm: fixed-blocks, per_day: 6}}
        - name: per-day
          protocol: {schedule: {per_day: 4}}
      """)
    let spec = try SweepSpec.load(path: f.write("s.yaml", "scenario: variants.yaml\nreplications: 1\ngrid: {protocol.schedule.per_day: [2, 5]}\n"))
    for (p, perDay) in [(0, 2), (1, 5)] {
      let variants = try spec.point(p).scenario.variants
      #expect(variants.count == 3)
      for v in variants {
        guard case .signals(let choice) = v.plan.protocolPlan.schedules[0].rule else {
          Issue.record("\(v.name): not signals")
          continue
        }
        #expect(choice.parameters.perDay == Double(perDay), "\(v.name) at \(perDay): \(String(describing: choice.parameters.perDay))")
      }
      // The blocks variant keeps its own algorithm.
      guard case .signals(let blocks) = variants[1].plan.protocolPlan.schedules[0].rule else { continue }
      #expect(blocks.algorithm == .fixedBlocks)
    }
  }

  @Test("bad sweep files: one error naming the key", arguments: [
    ("scenario: base.yaml\ngrid: {protocol.schedule.per_dya: [2]}\n", "protocol.schedule.per_dya"),
    ("scenario: base.yaml\ngrid: {}\n", "the grid is empty"),
    ("scenario: base.yaml\ngrid: {protocol.expiry: []}\n", "grid.protocol.expiry"),
    ("scenario: base.yaml\n", "give a grid"),
    ("scenario: missing.yaml\ngrid: {protocol.expiry: [15m]}\n", "no such file"),
    ("scenario: base.yaml\ngrid: {protocol.expiry: [15m, soon]}\n", "protocol.expiry"),
    // A value the sweep file sets is located in the sweep file (line 3, where `-5m` is), by its
    // grid key; the base scenario's name and a line of its own were given before.
    ("scenario: base.yaml\ngrid:\n  protocol.expiry: [15m, -5m]\n", "bad.yaml: grid.protocol.expiry (line 3, column 26)"),
    ("scenario: base.yaml\ngrid: {outputs.report: [true]}\n", "grid.outputs.report"),
    ("scenario: base.yaml\ngrid: {protocol.expiry: [15m]}\npoints: [{protocol.expiry: 15m}]\n", "not both"),
    ("scenario: base.yaml\ngrid: {protocol.expiry: [15m]}\nreplicates: 3\n", "replicates"),
    // A key before the mapping above it, or set under a varied key, would change nothing.
    (
      "scenario: base.yaml\ngrid:\n  protocol.schedule.per_day: [2, 6]\n  protocol.schedule: [{algorithm: bernoulli}]\n",
      "grid.protocol.schedule.per_day"
    ),
    ("scenario: base.yaml\nset: {protocol.schedule.per_day: 2}\ngrid:\n  protocol.schedule: [{algorithm: bernoulli}]\n", "set.protocol.schedule.per_day"),
  ])
  func badSpecs(text: String, expected: String) throws {
    let f = try SweepFixture()
    defer { f.remove() }
    let path = try f.write("bad.yaml", text)
    do {
      _ = try SweepSpec.load(path: path)
      Issue.record("accepted: \(text)")
    } catch {
      #expect(error.description.hasPrefix(path), "\(error)")
      #expect(error.description.contains(expected), "\(error)")
    }
  }
}
