import Foundation
import GRDB

extension SQLiteJournal {
  /// How many rows ``journalRows(session:matching:_:)`` reads per page.
  static let inspectionPageSize = 512

  /// Calls `body` with the session's entries that match `query`, as stored, in sequence order
  /// (newest first when the query says so); `body` returns `false` to stop.
  ///
  /// Rows are read a page at a time, each page in its own short read transaction, so memory
  /// stays flat on any journal and a writer is never held up. Throws
  /// `StorageError.Code.unknownSession` for an unknown session, and
  /// `StorageError.Code.changedDuringRead` when another process removes entries not read yet
  /// (a `compact` or a `prune` committing between two pages) rather than skip them, and
  /// `StorageError.Code.timeOutOfRange` for a time outside years 0000–9999.
  public func journalRows(
    session: SessionID,
    matching query: JournalQuery,
    _ body: (JournalRow) throws -> Bool
  ) throws {
    let filter = try JournalRows.Filter(session: session, query, path: path)
    // The last N matching entries start (or, newest first, end) at the N-th newest one.
    var boundary: Int64?
    // The sequence the journal started after when the read began.
    var base: Int64 = 0
    let found = try read("reading the journal of session \(session)") { db -> Bool in
      _ = try SessionRows.requireHead(db, session, stored)
      base = try SnapshotRows.oldestSequence(db, session: session) ?? 0
      guard let last = query.last else { return true }
      guard last > 0 else { return false }
      boundary = try JournalRows.sequence(db, filter, newestOffset: last - 1)
      return true
    }
    guard found else { return }
    let ascending = !query.newestFirst
    let from = query.fromSequence ?? 0
    var cursor: Int64? = nil
    var remaining = query.last ?? Int.max
    while remaining > 0 {
      let start = ascending && cursor == nil ? boundary : nil
      let limit = Swift.min(Self.inspectionPageSize, remaining)
      let page = try read("reading the journal of session \(session)") { [cursor, base] db in
        // Oldest first, the entries still to read are those after the last one read (or before
        // the first page, after the start the query asks for).
        let unread = ascending ? max(cursor ?? start.map { $0 - 1 } ?? base, from - 1) : nil
        try requireEntriesKept(db, session: session, since: base, unread: unread)
        return try JournalRows.page(
          db, filter, ascending: ascending, from: start, after: cursor, limit: limit)
      }
      for row in page {
        // A row whose time cannot be read is refused here, as restoring refuses it.
        _ = try stored.date(row.recordedAt, "time of entry \(row.sequence) of session \(session)")
        cursor = row.sequence
        remaining -= 1
        guard try body(row) else { return }
      }
      if page.count < limit { return }
    }
  }

  /// Throws ``StorageError/Code/changedDuringRead`` when, since a read of the session's journal
  /// began at `base`, the session was removed or compacted past entries the read still needs:
  /// those after `unread` (oldest first), or, reading newest first (`nil`), any.
  private func requireEntriesKept(
    _ db: Database, session: SessionID, since base: Int64, unread: Int64?
  ) throws {
    guard try SessionRows.exists(db, session) else {
      throw StorageError(
        code: .changedDuringRead,
        message: "Session \(session) was removed from \(path ?? "memory") while its journal was "
          + "read (by a `prune` another process committed), so the entries not read yet are "
          + "gone. Nothing was changed.",
        path: path)
    }
    let now = try SnapshotRows.oldestSequence(db, session: session) ?? 0
    guard now != base, now > (unread ?? base) else { return }
    let from = max(unread ?? base, base) + 1
    throw StorageError(
      code: .changedDuringRead,
      message: "Session \(session) was compacted while its journal was read (by a `compact` "
        + "another process committed): entries \(from)…\(now) were removed before they could "
        + "be read, and the journal now starts after \(now). Nothing was changed; read it again "
        + "to see the journal as it is now.",
      path: path)
  }

  /// The sequence of the session's last journal entry, or `nil` when it has none. Equal to the
  /// head in a sound session; `verify` reports a difference.
  public func lastEntrySequence(session: SessionID) throws -> Int64? {
    try read("reading the last entry of session \(session)") { db in
      _ = try SessionRows.requireHead(db, session, stored)
      return try JournalRows.lastSequence(db, session: session)
    }
  }

  /// The session's head sequence and the sequence its journal starts after: the sequence of
  /// its oldest snapshot (0 unless the session was compacted).
  public func journalBounds(session: SessionID) throws -> (base: Int64, head: Int64) {
    try read("reading the bounds of session \(session)") { db in
      let head = try SessionRows.requireHead(db, session, stored)
      return (try SnapshotRows.oldestSequence(db, session: session) ?? 0, head)
    }
  }

  /// The time an entry was recorded; the session's creation time for sequence 0, and the
  /// snapshot's time for the oldest sequence of a compacted session.
  ///
  /// Throws `StorageError.Code.sequenceOutOfRange` for a sequence the journal does not hold.
  public func recordedAt(session: SessionID, sequence: Int64) throws -> Date {
    try read("reading the time of entry \(sequence) of session \(session)") { db in
      try recordedAt(
        db, session: session, sequence: sequence,
        head: try SessionRows.requireHead(db, session, stored))
    }
  }

  /// ``recordedAt(session:sequence:)`` of a session whose head is `head`, read through `db`.
  func recordedAt(_ db: Database, session: SessionID, sequence: Int64, head: Int64) throws
    -> Date
  {
    // A compacted session keeps the snapshot at its oldest sequence, not the entry.
    let text =
      sequence == 0
      ? try SessionRows.createdAt(db, session)
      : try JournalRows.recordedAt(db, session: session, sequence: sequence)
        ?? SnapshotRows.recordedAt(db, session: session, sequence: sequence)
    guard let text else { throw stored.outOfRange(session, sequence, head: head) }
    return try stored.date(text, "time of entry \(sequence) of session \(session)")
  }

  /// The sequences of the session's snapshots, oldest first.
  public func snapshotSequences(session: SessionID) throws -> [Int64] {
    try read("listing the snapshots of session \(session)") { db in
      _ = try SessionRows.requireHead(db, session, stored)
      return try SnapshotRows.sequences(db, session: session)
    }
  }

  /// The session's stacks at one moment, with its bounds and the time the moment was recorded,
  /// in one read transaction: the session's row (its head read once), its bounds, the moment's
  /// sequence, the nearest snapshot with the deltas after it, and the time.
  public func sessionStacks(
    session: SessionID,
    at moment: @escaping @Sendable (SessionBounds) throws -> StacksMoment,
    check: @escaping @Sendable (SessionBounds, Int64) throws -> Void
  ) throws -> SessionStacks {
    try read("reading the stacks of session \(session)") { db in
      guard let info = try SessionRows.infos(db, id: session, stored).first else {
        throw stored.unknownSession(session)
      }
      let bounds = SessionBounds(
        session: info, base: try SnapshotRows.oldestSequence(db, session: session) ?? 0,
        lastEntrySequence: try JournalRows.lastSequence(db, session: session))
      let sequence: Int64
      switch try moment(bounds) {
      case .sequence(let given): sequence = given
      case .atOrBefore(let date):
        sequence = try self.sequence(db, session: session, atOrBefore: date)
      }
      let head = try SessionRows.boundedHead(info.headSequence, session, stored)
      try check(bounds, sequence)
      let stacks = try stacks(db, session: session, at: sequence, head: head)
      return SessionStacks(
        bounds: bounds, sequence: sequence,
        recordedAt: try recordedAt(db, session: session, sequence: sequence, head: head),
        stacks: stacks)
    }
  }
}
