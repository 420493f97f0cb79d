import Foundation
import Testing

@Suite("esmsim schedule")
struct ScheduleCommandTests {
  @Test("generate writes day,index,minute rows, reproducibly for a seed")
  func generateCSV() throws {
    let args = ["schedule", "--algorithm", "mappiness", "--per-day", "3", "--window", "08:00-20:00", "--days", "20", "--seed", "5"]
    let a = try ESMSimBinary.run(args)
    #expect(a.status == 0)
    let lines = a.stdout.split(separator: "\n")
    #expect(lines.first == "day,index,minute")
    #expect(lines.count == 1 + 60)
    for line in lines.dropFirst() {
      let f = line.split(separator: ",")
      #expect(f.count == 3)
      let minute = try #require(Double(f[2]))
      #expect(minute >= 0 && minute < 710)
    }
    #expect(try ESMSimBinary.run(args).stdout == a.stdout)
    #expect(try ESMSimBinary.run(args.dropLast() + ["6"]).stdout != a.stdout)
  }

  @Test("--weekdays and --every-days: signals only on those days; compare over every other day of 2N days measures the N days drawn")
  func days() throws {
    let base = ["schedule", "--algorithm", "fixed-blocks", "--per-day", "3", "--window", "08:00-20:00", "--days", "14"]
    let weekdays = try ESMSimBinary.run(base + ["--weekdays", "mon,wed,fri", "--first-weekday", "tue"])
    #expect(weekdays.status == 0, "\(weekdays.stderr)")
    // Day 0 is a Tuesday: Wednesday, Friday and Monday are days 1, 3, 6, 8, 10, 13.
    let days = Set(weekdays.stdout.split(separator: "\n").dropFirst().map { Int($0.split(separator: ",")[0])! })
    #expect(days == [1, 3, 6, 8, 10, 13])
    let compare = ["schedule", "compare", "--per-day", "4", "--window", "09:00-21:00"]
    let every = try ESMSimBinary.run(compare + ["--every-days", "2", "--days", "800"])
    let plain = try ESMSimBinary.run(compare + ["--days", "400"])
    // The same table; the note of the days stable figures need counts the days drawn (2 × 3,000).
    #expect(every.status == 0)
    #expect(every.stdout == plain.stdout.replacingOccurrences(of: "--days 3000 or more", with: "--days 5999 or more"))
    #expect(every.stdout.contains("--days 5999 or more"))
    let bad = try ESMSimBinary.run(base + ["--weekdays", "mon,funday"])
    #expect(bad.status != 0 && bad.stderr.contains("--weekdays"))
  }

  @Test("json and timeline formats, and --output writes the file")
  func otherFormats() throws {
    let base = ["schedule", "generate", "--algorithm", "fixed-blocks", "--per-day", "3", "--window", "08:00-20:00", "--days", "4"]
    let json = try ESMSimBinary.run(base + ["--format", "json"])
    #expect(json.status == 0)
    let parsed = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
    #expect(parsed?.count == 12)
    #expect(parsed?.first?.keys.sorted() == ["day", "index", "minute"])
    let timeline = try ESMSimBinary.run(base + ["--format", "timeline"])
    #expect(timeline.stdout.split(separator: "\n").filter { $0.hasPrefix("day ") }.count == 4)
    #expect(timeline.stdout.contains("#"))
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("esmsim-sched-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("s.csv").path
    let written = try ESMSimBinary.run(base + ["--output", file])
    #expect(written.status == 0 && written.stdout.isEmpty)
    #expect(try String(contentsOfFile: file, encoding: .utf8).hasPrefix("day,index,minute\n"))
  }

  @Test("compare: one JSON object per algorithm and gap method, with the documented keys")
  func compareJSON() throws {
    let r = try ESMSimBinary.run([
      "schedule", "compare", "--per-day", "3", "--window", "08:00-20:00", "--min-gap", "60", "--days", "2000",
      "--format", "json",
    ])
    #expect(r.status == 0)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 10)
    let keys: Set<String> = [
      "algorithm", "gap_method", "signals_per_day", "intensity_min", "intensity_max", "ks_d", "ks_p", "min_gap",
      "share_gaps_under_60", "max_gap", "zero_signal_day_share", "bits_per_signal", "bits_per_day",
      "forced_share", "max_hazard", "held_out_days", "predictability_stable",
    ]
    for row in rows { #expect(Set(row.keys) == keys) }
    let methods = rows.filter { $0["algorithm"] as? String == "fixed-blocks" }.compactMap { $0["gap_method"] as? String }
    #expect(methods == ["none", "resample-schedule", "sequential-rejection", "truncation", "sort-and-space"])
    let mappiness = try #require(rows.first { $0["algorithm"] as? String == "mappiness" })
    #expect((mappiness["min_gap"] as? Double ?? 0) >= 710.0 / 12)
    let table = try ESMSimBinary.run([
      "schedule", "compare", "--per-day", "3", "--window", "08:00-20:00", "--days", "500",
    ])
    #expect(table.status == 0 && table.stdout.contains("sort-and-space"))
  }

  @Test("impossible parameters: one clear error naming the flag, exit code 64", arguments: [
    (["--algorithm", "fixed-blocks", "--per-day", "0", "--window", "08:00-20:00"], "--per-day"),
    (["--algorithm", "mappiness", "--window", "08:00-08:05", "--end-margin", "10"], "--"),
    (["--algorithm", "fixed-blocks", "--per-day", "4", "--window", "08:00-20:00", "--min-gap", "300", "--gap-method", "sort-and-space"], "--min-gap"),
    (["--algorithm", "fixed-blocks", "--per-day", "2", "--window", "08:00-20:00", "--blocks", "08:00-13:00,12:00-16:00"], "--blocks"),
    (["--algorithm", "fixed-blocks", "--per-day", "1", "--window", "08:00-20:00", "--blocks", "07:00-09:00"], "--blocks"),
    (["--algorithm", "fixed-blocks", "--per-day", "3", "--window", "08:00-20:00", "--min-gap", "350", "--gap-method", "resample-schedule"], "--min-gap"),
    (["--algorithm", "fixed-times", "--window", "08:00-20:00", "--times", "9am"], "--times"),
    (["--algorithm", "bernoulli", "--per-day", "2", "--window", "8-20"], "--window"),
    (["--algorithm", "bernoulli", "--per-day", "2", "--window", "+8:00-20:00"], "--window"),
    // A flag the algorithm does not read is refused (a scenario file refuses the key).
    (["--algorithm", "mappiness", "--window", "08:00-20:00", "--min-gap", "120"], "--min-gap"),
    (["--algorithm", "bernoulli", "--per-day", "3", "--window", "08:00-20:00", "--gap-method", "sort-and-space"], "--gap-method"),
    (["--algorithm", "fixed-blocks", "--per-day", "3", "--window", "08:00-20:00", "--jitter", "5"], "--jitter"),
    // A chain whose first lag passes the window's end never signals.
    (["--algorithm", "chain", "--window", "08:00-09:00"], "--fixed-lag"),
    (["--algorithm", "chain", "--window", "08:00-20:00", "--fixed-lag", "0", "--random-lag", "0.4"], "--random-lag"),
    (["--algorithm", "mappiness", "--window", "08:00-20:00", "--weekdays", ""], "--weekdays"),
    (["--algorithm", "mappiness", "--window", "08:00-20:00", "--weekdays", "sat", "--days", "3"], "--weekdays"),
    (["--algorithm", "fixed-blocks", "--per-day", "1000000", "--window", "08:00-20:00"], "at most 999,999"),
    (["compare", "--per-day", "3", "--window", "08:00-20:00", "--days", "4", "--slot", "0.001"], "--slot"),
    (["compare", "--per-day", "0", "--window", "08:00-20:00", "--days", "4"], "--per-day"),
    (["compare", "--per-day", "3", "--window", "08:00-20:00", "--days", "4", "--min-gap", "-5"], "--min-gap"),
  ])
  func badParameters(args: [String], flag: String) throws {
    let r = try ESMSimBinary.run(["schedule"] + args)
    #expect(r.status == 64)
    #expect(r.stderr.contains(flag))
    #expect(r.stdout.isEmpty)
  }

  @Test("compare gives each algorithm only the flags it reads, shows signals a day, and is one error when no algorithm can run")
  func compareFlags() throws {
    // 5 a day in 6 hours with gaps of 70 minutes: the chain (90-minute lags) fits only 3.
    let r = try ESMSimBinary.run([
      "schedule", "compare", "--per-day", "5", "--window", "08:00-14:00", "--min-gap", "70", "--days", "200",
      "--format", "json",
    ])
    #expect(r.status == 0)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
    let perDay = Dictionary(rows.map { ($0["algorithm"] as! String, $0["signals_per_day"] as! Double) }, uniquingKeysWith: { a, _ in a })
    #expect(perDay["chain"].map { $0 < 4 } == true)
    #expect(perDay["mappiness"] == 5 && perDay["buffered-blocks"] == 5)
    // Every algorithm impossible: the first one's reason as one usage error, no table.
    let none = try ESMSimBinary.run(["schedule", "compare", "--per-day", "2.5", "--window", "08:00-08:02", "--days", "4"])
    #expect(none.status == 64 && none.stdout.isEmpty)
    #expect(none.stderr.contains("mappiness") && !none.stderr.contains("skipped"))
  }

  @Test("00:00-24:00 is the whole day")
  func wholeDay() throws {
    let r = try ESMSimBinary.run([
      "schedule", "--algorithm", "fixed-blocks", "--per-day", "4", "--window", "00:00-24:00", "--days", "50",
    ])
    #expect(r.status == 0)
    let minutes = r.stdout.split(separator: "\n").dropFirst().compactMap { Double($0.split(separator: ",")[2]) }
    // One signal in each 6-hour block: the last block's signals lie in 18:00-24:00.
    #expect(minutes.count == 200)
    #expect(minutes.filter { $0 >= 1080 }.count == 50 && minutes.allSatisfy { $0 < 1440 })
  }
}

@Suite("esmsim schedule compare against its exported times")
struct CompareAgainstExportTests {
  /// The intensities of exported `day,index,minute` rows, counted in 10-minute slots of a
  /// 720-minute window with integer arithmetic (milliseconds), independently of the measures.
  static func counted(_ csv: String) throws -> [Double] {
    var counts = [Int](repeating: 0, count: 72)
    var total = 0
    for line in csv.split(separator: "\n").dropFirst() {
      let minute = try #require(Double(line.split(separator: ",")[2]))
      let ms = Int64((minute * 60_000).rounded(.down))
      counts[min(Int(ms / 600_000), 71)] += 1
      total += 1
    }
    return counts.map { Double($0) * 72 / Double(total) }
  }

  @Test("Bernoulli and PACO's fixed blocks: compare's intensities are those of the exported minutes")
  func sameIntensities() throws {
    let common = ["--per-day", "3", "--window", "08:00-20:00", "--days", "3000", "--seed", "7"]
    let compare = try ESMSimBinary.run(["schedule", "compare"] + common + ["--min-gap", "120", "--format", "json"])
    #expect(compare.status == 0)
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [[String: Any]])
    for (algorithm, method) in [("bernoulli", nil), ("fixed-blocks", "sequential-rejection")] as [(String, String?)] {
      var args = ["schedule", "--algorithm", algorithm] + common + ["--format", "csv"]
      if let method { args += ["--min-gap", "120", "--gap-method", method] }
      let export = try ESMSimBinary.run(args)
      #expect(export.status == 0, "\(export.stderr)")
      let intensity = try Self.counted(export.stdout)
      let row = try #require(rows.first { $0["algorithm"] as? String == algorithm && ($0["gap_method"] as? String) == method })
      let lo = try #require(row["intensity_min"] as? Double)
      let hi = try #require(row["intensity_max"] as? Double)
      #expect(abs(lo - intensity.min()!) < 1e-9, "\(algorithm): \(lo) against \(intensity.min()!)")
      #expect(abs(hi - intensity.max()!) < 1e-9, "\(algorithm): \(hi) against \(intensity.max()!)")
    }
  }

  /// Bits per signal recomputed from exported `day,index,minute` rows, as docs/schedules.md
  /// states the model, written apart from esmsim's (a dictionary of states, day by day, slot by
  /// slot): 10-minute slots of the sampled minutes; days 0..<days, the empty ones included;
  /// fitted on even days, scored on odd ones; divided by the held-out slots holding a signal.
  /// `sampling`: the minutes the scheduler samples (Mappiness: the window less its end margin),
  /// which the 10-minute slots cut (the last one partial).
  /// Bits per signal, forced share and largest hazard of exported times, recomputed from the
  /// definitions in docs/schedules.md.
  static func predictability(_ csv: String, days: Int, sampling: Double = 720)
    -> (bits: Double, forced: Double, hazard: Double)
  {
    let slots = Int((sampling / 10).rounded(.up))
    var byDay = [Int: [Int]]()
    for line in csv.split(separator: "\n").dropFirst() {
      let f = line.split(separator: ",")
      byDay[Int(f[0])!, default: []].append(min(Int(Double(f[2])! / 10), slots - 1))
    }
    let cap = min(byDay.values.map(\.count).max() ?? 0, 31)
    struct State: Hashable { var slot: Int, soFar: Int, since: Int }
    func counts(parity: Int) -> [State: (visits: Int, hits: Int, signals: Int)] {
      var c = [State: (visits: Int, hits: Int, signals: Int)]()
      for d in stride(from: parity, to: days, by: 2) {
        var perSlot = [Int: Int]()
        for s in byDay[d] ?? [] { perSlot[s, default: 0] += 1 }
        var soFar = 0
        var last: Int?
        for s in 0..<slots {
          let state = State(slot: s, soFar: min(soFar, cap), since: last.map { s - $0 } ?? 0)
          let n = perSlot[s] ?? 0
          c[state, default: (0, 0, 0)].visits += 1
          if n > 0 {
            c[state]!.hits += 1
            c[state]!.signals += n
            soFar += n
            last = s
          }
        }
      }
      return c
    }
    let fit = counts(parity: 0)
    var bits = 0.0
    var hits = 0
    var signals = 0
    var forced = 0
    for (state, h) in counts(parity: 1) {
      let f = fit[state] ?? (0, 0, 0)
      let p = (Double(f.hits) + 0.5) / (Double(f.visits) + 1)
      bits -= Double(h.hits) * log2(p) + Double(h.visits - h.hits) * log2(1 - p)
      hits += h.hits
      signals += h.signals
      // Forced: most of the state's fitting visits had a signal.
      if 2 * f.hits > f.visits { forced += h.signals }
    }
    // The largest hazard among states visited at least 100 times and on 1 % of the fitting days.
    let fitDays = (days + 1) / 2
    let support = max(100, (fitDays + 99) / 100)
    let hazard = fit.values.filter { $0.visits >= support }.map { (Double($0.hits) + 0.5) / (Double($0.visits) + 1) }
      .max() ?? .nan
    return (bits / Double(hits), Double(forced) / Double(signals), hazard)
  }

  @Test("compare's bits per signal are those of the exported times, Bernoulli (two signals in a slot, days without any) included")
  func sameBits() throws {
    let days = 4000
    let common = ["--per-day", "3", "--window", "08:00-20:00", "--days", String(days), "--seed", "5"]
    // compare gives --min-gap to fixed blocks only.
    let compare = try ESMSimBinary.run(["schedule", "compare"] + common + ["--min-gap", "120", "--format", "json"])
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(compare.stdout.utf8)) as? [[String: Any]])
    // Mappiness samples up to 10 minutes before the window's end (its default end margin).
    for (algorithm, method, sampling) in [
      ("bernoulli", nil, 720), ("mappiness", nil, 710), ("fixed-blocks", "none", 720), ("fixed-blocks", "sort-and-space", 720),
    ] as [(String, String?, Double)] {
      var args = ["schedule", "--algorithm", algorithm] + common + ["--format", "csv"]
      if let method { args += ["--min-gap", "120", "--gap-method", method] }
      let export = try ESMSimBinary.run(args)
      let row = try #require(rows.first { $0["algorithm"] as? String == algorithm && ($0["gap_method"] as? String) == method })
      let recomputed = Self.predictability(export.stdout, days: days, sampling: sampling)
      for (key, value) in [("bits_per_signal", recomputed.bits), ("forced_share", recomputed.forced), ("max_hazard", recomputed.hazard)] {
        let measured = try #require(row[key] as? Double)
        #expect(abs(measured - value) < 1e-9, "\(algorithm) \(method ?? ""): compare's \(key) \(measured), exported times \(value)")
      }
    }
  }

  @Test("a state never visited in fitting forces nothing: Bernoulli, a coin each minute, has almost no forced signals however few the days")
  func neverVisitedNotForced() throws {
    func row(_ days: Int) throws -> [String: Any] {
      let r = try ESMSimBinary.run([
        "schedule", "compare", "--per-day", "5", "--window", "08:00-22:00", "--days", String(days), "--format", "json",
      ])
      let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
      return try #require(rows.first { $0["algorithm"] as? String == "bernoulli" })
    }
    // Bernoulli, a coin each minute: no state forces a signal, however few the days.
    #expect((try row(200)["forced_share"] as? Double).map { $0 < 0.1 } == true)
    #expect((try row(2000)["forced_share"] as? Double).map { $0 < 0.02 } == true)
  }
}
