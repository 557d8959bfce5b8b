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
  /// ``StorageError/Code/unknownSession`` for an unknown session.
  public func journalRows(
    session: SessionID,
    matching query: JournalQuery,
    _ body: (JournalRow) throws -> Bool
  ) throws {
    var conditions = ["session = ?"]
    var arguments: [any DatabaseValueConvertible] = [session.rawValue]
    if let from = query.fromSequence {
      conditions.append("sequence >= ?")
      arguments.append(from)
    }
    if let to = query.toSequence {
      conditions.append("sequence <= ?")
      arguments.append(to)
    }
    if let since = query.since {
      conditions.append("recorded_at >= ?")
      arguments.append(Timestamp.string(from: since))
    }
    if let until = query.until {
      conditions.append("recorded_at <= ?")
      arguments.append(Timestamp.string(from: until))
    }
    if let glob = query.typeGlob {
      conditions.append("type GLOB ?")
      arguments.append(glob)
    }
    let filter = conditions.joined(separator: " AND ")
    // The last N matching entries start (or, newest first, end) at the N-th newest one.
    var boundary: Int64?
    let found = try read("reading the journal of session \(session)") { db -> Bool in
      _ = try requireHead(db, session)
      guard let last = query.last else { return true }
      guard last > 0 else { return false }
      boundary = try Int64.fetchOne(
        db,
        sql: "SELECT sequence FROM journal WHERE \(filter) ORDER BY sequence DESC "
          + "LIMIT 1 OFFSET ?",
        arguments: StatementArguments(arguments + [last - 1])
      )
      return true
    }
    guard found else { return }
    let ascending = !query.newestFirst
    var cursor: Int64? = nil
    var remaining = query.last ?? Int.max
    while remaining > 0 {
      var pageConditions = filter
      var pageArguments = arguments
      if ascending, let start = boundary, cursor == nil {
        pageConditions += " AND sequence >= ?"
        pageArguments.append(start)
      }
      if let cursor {
        pageConditions += ascending ? " AND sequence > ?" : " AND sequence < ?"
        pageArguments.append(cursor)
      }
      let limit = Swift.min(Self.inspectionPageSize, remaining)
      pageArguments.append(limit)
      let page = try read("reading the journal of session \(session)") { db in
        try EntryRecord.fetchAll(
          db.cachedStatement(
            sql: "SELECT \(EntryRecord.columns) FROM journal "
              + "WHERE \(pageConditions) ORDER BY sequence \(ascending ? "ASC" : "DESC") "
              + "LIMIT ?"
          ),
          arguments: StatementArguments(pageArguments)
        )
      }
      for record in page {
        let entry = JournalRow(
          sequence: record.sequence,
          recordedAt: try stored.date(
            record.recordedAt, "time of entry \(record.sequence) of session \(session)"),
          type: record.type,
          version: record.version,
          payload: record.payload,
          delta: record.delta
        )
        cursor = record.sequence
        remaining -= 1
        guard try body(entry) else { return }
      }
      if page.count < limit { return }
    }
  }

  /// The sequence of the session's last journal entry, or `nil` when it has none. Equal to the
  /// head in a sound session; `verify` reports a difference.
  public func lastEntrySequence(session: SessionID) throws -> Int64? {
    try read("reading the last entry of session \(session)") { db in
      _ = try requireHead(db, session)
      return try Int64.fetchOne(
        db, sql: "SELECT max(sequence) FROM journal WHERE session = ?",
        arguments: [session.rawValue])
    }
  }

  /// The session's head sequence and the sequence its journal starts after: the sequence of
  /// its oldest snapshot (0 unless the session was compacted).
  public func journalBounds(session: SessionID) throws -> (base: Int64, head: Int64) {
    try read("reading the bounds of session \(session)") { db in
      let head = try requireHead(db, session)
      let base = try Int64.fetchOne(
        db, sql: "SELECT min(sequence) FROM snapshots WHERE session = ?",
        arguments: [session.rawValue])
      return (base ?? 0, head)
    }
  }

  /// The time an entry was recorded; the session's creation time for sequence 0, and the
  /// snapshot's time for the oldest sequence of a compacted session.
  ///
  /// Throws ``StorageError/Code/sequenceOutOfRange`` for a sequence the journal does not hold.
  public func recordedAt(session: SessionID, sequence: Int64) throws -> Date {
    try read("reading the time of entry \(sequence) of session \(session)") { db in
      try recordedAt(db, session: session, sequence: sequence, head: try requireHead(db, session))
    }
  }

  /// ``recordedAt(session:sequence:)`` of a session whose head is `head`, read through `db`.
  func recordedAt(_ db: Database, session: SessionID, sequence: Int64, head: Int64) throws
    -> Date
  {
    let text: String?
    if sequence == 0 {
      text = try String.fetchOne(
        db, sql: "SELECT created_at FROM sessions WHERE id = ?", arguments: [session.rawValue])
    } else {
      // A compacted session keeps the snapshot at its oldest sequence, not the entry.
      text = try String.fetchOne(
        db,
        sql: "SELECT coalesce((SELECT recorded_at FROM journal WHERE session = ? AND "
          + "sequence = ?), (SELECT recorded_at FROM snapshots WHERE session = ? AND "
          + "sequence = ?))",
        arguments: [session.rawValue, sequence, session.rawValue, sequence])
    }
    guard let text else { throw stored.outOfRange(session, sequence, head: head) }
    return try stored.date(text, "time of entry \(sequence) of session \(session)")
  }

  /// The sequences of the session's snapshots, oldest first.
  public func snapshotSequences(session: SessionID) throws -> [Int64] {
    try read("listing the snapshots of session \(session)") { db in
      _ = try requireHead(db, session)
      return try Int64.fetchAll(
        db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
        arguments: [session.rawValue])
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
      guard
        let info = try fetchSessions(db, where: "WHERE s.id = ?", arguments: [session.rawValue])
          .first
      else { throw stored.unknownSession(session) }
      let limits = try Row.fetchOne(
        db.cachedStatement(
          sql: "SELECT (SELECT min(sequence) FROM snapshots WHERE session = ?), "
            + "(SELECT max(sequence) FROM journal WHERE session = ?)"),
        arguments: [session.rawValue, session.rawValue])
      let bounds = SessionBounds(
        session: info, base: limits?[0] ?? 0, lastEntrySequence: limits?[1])
      let sequence: Int64
      switch try moment(bounds) {
      case .sequence(let given): sequence = given
      case .atOrBefore(let date):
        sequence = try self.sequence(db, session: session, atOrBefore: date)
      }
      let head = try boundedHead(info.headSequence, session)
      try check(bounds, sequence)
      let stacks = try stacks(db, session: session, at: sequence, head: head)
      return SessionStacks(
        bounds: bounds, sequence: sequence,
        recordedAt: try recordedAt(db, session: session, sequence: sequence, head: head),
        stacks: stacks)
    }
  }
}
