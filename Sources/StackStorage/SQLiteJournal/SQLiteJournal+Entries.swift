import Foundation
import GRDB

extension SQLiteJournal {
  /// How many entries ``entries(session:after:through:_:)`` reads per page.
  static let entryPageSize = 256

  /// The sequence of the session's last entry; 0 before the first one.
  public func headSequence(session: SessionID) throws -> Int64 {
    try read("reading the head of session \(session)") { db in
      try SessionRows.requireHead(db, session, stored)
    }
  }

  /// Calls `body` with the entries after `after` through `through` (the head when `nil`), in
  /// ascending order; `body` returns `false` to stop.
  ///
  /// Entries are read a page at a time from a cursor, never all at once, and `body` runs
  /// outside any database access, so it may call the journal. Payloads are upcast to
  /// ``Options/payloadVersion`` when it is set.
  public func entries(
    session: SessionID,
    after: Int64,
    through: Int64?,
    _ body: (JournalEntry) async throws -> Bool
  ) async throws {
    var checkedSession = false
    try await entries(
      session: session, after: after, through: through, pageSize: Self.entryPageSize,
      page: { cursor, last in
        let records = try read("reading the journal of session \(session)") { db in
          if !checkedSession { _ = try SessionRows.requireHead(db, session, stored) }
          return try JournalRows.page(
            db, session: session, after: cursor, through: last, limit: Self.entryPageSize)
        }
        checkedSession = true
        return records
      },
      entry: { try entry($0, session: session) }, body)
  }

  /// The sequence of the last entry recorded at or before `date` (the latest time, then the
  /// highest sequence); when no entry kept is that early, the oldest snapshot's sequence if
  /// `date` is at or after the time it was recorded: 0 before the first entry, or the snapshot
  /// a compaction kept.
  ///
  /// Found by a binary search on the entries' `latest_at` (see `JournalRows`). Times are
  /// compared to the millisecond. Throws
  /// `StorageError.Code.sequenceOutOfRange` for a date before the session was created, or,
  /// after a compaction, before the oldest snapshot it kept.
  public func sequence(session: SessionID, atOrBefore date: Date) throws -> Int64 {
    try read("finding the entry of session \(session) at \(Timestamp.string(from: date))") {
      db in try sequence(db, session: session, atOrBefore: date)
    }
  }

  /// ``sequence(session:atOrBefore:)``, read through `db`.
  func sequence(_ db: Database, session: SessionID, atOrBefore date: Date) throws -> Int64 {
    let time = try Timestamp.stored(date, "The time asked of session \(session)", path: path)
    guard let createdAt = try SessionRows.createdAt(db, session) else {
      throw stored.unknownSession(session)
    }
    if let sequence = try JournalRows.lastEntry(db, session: session, atOrBefore: time) {
      return sequence
    }
    guard createdAt <= time else {
      throw StorageError(
        code: .sequenceOutOfRange,
        message: "Session \(session) was created at \(createdAt), after \(time). Ask for a "
          + "time at or after its creation.",
        path: path
      )
    }
    // Before the first entry kept: the oldest snapshot holds the state from its time on,
    // sequence 0 for a session never compacted.
    let oldest = try SnapshotRows.oldest(db, session: session)
    guard let oldest, oldest.sequence > 0 else { return 0 }
    let sequence = oldest.sequence
    let recordedAt = oldest.recordedAt
    guard recordedAt <= time else {
      throw StorageError(
        code: .sequenceOutOfRange,
        message: "Session \(session) was compacted: its history now starts at sequence "
          + "\(sequence), recorded at \(recordedAt), after \(time). Ask for a time at or after "
          + "that.",
        path: path
      )
    }
    return sequence
  }

  private func entry(_ row: JournalRow, session: SessionID) throws -> JournalEntry {
    try JournalEntry(
      decoding: row, session: session, upcasting: upcasting, stored: stored, path: path)
  }
}
