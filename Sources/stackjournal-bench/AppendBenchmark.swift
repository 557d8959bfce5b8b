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

    func measure(_ durability: Durability, file: String) throws -> Double {
      let journal = try SQLiteJournal(
        path: directory.path(file), options: .init(durability: durability))
      _ = try journal.createSession("bench", initial: Workload.initialState(), version: 1)
      return try Report.seconds {
        for (index, draft) in drafts.enumerated() {
          _ = try journal.append(session: "bench", expectedSequence: Int64(index), draft)
        }
      }
    }

    let fullSeconds = try measure(.full, file: "journal-full.sqlite")
    let (schema, rows) = try RawInsertBaseline.read(
      journalAt: directory.path("journal-full.sqlite"), limit: options.count)
    let rawSeconds = try RawInsertBaseline.insert(
      rows, schema: schema, at: directory.path("raw.sqlite"))
    let normalSeconds = try measure(.normal, file: "journal-normal.sqlite")

    let sizes = RawInsertBaseline.averageSizes(rows)
    Report.title(
      "append: \(options.count) actions, one session, one transaction each "
        + "(payload \(sizes.payload) B, delta \(sizes.delta) B on average)")
    let journal = Report.rate(
      "journal append, FULL", count: options.count, seconds: fullSeconds)
    let raw = Report.rate(
      "raw SQLite INSERT of the same rows, FULL", count: rows.count, seconds: rawSeconds,
      unit: "inserts/s")
    Report.ratio("journal / raw", journal / raw)
    Report.rate(
      "journal append, NORMAL (for reference)", count: options.count, seconds: normalSeconds)
  }
}
