import Foundation
import Testing

@testable import Scenarios

/// The fuzz corpus (`Tests/Fuzz/corpus/<reader>/`, seeds and any input a fuzzer ever crashed
/// on, kept as regression tests) through each reader: every input is read or refused with a
/// ScenarioError naming the file, never a crash.
@Suite("The fuzz corpus through every reader")
struct FuzzCorpusTests {
  static let corpus = repository.appendingPathComponent("Tests/Fuzz/corpus")

  static func inputs(_ reader: String) -> [URL] {
    let dir = corpus.appendingPathComponent(reader)
    return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted().map { dir.appendingPathComponent($0) }
  }

  @Test("every input is read or refused with an error naming the file", arguments: ["scenario", "aware", "esmira", "paco", "beiwe", "sweep", "pilot", "study", "imported"])
  func corpus(reader: String) throws {
    let files = Self.inputs(reader)
    #expect(files.count >= 1, "the corpus of \(reader) is empty")
    var read = 0
    for url in files {
      let data = try Data(contentsOf: url)
      let file: String
      switch reader {
      case "sweep": file = Self.corpus.appendingPathComponent("sweep/\(url.lastPathComponent)").path
      default: file = url.path
      }
      do {
        switch reader {
        case "scenario": _ = try Readers.scenario(data, file: file)
        case "aware": try Readers.awareSchedule(data, file: file)
        case "esmira": try Readers.esmiraStudy(data, file: file)
        case "paco": try Readers.pacoExperiment(data, file: file)
        case "beiwe": try Readers.beiweStudy(data, file: file)
        case "pilot": try Readers.pilot(data, file: file)
        case "study": try Readers.simulateOneDay(data, file: file)
        case "imported": try Readers.simulateImported(data)
        default: _ = try Readers.sweep(data, file: file)
        }
        read += 1
      } catch {
        // The imported harness names its files itself.
        #expect(reader == "imported" ? ["imported.json", "scenario.yaml"].contains(error.file) : error.file == file, "\(error)")
        #expect(!error.message.isEmpty)
      }
    }
    // The seeds themselves are valid inputs.
    #expect(read >= 1, "no input of \(reader) was read")
  }

  @Test("fuzz finding: an AWARE schedule dated after the study reads as a schedule that never signals")
  func awareDatesAfterTheStudy() throws {
    // Found by `make fuzz` (aware reader): the empty day range was built as 1...0, a
    // runtime trap. The input is kept in the corpus as crash-dates-after-the-study.json.
    let json = """
      [{"schedule_id": "later", "hours": [8, 20], "start_date": "02-06-2026", "end_date": "02-12-2026",
        "esms": [{"esm": {"esm_type": 6, "esm_title": "Mood", "esm_trigger": "mood"}}]}]
      """
    let root = try ScenarioLoader.parse(Data(json.utf8), file: "later.json")
    let imported = try AWAREScheduleImport.read(root, file: "later.json", startDate: CalendarDate(year: 2026, month: 1, day: 5)!, days: 14)
    #expect(imported.parts.count == 1)
    #expect((0..<14).allSatisfy { !imported.parts[0].isActive(day: $0, weekday: $0 % 7) })
  }
}
