import Foundation
import GRDB

/// The SQL of the `sessions` table: a session's row, its head, and the sessions listed with
/// what their journal tells of them. Each function runs inside the caller's transaction.
enum SessionRows {
  /// The SQL of a session's head, for a query on `sessions s`: the greater of the head it was
  /// created, imported or compacted at and its last journal entry. Appends do not update the
  /// session row (schema version 2), so an append writes one page less.
  static let headColumn =
    "max(s.head_sequence, coalesce(\(JournalRows.lastSequenceColumn), 0))"

  /// The session's number, head and the `latest_at` of its last entry, read by every append
  /// (see ``HeadRecord``); no row for an unknown session.
  static let headRecordSQL = """
    SELECT s.number, \(headColumn) AS head_sequence,
      \(JournalRows.lastLatestAtColumn) AS last_latest_at
    FROM sessions s WHERE s.id = ?
    """

  /// The head sequence of a session, or a ``StorageError/Code/unknownSession`` error; when
  /// `bounded`, an ``StorageError/Code/invalidData`` error for a head beyond
  /// ``SessionCheck/maximumSequence`` (only a hand edit puts one there; `verify` reports it).
  static func requireHead(
    _ db: Database, _ session: SessionID, _ stored: StoredValues, bounded: Bool = true
  ) throws -> Int64 {
    let statement = try db.cachedStatement(
      sql: "SELECT \(headColumn) FROM sessions s WHERE s.id = ?")
    guard let head = try Int64.fetchOne(statement, arguments: [session.rawValue]) else {
      throw stored.unknownSession(session)
    }
    return bounded ? try boundedHead(head, session, stored) : head
  }

  /// `head`, or an ``StorageError/Code/invalidData`` error for a head beyond
  /// ``SessionCheck/maximumSequence``.
  static func boundedHead(_ head: Int64, _ session: SessionID, _ stored: StoredValues) throws
    -> Int64
  {
    guard head <= SessionCheck.maximumSequence else {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) has the head sequence \(head), beyond "
          + "\(SessionCheck.maximumSequence), the largest a journal holds: a row was edited by "
          + "hand. Nothing was changed; run `\(stored.verifyCommand)`.",
        path: stored.path)
    }
    return head
  }

  /// The session `id`, or every session when `nil`, with its head, entry count and activity,
  /// oldest first.
  static func records(_ db: Database, id: SessionID? = nil) throws -> [SessionRecord] {
    try SessionRecord.fetchAll(
      db,
      sql: """
        SELECT s.id, s.created_at, s.metadata, typeof(s.metadata) AS metadata_type,
          \(headColumn) AS head_sequence,
          s.forked_from, s.forked_at, s.draws_from,
          \(JournalRows.countColumn) AS entry_count,
          \(JournalRows.activityColumns)
        FROM sessions s \(id == nil ? "" : "WHERE s.id = ?")
        ORDER BY s.created_at, s.id
        """,
      arguments: id.map { [$0.rawValue] } ?? [])
  }

  /// ``records(_:id:)`` as ``SessionInfo``s, their times checked.
  static func infos(_ db: Database, id: SessionID? = nil, _ stored: StoredValues) throws
    -> [SessionInfo]
  {
    try records(db, id: id).map { try $0.info(stored) }
  }

  /// The row of `session` as stored, for the check, or `nil` when there is none.
  static func storedRow(_ db: Database, _ session: SessionID) throws -> StoredSessionRow? {
    try Row.fetchOne(
      db,
      sql: """
        SELECT CAST(created_at AS TEXT), typeof(created_at), CAST(metadata AS TEXT),
          typeof(metadata), typeof(head_sequence), CAST(forked_from AS TEXT),
          typeof(forked_from), CAST(forked_at AS TEXT), typeof(forked_at)
        FROM sessions WHERE id = ?
        """,
      arguments: [session.rawValue]
    ).map { row in
      func text(_ index: Int) -> String? { String.fromDatabaseValue(row[index]) }
      return StoredSessionRow(
        createdAt: text(0), createdAtType: text(1) ?? "", metadata: text(2),
        metadataType: text(3) ?? "", headSequenceType: text(4) ?? "", forkedFrom: text(5),
        forkedFromType: text(6) ?? "", forkedAt: text(7), forkedAtType: text(8) ?? "")
    }
  }

  /// Whether a session `id` exists.
  static func exists(_ db: Database, _ id: SessionID) throws -> Bool {
    try Bool.fetchOne(
      db, sql: "SELECT count(*) > 0 FROM sessions WHERE id = ?", arguments: [id.rawValue])
      ?? false
  }

  /// The identifiers of every session, oldest first.
  static func ids(_ db: Database) throws -> [SessionID] {
    try String.fetchAll(db, sql: "SELECT id FROM sessions ORDER BY created_at, id")
      .map(SessionID.init(rawValue:))
  }

  /// The time the session was created, as stored, or `nil` when there is no such session.
  static func createdAt(_ db: Database, _ id: SessionID) throws -> String? {
    try String.fetchOne(
      db, sql: "SELECT created_at FROM sessions WHERE id = ?", arguments: [id.rawValue])
  }

  /// The sessions forked from `id` at a sequence below `sequence`, by identifier.
  static func forks(_ db: Database, of id: SessionID, below sequence: Int64) throws
    -> [SessionID]
  {
    try String.fetchAll(
      db, sql: "SELECT id FROM sessions WHERE forked_from = ? AND forked_at < ? ORDER BY id",
      arguments: [id.rawValue, sequence]
    ).map(SessionID.init(rawValue:))
  }

  /// Inserts a session's row, numbered one above the greatest number in the file (schema 4:
  /// its journal entries are keyed by the number, see ``JournalRows``), and returns the number.
  /// `drawsFrom` is the first sequence whose entry journals its draws (schema 6): 1 for a new
  /// session, what an export says for an imported one.
  /// Throws ``StorageError/Code/invalidData`` when the file has handed out every number.
  @discardableResult
  static func insert(
    _ db: Database, _ id: SessionID, createdAt: String, metadata: String?, headSequence: Int64,
    forkedFrom: SessionID?, forkedAt: Int64?, drawsFrom: Int64 = 1, path: String?
  ) throws -> Int64 {
    let number =
      try Int64.fetchOne(db, sql: "SELECT coalesce(max(number), 0) + 1 FROM sessions") ?? 1
    guard number <= SessionKeys.maximumNumber else {
      let place = path.map { "the file \($0)" } ?? "the in-memory journal"
      throw StorageError(
        code: .invalidData,
        message: "Session \(id) cannot be created: \(place) has numbered sessions up to "
          + "\(number - 1), the greatest its journal keys hold. Nothing was written; record new "
          + "sessions in another file.",
        path: path)
    }
    try db.execute(
      sql: "INSERT INTO sessions (id, created_at, metadata, head_sequence, forked_from, "
        + "forked_at, number, draws_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      arguments: [
        id.rawValue, createdAt, metadata, headSequence, forkedFrom?.rawValue, forkedAt, number,
        drawsFrom,
      ])
    return number
  }

  /// Replaces the session's metadata.
  static func setMetadata(_ db: Database, _ id: SessionID, _ metadata: String?) throws {
    try db.execute(
      sql: "UPDATE sessions SET metadata = ? WHERE id = ?", arguments: [metadata, id.rawValue])
  }

  /// Sets the head the session's row holds.
  static func setHead(_ db: Database, _ id: SessionID, _ head: Int64) throws {
    try db.execute(
      sql: "UPDATE sessions SET head_sequence = ? WHERE id = ?", arguments: [head, id.rawValue])
  }

  /// Deletes the session with its rows in every table: its stack rows, snapshots and journal,
  /// then its own row.
  static func delete(_ db: Database, _ id: SessionID) throws {
    try StackRows.deleteAll(db, session: id.rawValue)
    try SnapshotRows.deleteAll(db, session: id)
    try JournalRows.deleteAll(db, session: id)
    try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id.rawValue])
  }
}

// MARK: - Records

extension SessionRows {
  /// A session's number, head and the `latest_at` of its last entry, read by every append.
  /// Decoded by hand rather than through `Decodable`: it is on every append's path.
  struct HeadRecord: FetchableRecord {
    /// No row for an unknown session.
    static let sql = SessionRows.headRecordSQL

    /// The session's `sessions.number`, which its journal keys start with.
    var number: Int64
    var headSequence: Int64
    var lastLatestAt: String?

    init(number: Int64, headSequence: Int64, lastLatestAt: String?) {
      self.number = number
      self.headSequence = headSequence
      self.lastLatestAt = lastLatestAt
    }

    init(row: Row) {
      number = row["number"]
      headSequence = row["head_sequence"]
      lastLatestAt = row["last_latest_at"]
    }
  }

  /// A row of the `sessions` table with what the journal tells of it: its head, entry count and
  /// the times of its first and last entries (see ``SessionRows/records(_:id:)``).
  struct SessionRecord: StoredRowRecord {
    var id: String
    var createdAt: String
    var metadata: String?
    /// SQLite's storage class of the metadata: `text`, `null`, or what a hand edit put there.
    var metadataType: String
    var headSequence: Int64
    var forkedFrom: String?
    var forkedAt: Int64?
    /// The first sequence whose entry journals its draws (schema 6).
    var drawsFrom: Int64
    var entryCount: Int
    var firstActivity: String?
    var lastActivity: String?

    /// The session as the journal's API shows it, its times checked.
    func info(_ stored: StoredValues) throws -> SessionInfo {
      let id = SessionID(id)
      return SessionInfo(
        id: id,
        createdAt: try stored.date(createdAt, "creation time of session \(id)"),
        metadata: metadata.map { Data($0.utf8) },
        entryCount: entryCount,
        headSequence: headSequence,
        firstActivity: try firstActivity.map {
          try stored.date($0, "first entry time of session \(id)")
        },
        lastActivity: try lastActivity.map {
          try stored.date($0, "last entry time of session \(id)")
        },
        forkedFrom: forkedFrom.map(SessionID.init(rawValue:)),
        forkedAt: forkedAt,
        drawsJournaledFrom: drawsFrom
      )
    }

    /// The metadata, or an ``StorageError/Code/invalidData`` error when it is not JSON text a
    /// journal may store (see ``JSONText/storageProblem(_:)``), a BLOB included.
    func checkedMetadata(_ stored: StoredValues) throws -> String? {
      guard let problem = StoredSessionRow.metadataProblem(type: metadataType, metadata) else {
        return metadata
      }
      throw StorageError(
        code: .invalidData,
        message: "The metadata of session \(StorageError.printable(id)) \(problem). The row was "
          + "left as it is; run `\(stored.verifyCommand)`.",
        path: stored.path)
    }
  }
}
