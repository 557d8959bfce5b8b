import Foundation
import StackJournalTestSupport
import StackStorage

extension Benchmark {
  /// One durable append per transaction, against a raw SQLite insert of the same rows.
  static let append = Benchmark(
    name: "append",
    summary: "one durable (FULL) append per transaction vs a raw SQLite INSERT"
  ) { options in
    let directory = try TemporaryDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    let drafts = try Workload.drafts(count: options.count)

    func openJournal(_ durability: Durability, file: String) throws -> SQLiteJournal {
      let journal = try SQLiteJournal(
        path: directory.path(file), options: .init(durability: durability))
      _ = try journal.createSession("bench", initial: Workload.initialState(), version: 1)
      return journal
    }
    func appendDrafts(_ range: ClosedRange<Int64>, to journal: SQLiteJournal) throws -> Double {
      try Report.seconds {
        for sequence in range {
          _ = try journal.append(
            session: "bench", expectedSequence: sequence - 1, drafts[Int(sequence - 1)])
        }
      }
    }

    let journalPath = directory.path("journal-full.sqlite")
    let journal = try openJournal(.full, file: "journal-full.sqlite")
    let raw = try RawInsertBaseline(
      path: directory.path("raw.sqlite"), schemaOf: journalPath, sessions: ["bench"])
    var journalSeconds = 0.0
    var rawSeconds = 0.0
    var rows: [RawInsertBaseline.Row] = []
    for range in Rounds.ranges(total: drafts.count) {
      journalSeconds += try appendDrafts(range, to: journal)
      let written = try RawInsertBaseline.rows(of: journalPath, session: "bench", sequences: range)
      rawSeconds += try raw.insert(written)
      rows += written
    }
    let normal = try openJournal(.normal, file: "journal-normal.sqlite")
    let normalSeconds = try appendDrafts(1...Int64(drafts.count), to: normal)

    let sizes = RawInsertBaseline.averageSizes(rows)
    Report.title(
      "append: \(options.count) actions, one session, one transaction each "
        + "(payload \(sizes.payload) B, delta \(sizes.delta) B on average)")
    let journalRate = Report.rate(
      "journal append, FULL", count: drafts.count, seconds: journalSeconds)
    let rawRate = Report.rate(
      "raw SQLite INSERT of the same rows, FULL", count: rows.count, seconds: rawSeconds,
      unit: "inserts/s")
    Report.ratio("journal / raw", journalRate / rawRate)
    Report.rate(
      "journal append, NORMAL (for reference)", count: drafts.count, seconds: normalSeconds)
  }
}
