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
    let sessions = (0..<writers).map { SessionID("writer-\($0)") }

    func openJournal(_ durability: Durability, file: String) throws -> SQLiteJournal {
      let journal = try SQLiteJournal(
        path: directory.path(file), options: .init(durability: durability))
      for session in sessions {
        _ = try journal.createSession(session, initial: Workload.initialState(), version: 1)
      }
      return journal
    }
    /// Every writer appends the drafts of `range` to its own session, all at once.
    func appendConcurrently(_ range: ClosedRange<Int64>, to journal: SQLiteJournal) throws
      -> Double
    {
      let failures = Failures()
      let seconds = Report.seconds {
        Report.onThreads(writers) { writer in
          for sequence in range {
            do {
              _ = try journal.append(
                session: sessions[writer], expectedSequence: sequence - 1,
                drafts[Int(sequence - 1)])
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

    let journalPath = directory.path("journal-group.sqlite")
    let journal = try openJournal(.groupCommit(), file: "journal-group.sqlite")
    let raw = try RawInsertBaseline(
      path: directory.path("raw.sqlite"), schemaOf: journalPath,
      sessions: [sessions[0].rawValue])
    var groupSeconds = 0.0
    var rawSeconds = 0.0
    var rawCount = 0
    for range in Rounds.ranges(total: drafts.count) {
      groupSeconds += try appendConcurrently(range, to: journal)
      let rows = try RawInsertBaseline.rows(
        of: journalPath, session: sessions[0].rawValue, sequences: range)
      rawSeconds += try raw.insert(rows)
      rawCount += rows.count
    }
    let full = try openJournal(.full, file: "journal-full.sqlite")
    let fullSeconds = try appendConcurrently(1...Int64(drafts.count), to: full)

    let total = writers * drafts.count
    Report.title(
      "groupcommit: \(writers) writers × \(options.count) actions on \(writers) sessions")
    let groupRate = Report.rate(
      "journal append, group commit (FULL, maxBatch 512)", count: total, seconds: groupSeconds)
    let rawRate = Report.rate(
      "raw SQLite INSERT, FULL, one transaction each", count: rawCount, seconds: rawSeconds,
      unit: "inserts/s")
    Report.ratio("journal group commit / raw", groupRate / rawRate)
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
