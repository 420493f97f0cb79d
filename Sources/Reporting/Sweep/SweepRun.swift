import Study
import Presentation
import Foundation
import Measures
import Scenarios
import StudyModel

/// Runs the work units of a sweep and merges their results.
///
/// A sweep's folder holds `sweep.json` (the spec's hash and size), one file per finished unit
/// in `units/` (`u<unit>.json`, written to a temporary name and renamed when complete), and,
/// after the merge, `summary.csv` and `results.sqlite`. A rerun skips finished units, so a
/// shard killed at its wall-time limit resumes where it stopped.
public enum SweepRun {
  /// A problem with a sweep's folder or its units.
  public struct Failure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
  }

  /// One unit's metrics: for each variant, the replication's metric values.
  struct UnitResult {
    var unit: Int
    var point: Int
    var replication: Int
    var spec: String
    var rows: [(variant: String, metric: Metric, value: Estimate)]
  }

  static func unitsDirectory(_ dir: String) -> String { (dir as NSString).appendingPathComponent("units") }
  static func unitFile(_ dir: String, _ u: Int) -> String {
    (unitsDirectory(dir) as NSString).appendingPathComponent(String(format: "u%07d.json", u))
  }

  /// Runs the units of shard `shard` of `shards` into `directory`, skipping finished ones.
  ///
  /// - Returns: the units run and the units skipped as already finished; nil if stopped.
  public static func run(
    _ spec: SweepSpec, directory: String, shard: Int, of shards: Int, threads: Int, version: String,
    shouldStop: @escaping @Sendable () -> Bool = { false }, log: (String) -> Void = { _ in }
  ) throws -> (ran: Int, skipped: Int)? {
    try prepare(spec, directory: directory, version: version)
    var ran = 0
    var skipped = 0
    // Units run point by point: a point's scenario is resolved once for its replications.
    var current: (point: Int, scenario: Scenario)?
    for u in spec.units(shard: shard, of: shards) {
      if shouldStop() { return nil }
      let path = unitFile(directory, u)
      if let existing = try? read(path) {
        guard existing.spec == spec.hash else {
          throw Failure("\(path) belongs to a different sweep (spec \(existing.spec.prefix(12)), this sweep \(spec.hash.prefix(12)))")
        }
        skipped += 1
        continue
      }
      let (p, r) = spec.unit(u)
      if current?.point != p { current = (p, try spec.point(p).scenario) }
      let scenario = current!.scenario
      var rows: [JSONValue] = []
      for (name, plan) in scenario.variants {
        let options = StudySimulation.Options(threads: threads)
        guard let acc = try StudySimulation.simulate(plan, seed: scenario.seed, replication: r, options: options, shouldStop: shouldStop) else {
          return nil
        }
        for (metric, e) in Metrics.values(acc) {
          // Values as Swift's shortest round-trip text, read back exactly by the merge: the
          // value, its standard error over participants and their degrees of freedom.
          // Then whether it is a share and its trials (its intervals stay in [0, 1]).
          rows.append(
            .array([
              .string(name), .string(metric.name), .string("\(e.value)"), .string("\(e.standardError)"), .string("\(e.degrees)"),
              .string(metric.isShare ? "share" : "value"), .string("\(e.trials)"),
            ]))
        }
      }
      let record = JSONValue.object([
        ("spec", .string(spec.hash)), ("unit", .int(u)), ("point", .int(p)), ("replication", .int(r)),
        ("shard", .string("\(shard)/\(shards)")), ("esmsim", .string(version)), ("rows", .array(rows)),
        ("rows_sha256", .string(rowsHash(JSONValue.array(rows).text()))),
      ])
      try AtomicFile.write(record.text() + "\n", to: path)
      ran += 1
      log("unit \(u + 1)/\(spec.unitCount): point \(p + 1), replication \(r + 1)")
    }
    return (ran, skipped)
  }

  /// Creates the folder and `sweep.json`, or checks that an existing folder is this sweep's.
  static func prepare(_ spec: SweepSpec, directory: String, version: String) throws {
    let fm = FileManager.default
    var isDir: ObjCBool = false
    if fm.fileExists(atPath: directory, isDirectory: &isDir), !isDir.boolValue {
      throw Failure("\(directory) exists and is not a folder")
    }
    // A folder of other things is not a sweep's (its merge would write summary.csv among
    // them): only an empty one, or one a sweep began (its units, its sweep.json, the scripts
    // and logs `sweep slurm-script` writes in slurm/, hidden files).
    let meta = (directory as NSString).appendingPathComponent("sweep.json")
    if isDir.boolValue, !fm.fileExists(atPath: meta) {
      let others = ((try? fm.contentsOfDirectory(atPath: directory)) ?? []).filter { $0 != "units" && $0 != "slurm" && !$0.hasPrefix(".") }.sorted()
      if !others.isEmpty {
        throw Failure(
          "\(directory) holds files that are not a sweep's (\(others.prefix(3).joined(separator: ", "))\(others.count > 3 ? ", …" : "")): give a new or empty folder")
      }
    }
    do {
      try fm.createDirectory(atPath: unitsDirectory(directory), withIntermediateDirectories: true)
    } catch {
      throw Failure("cannot create \(unitsDirectory(directory)): \(error.localizedDescription)")
    }
    if let data = fm.contents(atPath: meta) {
      guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let hash = object["spec"] as? String else {
        throw Failure("\(meta) is not a sweep description; is \(directory) a sweep folder?")
      }
      guard hash == spec.hash else {
        throw Failure("\(directory) holds results of a different sweep (spec \(hash.prefix(12)), this sweep \(spec.hash.prefix(12))); use another folder")
      }
      return
    }
    let record = JSONValue.object([
      ("spec", .string(spec.hash)), ("name", .string(spec.name)), ("file", .string(spec.file)),
      ("parameters", .array(spec.parameters.map { .string($0) })), ("points", .int(spec.pointCount)),
      ("replications", .int(spec.replications)), ("units", .int(spec.unitCount)), ("esmsim", .string(version)),
    ])
    try AtomicFile.write(record.text(indent: 2) + "\n", to: meta)
  }

  /// The checksum a unit file carries of its rows (their JSON text as written).
  static func rowsHash(_ text: String) -> String { SHA256.hex(Array(text.utf8)) }

  /// Reads one unit file: its rows must match their checksum, and each be a variant, a
  /// metric, a value (a number or nan, never infinite), its standard error (not negative) and
  /// its degrees of freedom (not negative).
  static func read(_ path: String) throws -> UnitResult {
    guard let data = FileManager.default.contents(atPath: path) else { throw Failure("cannot read \(path)") }
    guard let o = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let spec = o["spec"] as? String,
      let unit = o["unit"] as? Int, let point = o["point"] as? Int, let replication = o["replication"] as? Int,
      let rows = o["rows"] as? [[String]], let checksum = o["rows_sha256"] as? String
    else { throw Failure("\(path) is not a unit result (damaged, from an older esmsim or from another program)") }
    let text = JSONValue.array(rows.map { .array($0.map { .string($0) }) }).text()
    guard rowsHash(text) == checksum else { throw Failure("\(path): its rows do not match their checksum (the file was changed or damaged)") }
    var out: [(String, Metric, Estimate)] = []
    for row in rows {
      if row.count == 5 {
        throw Failure("\(path) was written by an older esmsim (its rows do not say which figures are shares): rerun its shard")
      }
      guard row.count == 7, let value = Double(row[2]), !value.isInfinite, let se = Double(row[3]), !(se < 0), !se.isInfinite,
        let degrees = Int(row[4]), degrees >= 0, row[5] == "share" || row[5] == "value", let trials = Double(row[6]),
        !trials.isInfinite, !(trials < 0)
      else {
        throw Failure("\(path): a damaged row \(row.prefix(7).map { String($0.prefix(40)) })")
      }
      var e = Estimate(value, standardError: se, degrees: degrees)
      e.trials = trials
      out.append((row[0], Metric(name: row[1], isShare: row[5] == "share"), e))
    }
    return UnitResult(unit: unit, point: point, replication: replication, spec: spec, rows: out)
  }

  /// Checks that every replication of every point has the same rows: the sweep's variants in
  /// order, each with the same metrics, none twice. Refuses, naming the unit file, otherwise.
  static func checkShapes(_ spec: SweepSpec, _ results: [Int: UnitResult], variants: [String], directory dir: String) throws {
    for p in 0..<spec.pointCount {
      // The metrics a run of this point writes, variant by variant (those of an empty run:
      // the names do not depend on the draws).
      let scenario = try spec.point(p).scenario
      let full = scenario.variants.flatMap { v in
        Metrics.values(StudyAccumulator(plan: v.plan)).map { v.name + "\u{1F}" + $0.0.name }
      }
      var expected: [String]? = full
      for r in 0..<spec.replications {
        let unit = results[p * spec.replications + r]!
        let name = (unitFile(dir, unit.unit) as NSString).lastPathComponent
        var seen = Set<String>()
        var order: [String] = []
        for row in unit.rows {
          guard seen.insert(row.variant + "\u{1F}" + row.metric.name).inserted else {
            throw Failure("\(name): metric \(row.metric) of variant \(row.variant) appears twice")
          }
          if order.last != row.variant { order.append(row.variant) }
        }
        guard order == variants else {
          throw Failure(
            "\(name): variants \(order.joined(separator: ", ")), but the sweep's scenario has \(variants.joined(separator: ", "))")
        }
        let keys = unit.rows.map { $0.variant + "\u{1F}" + $0.metric.name }
        if let expected, keys != expected {
          throw Failure(
            "\(name): \(keys.count) metric rows where a run of its point writes \(expected.count) (or other ones); the unit is damaged or from another run: remove it and rerun its shard")
        }
        expected = keys
      }
    }
  }

  /// Checks that every unit of `spec` is in `directory` exactly once, with the spec's hash,
  /// then writes `summary.csv` (one row per point, variant and metric: mean, sd and 95 %
  /// interval across replications) and `results.sqlite`.
  ///
  /// - Returns: the files written.
  public static func merge(_ spec: SweepSpec, directory: String) throws -> [String] {
    let dir = unitsDirectory(directory)
    let results = try completeUnits(spec, in: dir)
    try checkShapes(spec, results, variants: try spec.point(0).scenario.variants.map(\.name), directory: dir)
    let header = ["point"] + spec.parameters + TableSchema.summary.header
    try writeMerged(spec, header: header, rows: summaryRows(spec, results), directory: directory)
    return ["summary.csv", "results.sqlite"]
  }

  /// Every unit of `spec` in `dir`, each exactly once and with the spec's hash.
  static func completeUnits(_ spec: SweepSpec, in dir: String) throws -> [Int: UnitResult] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else {
      throw Failure("\(dir) does not exist: run `esmsim sweep run` first")
    }
    var byUnit: [Int: [String]] = [:]
    var results: [Int: UnitResult] = [:]
    var foreign: [String] = []
    for name in names.sorted() where !name.hasPrefix(".") && name.hasSuffix(".json") {
      let path = (dir as NSString).appendingPathComponent(name)
      let r = try read(path)
      if r.spec != spec.hash {
        foreign.append(name)
        continue
      }
      guard r.unit >= 0 && r.unit < spec.unitCount, spec.unit(r.unit) == (r.point, r.replication) else {
        throw Failure("\(path) names unit \(r.unit), which this sweep does not have")
      }
      byUnit[r.unit, default: []].append(name)
      results[r.unit] = r
    }
    if !foreign.isEmpty {
      throw Failure(
        "\(foreign.count) unit file(s) in \(dir) come from a different sweep spec (\(foreign.prefix(5).joined(separator: ", "))); this sweep's spec is \(spec.hash.prefix(12))"
      )
    }
    let duplicated = byUnit.filter { $0.value.count > 1 }.sorted { $0.key < $1.key }
    if !duplicated.isEmpty {
      let list = duplicated.prefix(5).map { "unit \($0.key) (\($0.value.joined(separator: ", ")))" }.joined(separator: "; ")
      throw Failure("\(duplicated.count) unit(s) present more than once in \(dir): \(list)")
    }
    let missing = (0..<spec.unitCount).filter { results[$0] == nil }
    if !missing.isEmpty {
      let list = missing.prefix(10).map { u -> String in
        let (p, r) = spec.unit(u)
        return "\(u) (point \(p + 1), replication \(r + 1))"
      }.joined(separator: ", ")
      throw Failure("\(missing.count) of \(spec.unitCount) unit(s) missing in \(dir): \(list)\(missing.count > 10 ? ", …" : ""); run the shards that hold them")
    }
    return results
  }

  /// summary.csv's rows: per point and variant, each metric across the replications.
  static func summaryRows(_ spec: SweepSpec, _ results: [Int: UnitResult]) -> [[String]] {
    // Replications in order.
    var rows: [[String]] = []
    for p in 0..<spec.pointCount {
      var variants: [String] = []
      var perVariant: [String: [[(Metric, Estimate)]]] = [:]
      for r in 0..<spec.replications {
        let unit = results[p * spec.replications + r]!
        var seen: [String: [(Metric, Estimate)]] = [:]
        for row in unit.rows {
          if seen[row.variant] == nil && !variants.contains(row.variant) { variants.append(row.variant) }
          seen[row.variant, default: []].append((row.metric, row.value))
        }
        for (v, list) in seen { perVariant[v, default: []].append(list) }
      }
      for v in variants {
        for s in SummaryRow.rows(variant: v, replications: perVariant[v] ?? []) {
          rows.append([String(p + 1)] + spec.values(p) + s.cells)
        }
      }
    }
    return rows
  }

  /// The SQLite type of a swept parameter's column: INTEGER when every value is a whole
  /// number, REAL when every value is a finite number, TEXT otherwise (a duration such as
  /// `15m`, a name), so that a query compares numbers as numbers (`WHERE per_day > 9`).
  static func parameterColumnType(_ values: [String]) -> String {
    if values.allSatisfy({ Int($0) != nil }) { return "INTEGER" }
    if values.allSatisfy({ Double($0)?.isFinite == true }) { return "REAL" }
    return "TEXT"
  }

  /// Writes summary.csv and results.sqlite into `directory`.
  static func writeMerged(_ spec: SweepSpec, header: [String], rows: [[String]], directory: String) throws {
    // Both files are written under temporary names first and renamed only when both are
    // complete: a failure (a full disk) leaves neither half of a merge.
    let summaryPath = (directory as NSString).appendingPathComponent("summary.csv")
    let dbPath = (directory as NSString).appendingPathComponent("results.sqlite")
    let pid = ProcessInfo.processInfo.processIdentifier
    let summaryTemporary = (directory as NSString).appendingPathComponent(".summary.csv.tmp-\(pid)")
    let dbTemporary = (directory as NSString).appendingPathComponent(".results.sqlite.tmp-\(pid)")
    try? FileManager.default.removeItem(atPath: dbTemporary)
    // A target that cannot be replaced (a folder in its place) is refused before either is.
    try AtomicFile.requireRegular(summaryPath)
    try AtomicFile.requireRegular(dbPath)
    do {
      try AtomicFile.write(CSVFile.text(header: header, rows: rows), to: summaryTemporary)
      let db = try SQLiteDatabase(path: dbTemporary)
      // The point, its parameters' values (numbers where every point's value is one), then
      // summary.csv's own columns.
      let values = (0..<spec.pointCount).map(spec.values)
      let parameterTypes = spec.parameters.indices.map { i in parameterColumnType(values.map { $0[i] }) }
      let columns: [SQLiteDatabase.Column] =
        [("point", "INTEGER")] + zip(spec.parameters, parameterTypes).map { ($0, $1) }
        + TableSchema.summary.sqliteColumns
      try db.createTable("summary", columns)
      for row in rows { try db.insert("summary", row) }
      try db.close()
      // The old database kept aside until summary.csv is in place too, and put back if it is not.
      let dbBackup = (directory as NSString).appendingPathComponent(".results.sqlite.old-\(pid)")
      let hadDB = FileManager.default.fileExists(atPath: dbPath)
      if hadDB { guard rename(dbPath, dbBackup) == 0 else { throw Failure("cannot write \(dbPath): \(String(cString: strerror(errno)))") } }
      guard rename(dbTemporary, dbPath) == 0 else {
        let reason = String(cString: strerror(errno))
        if hadDB { _ = rename(dbBackup, dbPath) }
        throw Failure("cannot write \(dbPath): \(reason)")
      }
      guard rename(summaryTemporary, summaryPath) == 0 else {
        let reason = String(cString: strerror(errno))
        if hadDB { _ = rename(dbBackup, dbPath) } else { try? FileManager.default.removeItem(atPath: dbPath) }
        throw Failure("cannot write \(summaryPath): \(reason)")
      }
      if hadDB { try? FileManager.default.removeItem(atPath: dbBackup) }
    } catch {
      try? FileManager.default.removeItem(atPath: dbTemporary)
      try? FileManager.default.removeItem(atPath: summaryTemporary)
      throw error
    }
  }
}
