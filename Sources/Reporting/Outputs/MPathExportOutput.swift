import Foundation
import SimKernel
import Scenarios
import Study
import StudyModel

/// m-Path's per-beep export (`outputs.mpath`), as mpathr reads it ([@mpathr]): for each variant
/// and replication a folder `mpath/vV-rR/` with `basic.csv` and its `meta.csv`; semicolons, a
/// byte-order mark, text fields quoted.
///
/// `basic.csv` has a row per beep the schedule sent: `connectionId` (the participant),
/// `scheduledBeepId` and `sentBeepId` (numbered in order), `questionListName` (the survey's id),
/// `timeStampScheduled` (planned), `timeStampSent` (when the phone showed it, else planned),
/// `timeStampStart` (opened) and `timeStampStop` (submitted), in seconds on the participant's
/// local clock with `timeZoneOffset` (seconds east of UTC), and the answers of a submitted
/// beep: an item with options as `<id>_multipleChoice_index` (1 for the first option) and
/// `_string` (the option, quoted twice as m-Path does), any other as `<id>_sliderNeutralPos`
/// (its number), from the one simulated state (``ItemAnswers``); with `protocol.items`, a
/// `<name>_sliderNeutralPos` column per item with the answer `answers.csv` has
/// (``AnswersOutput``). An unanswered beep's row ends
/// after `deltaUTC` (empty), as m-Path's does; a survey broken off part-way has its
/// `timeStampStart` and no stop (esmsim's reader takes it as a break-off; whether m-Path
/// uploads an unfinished questionnaire is not in its documentation). A volunteered answer is
/// a beep not scheduled (`scheduledBeepId` −1), which readers leave out. Simulated, not real:
/// the participants' codes are made from their number, reminders are not rows of their own
/// (a reminded beep answered is answered), and `deltaUTC` is 0.
final class MPathExportOutput: RunOutput {
  static let folderName = "mpath"
  static let base = [
    "connectionId", "legacyCode", "code", "alias", "initials", "accountCode", "scheduledBeepId", "sentBeepId",
    "reminderForOriginalSentBeepId", "questionListName", "questionListLabel", "fromProtocolName", "timeStampScheduled",
    "timeStampSent", "timeStampStart", "timeStampStop", "originalTimeStampSent", "timeZoneOffset", "deltaUTC",
  ]

  /// An answer column: its name, its item (by survey and position) and what it holds.
  struct Column {
    /// An item's option index or text, its number, or the answer to `protocol.items[k]`.
    enum Kind: Equatable { case index, string, number, answer(Int) }
    var name: String
    var kind: Kind
    var item: SurveyItem
  }

  let folder: RunFolder
  /// The open file of the current variant and replication, its answer columns and, by
  /// survey id, the column of each of its items.
  var current: (key: String, file: RowFile, columns: [Column], bySurvey: [String: [[Int]]])?
  var beep = 0

  /// The items' answers, where the plan has them.
  var detail: OutcomeDetail { .answers }

  static func isOn(_ outputs: OutputSettings) -> Bool { outputs.mpath }

  /// A row per beep, its answers' columns (two for an item with options).
  static func size(_ work: PlanWork) -> OutputSize { OutputSize(fileBytes: work.prompts * (160 + work.items * 2 * 8)) }

  init(_ folder: RunFolder) throws {
    self.folder = folder
    try FileManager.default.createDirectory(atPath: folder.path(Self.folderName), withIntermediateDirectories: false)
  }

  /// The answer columns of `plan`'s surveys, one per item id (two for an item with options),
  /// and each survey's items' columns.
  static func columns(_ plan: StudyPlan) -> ([Column], [String: [[Int]]]) {
    var columns: [Column] = []
    var index: [String: Int] = [:]
    var bySurvey: [String: [[Int]]] = [:]
    let own = plan.answers.items.map(\.name)
    for survey in plan.protocolPlan.allSurveys {
      bySurvey[survey.id] = survey.items.map { item in
        // An item the scenario's own items name (protocol.items) is answered by it.
        let kinds: [(String, Column.Kind)] =
          if let k = own.firstIndex(of: item.id) { [("_sliderNeutralPos", .answer(k))] } else if ItemAnswers.hasOptions(item) {
            [("_multipleChoice_index", .index), ("_multipleChoice_string", .string)]
          } else { [("_sliderNeutralPos", .number)] }
        return kinds.map { suffix, kind in
          let name = item.id + suffix
          if let k = index[name] { return k }
          index[name] = columns.count
          columns.append(Column(name: name, kind: kind, item: item))
          return columns.count - 1
        }
      }
    }
    // The scenario's own items (protocol.items): a number column each, in every beep's row.
    for (k, item) in plan.answers.items.enumerated() where index[item.name + "_sliderNeutralPos"] == nil {
      columns.append(Column(name: item.name + "_sliderNeutralPos", kind: .answer(k), item: SurveyItem(id: item.name, title: item.name)))
    }
    return (columns, bySurvey)
  }

  func participant(_ o: ParticipantOutcome, variant v: Int, replication r: Int) throws {
    let plan = folder.variant(v).plan
    let key = RunFolder.replicationKey(variant: v, replication: r)
    if current?.key != key {
      try finish()
      let dir = try folder.replicationDirectory(Self.folderName, variant: v, replication: r)
      let (columns, bySurvey) = Self.columns(plan)
      try Self.writeMeta((dir as NSString).appendingPathComponent("meta.csv"), columns)
      let file = try RowFile(
        (dir as NSString).appendingPathComponent("basic.csv"), header: Self.base + columns.map(\.name), prefix: "\u{FEFF}",
        ending: "\n", line: { $0.joined(separator: ";") })
      current = (key, file, columns, bySurvey)
      beep = 0
    }
    guard let current else { return }
    let time = folder.clock(o, plan: plan)
    let n = o.participant + 1
    let who = [String(100_000 + n), "esmsim\(n)", "\"esmsim \(n)\"", "p\(n)", "", "esmsim\(n)"]
    // Seconds on the participant's local clock, and the offset then.
    func local(_ t: SimTime) -> (seconds: Int64, offset: Int64) {
      let offset = time.zone.isUTC ? 0 : Int64(time.zone.offset(atInstant: time.zone.instant(ofWall: t))) / 1000
      return ((time.unix(t) + 500) / 1000 + offset, offset)
    }
    let drawn = plan.answers.items.isEmpty ? nil : o.answers
    // Each prompt's place in o.prompts (its answers), volunteered answers none.
    let all = o.prompts.indices.map { (o.prompts[$0], Optional($0)) } + o.volunteered.map { ($0, Int?.none) }
    for (p, i) in all.sorted(by: { ($0.0.scheduled, $0.0.volunteered ? 1 : 0) < ($1.0.scheduled, $1.0.volunteered ? 1 : 0) }) {
      beep += 1
      let survey = plan.protocolPlan.survey(of: p)
      let planned = local(p.scheduled)
      let sent = p.delivered >= 0 ? local(p.delivered).seconds : planned.seconds
      var fields = who + [p.volunteered ? "-1" : String(beep), String(beep), "0", survey.id, "", "esmsim", String(planned.seconds), String(sent)]
      guard p.opened >= 0 else {
        try current.file.write(fields + ["", "", "", String(planned.offset), ""])
        continue
      }
      let answered = p.status == .answered && p.submitted >= 0
      fields += [String(local(p.opened).seconds), answered ? String(local(p.submitted).seconds) : "", "0", String(planned.offset), "0"]
      let answers =
        answered
        ? Self.answers(p, survey: survey, columns: current.columns, bySurvey: current.bySurvey, plan: plan, own: i.flatMap { i in drawn.map { ($0, i) } })
        : [String](repeating: "", count: current.columns.count)
      try current.file.write(fields + answers)
    }
  }

  /// A submitted beep's answer columns: its survey's items from the one state, and the
  /// scenario's own items (`protocol.items`) as answers.csv has them at prompt `own.index`.
  static func answers(
    _ p: PromptRecord, survey: SurveyPlan, columns: [Column], bySurvey: [String: [[Int]]], plan: StudyPlan,
    own: (ParticipantAnswers, index: Int)?
  ) -> [String] {
    var answers = [String](repeating: "", count: columns.count)
    if let (drawn, i) = own {
      for (c, column) in columns.enumerated() {
        if case .answer(let k) = column.kind { answers[c] = AnswersOutput.text(drawn.items[i][k], plan.answers.items[k]) }
      }
    }
    for (k, item) in survey.items.enumerated() {
      let state = ItemAnswers.state(p, item: item, k: k)
      for c in bySurvey[survey.id]?[k] ?? [] {
        switch columns[c].kind {
        case .index:
          let option = ItemAnswers.option(item, state: state)
          answers[c] = String((option.flatMap { item.options.firstIndex(of: $0) } ?? 0) + 1)
        case .string: answers[c] = "\"\"\"" + (ItemAnswers.option(item, state: state) ?? "") + "\"\"\""
        case .number: answers[c] = String(ItemAnswers.number(item, state: state))
        case .answer: break
        }
      }
    }
    return answers
  }

  func finish() throws {
    try current?.file.close()
    current = nil
  }

  /// m-Path's meta file: a row per answer column with its question and types.
  static func writeMeta(_ path: String, _ columns: [Column]) throws {
    let header = "\u{FEFF}columnName;fullQuestion;typeQuestion;typeAnswer;fullQuestion_mixed;typeQuestion_mixed;typeAnswer_mixed"
    let rows = columns.map { c in
      let question = "\"" + c.item.title.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      let (type, answer) =
        switch c.kind {
        case .number: ("sliderNeutralPos", "int")
        case .answer: ("sliderNeutralPos", "double")
        case .index: ("multipleChoice", "int")
        case .string: ("multipleChoice", "string")
        }
      return [c.name, question, type, answer, "0", "0", "0"].joined(separator: ";")
    }
    try AtomicFile.write(([header] + rows).joined(separator: "\n") + "\n", to: path)
  }
}
