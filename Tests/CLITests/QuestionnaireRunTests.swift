import Foundation
import Testing

@Suite("esmsim run: several questionnaires")
struct QuestionnaireRunTests {
  @Test("each questionnaire's compliance in summary.csv is its own prompts' in prompts.csv; the console lists them")
  func complianceApart() throws {
    let tmp = try Scratch()
    defer { tmp.remove() }
    let out = tmp.path("q")
    let r = try ESMSimBinary.run([
      "run", "scenarios/diary-prompts-and-events.yaml", "--output", out, "--participants", "40", "--duration", "7d",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("questionnaire") && r.stdout.contains("leaving"))
    let header = try lines(out + "/prompts.csv")[0].split(separator: ",").map(String.init)
    let rows = try lines(out + "/prompts.csv").dropFirst().filter { !$0.isEmpty }.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    func column(_ name: String) -> Int { header.firstIndex(of: name)! }
    let summary = try lines(out + "/summary.csv").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    for variant in ["5 minutes after leaving", "20 minutes after leaving"] {
      for q in ["morning", "daytime", "leaving"] {
        let mine = rows.filter {
          $0[0] == variant && $0[column("questionnaire")] == q && $0[column("volunteered")] == "0"
            && $0[column("status")] != "dropped_out" && $0[column("status")] != "ignored"
        }
        #expect(!mine.isEmpty, "\(variant) \(q)")
        let answered = mine.filter { $0[column("status")] == "answered" }.count
        let reported = summary.first { $0[0] == variant && $0[1] == "compliance_\(q)" }.flatMap { Double($0[2]) }
        #expect(reported.map { abs($0 - Double(answered) / Double(mine.count)) < 1e-12 } == true, "\(variant) \(q): \(String(describing: reported))")
      }
      // The morning diary is once a day; the leaving-home prompts vary from day to day.
      let sd = { (q: String) in summary.first { $0[0] == variant && $0[1] == "signals_per_day_sd_\(q)" }.flatMap { Double($0[2]) } }
      #expect(sd("morning") == 0)
      #expect((sd("leaving") ?? 0) > 0.5)
    }
  }
}
