import Foundation
import GRDB

/// One journal entry exactly as stored, for tools that inspect a journal without the app's
/// types: no upcaster runs and nothing is decoded.
public struct JournalRow: Sendable {
  /// The entry's number in its session.
  public var sequence: Int64
  /// When the action was recorded, to the millisecond.
  public var recordedAt: Date
  /// The action's case path, e.g. `path.element.counter.incrementButtonTapped`.
  public var type: String
  /// The version of the app's encoding the payload was written in.
  public var version: Int
  /// The action as stored: JSON text.
  public var payload: String
  /// What the action did to the stacks: the JSON text of a ``StackDelta``.
  public var delta: String

  /// Creates a row.
  public init(
    sequence: Int64,
    recordedAt: Date,
    type: String,
    version: Int,
    payload: String,
    delta: String
  ) {
    self.sequence = sequence
    self.recordedAt = recordedAt
    self.type = type
    self.version = version
    self.payload = payload
    self.delta = delta
  }

  private static let decoder = JSONDecoder()

  /// The stored delta, decoded.
  public func decodedDelta() throws -> StackDelta {
    do {
      return try Self.decoder.decode(StackDelta.self, from: Data(delta.utf8))
    } catch {
      throw StorageError(
        code: .invalidData,
        message: "The delta of entry \(sequence) cannot be read; `stackjournal verify` on the "
          + "file lists every damaged row.",
        underlying: error
      )
    }
  }
}

/// Which entries of a session ``SQLiteJournal/journalRows(session:matching:_:)`` reads.
///
/// Every filter is optional and they combine: an entry is read when it passes all of them.
public struct JournalQuery: Sendable, Equatable {
  /// The first sequence to read (inclusive).
  public var fromSequence: Int64?
  /// The last sequence to read (inclusive).
  public var toSequence: Int64?
  /// Only entries recorded at or after this time.
  public var since: Date?
  /// Only entries recorded at or before this time.
  public var until: Date?
  /// Only entries whose type matches this SQLite `GLOB` pattern (`*`, `?`, `[…]`;
  /// case-sensitive).
  public var typeGlob: String?
  /// Only the last `last` matching entries (the newest ones).
  public var last: Int?
  /// Read newest first instead of oldest first.
  public var newestFirst: Bool

  /// Creates a query; with no arguments it reads the whole journal, oldest first.
  public init(
    fromSequence: Int64? = nil,
    toSequence: Int64? = nil,
    since: Date? = nil,
    until: Date? = nil,
    typeGlob: String? = nil,
    last: Int? = nil,
    newestFirst: Bool = false
  ) {
    self.fromSequence = fromSequence
    self.toSequence = toSequence
    self.since = since
    self.until = until
    self.typeGlob = typeGlob
    self.last = last
    self.newestFirst = newestFirst
  }
}

/// How many bytes of a file one session holds, counting the stored text of its rows.
public struct SessionSize: Sendable, Equatable {
  /// Bytes of journal rows (type, payload and delta text).
  public var journalBytes: Int64
  /// Bytes of snapshot rows (state and stacks text).
  public var snapshotBytes: Int64
  /// Bytes of the head's stack element rows (state text).
  public var stackBytes: Int64
  /// How many snapshots the session holds.
  public var snapshotCount: Int

  /// Creates a size.
  public init(journalBytes: Int64, snapshotBytes: Int64, stackBytes: Int64, snapshotCount: Int) {
    self.journalBytes = journalBytes
    self.snapshotBytes = snapshotBytes
    self.stackBytes = stackBytes
    self.snapshotCount = snapshotCount
  }

  /// All bytes together.
  public var totalBytes: Int64 { journalBytes + snapshotBytes + stackBytes }
}

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
        try Row.fetchAll(
          db.cachedStatement(
            sql: "SELECT sequence, recorded_at, type, version, payload, delta FROM journal "
              + "WHERE \(pageConditions) ORDER BY sequence \(ascending ? "ASC" : "DESC") "
              + "LIMIT ?"
          ),
          arguments: StatementArguments(pageArguments)
        )
      }
      for row in page {
        let sequence: Int64 = row[0]
        let time: String = row[1]
        let entry = JournalRow(
          sequence: sequence,
          recordedAt: try date(time, "time of entry \(sequence) of session \(session)"),
          type: row[2],
          version: row[3],
          payload: row[4],
          delta: row[5]
        )
        cursor = sequence
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
      let head = try requireHead(db, session)
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
      guard let text else { throw outOfRange(session, sequence, head: head) }
      return try date(text, "time of entry \(sequence) of session \(session)")
    }
  }

  /// The bytes each session holds, by session.
  ///
  /// Reads the length of every stored text, so it scans the whole file: use it for listings,
  /// not in a loop.
  public func sessionSizes() throws -> [SessionID: SessionSize] {
    try read("measuring sessions", sessionSizes)
  }

  /// The stored bytes of each session, read through `db`.
  func sessionSizes(_ db: Database) throws -> [SessionID: SessionSize] {
    var sizes: [SessionID: SessionSize] = [:]
    func add(_ sql: String, _ update: (inout SessionSize, Row) -> Void) throws {
      let rows = try Row.fetchCursor(db, sql: sql)
      while let row = try rows.next() {
        let id = SessionID(row[0] as String)
        var size =
          sizes[id]
          ?? SessionSize(journalBytes: 0, snapshotBytes: 0, stackBytes: 0, snapshotCount: 0)
        update(&size, row)
        sizes[id] = size
      }
    }
    try add("SELECT id FROM sessions") { _, _ in }
    try add(
      "SELECT session, sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + 40) FROM journal GROUP BY session"
    ) { size, row in size.journalBytes = row[1] }
    try add(
      "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) + 40), "
        + "count(*) FROM snapshots GROUP BY session"
    ) { size, row in
      size.snapshotBytes = row[1]
      size.snapshotCount = row[2]
    }
    try add(
      "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(path AS BLOB)) + 24) "
        + "FROM stack_elements GROUP BY session"
    ) { size, row in size.stackBytes = row[1] }
    return sizes
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
}
