import Dispatch
import Foundation
import StackJournalTestSupport
import StackStorage

extension Benchmark {
  /// Concurrent writers on their own sessions, coalesced into shared FULL transactions, against
  /// a raw SQLite insert of the same rows one transaction each.
  static let groupCommit = Benchmark(
    name: "groupcommit",
    summary: "concurrent writers with group commit (FULL) vs a raw SQLite INSERT"
  ) { options in
    let directory = try TemporaryDirectory(prefix: "stackjournal-bench")
    defer { directory.remove() }
    let drafts = try Workload.drafts(count: options.count)
    let writers = options.writers

    func measure(_ durability: Durability, file: String) throws -> Double {
      let journal = try SQLiteJournal(
        path: directory.path(file), options: .init(durability: durability))
      for writer in 0..<writers {
        _ = try journal.createSession(
          SessionID("writer-\(writer)"), initial: Workload.initialState(), version: 1)
      }
      let failures = Failures()
      let seconds = Report.seconds {
        Report.onThreads(writers) { writer in
          let session = SessionID("writer-\(writer)")
          for (index, draft) in drafts.enumerated() {
            do {
              _ = try journal.append(session: session, expectedSequence: Int64(index), draft)
            } catch {
              failures.record(error)
              return
            }
          }
        }
      }
      if let error = failures.first { throw error }
      return seconds
    }

    let total = writers * options.count
    let groupSeconds = try measure(.groupCommit(), file: "journal-group.sqlite")
    let (schema, rows) = try RawInsertBaseline.read(
      journalAt: directory.path("journal-group.sqlite"), limit: options.count)
    let rawSeconds = try RawInsertBaseline.insert(
      rows, schema: schema, at: directory.path("raw.sqlite"))
    let fullSeconds = try measure(.full, file: "journal-full.sqlite")

    Report.title(
      "groupcommit: \(writers) writers × \(options.count) actions on \(writers) sessions")
    let group = Report.rate(
      "journal append, group commit (FULL, maxBatch 512)", count: total, seconds: groupSeconds)
    let raw = Report.rate(
      "raw SQLite INSERT, FULL, one transaction each", count: rows.count, seconds: rawSeconds,
      unit: "inserts/s")
    Report.ratio("journal group commit / raw", group / raw)
    Report.rate(
      "journal append, FULL, same writers, no group commit", count: total, seconds: fullSeconds)
  }
}

/// The first error any writer met.
final class Failures: @unchecked Sendable {
  private let lock = NSLock()
  private var errors: [any Error] = []

  var first: (any Error)? { lock.withLock { errors.first } }

  func record(_ error: any Error) {
    lock.withLock { errors.append(error) }
  }
}
