import Foundation
import GRDB

extension SQLiteJournal {
  /// Creates a session whose sequence 0 is `initial`: writes the session, snapshot 0 and the
  /// stack rows in one transaction.
  ///
  /// A fork names its source session and sequence, which must exist. Throws
  /// ``StorageError/Code/sessionExists`` when the identifier is taken, and
  /// ``StorageError/Code/invalidData`` when the metadata is not JSON.
  public func createSession(
    _ id: SessionID,
    initial: EncodedState,
    version: Int,
    metadata: Data? = nil,
    forkedFrom: (SessionID, Int64)? = nil,
    at date: Date = Date()
  ) throws -> SessionInfo {
    try requireWritable("creating session \(id)")
    try id.validate()
    let (stacks, stateText, stacksText, metadataText) = try stored.sessionTexts(
      id, initial: initial, metadata: metadata)
    let createdAt = Timestamp.string(from: date)
    try write("creating session \(id)", forgetting: id) { db in
      let exists = try Bool.fetchOne(
        db, sql: "SELECT count(*) > 0 FROM sessions WHERE id = ?", arguments: [id.rawValue])
      guard exists != true else {
        throw StorageError(
          code: .sessionExists,
          message: "A session \(id) already exists in \(path ?? "the in-memory journal"). "
            + "Choose another identifier, or delete that session first.",
          path: path
        )
      }
      if let (source, sequence) = forkedFrom {
        let head = try requireHead(db, source)
        guard (0...head).contains(sequence) else {
          throw stored.outOfRange(source, sequence, head: head)
        }
      }
      try db.execute(
        sql: "INSERT INTO sessions (id, created_at, metadata, head_sequence, forked_from, "
          + "forked_at) VALUES (?, ?, ?, 0, ?, ?)",
        arguments: [
          id.rawValue, createdAt, metadataText, forkedFrom?.0.rawValue, forkedFrom?.1,
        ]
      )
      try Self.insertSnapshot(
        db, session: id.rawValue, sequence: 0, version: version, state: stateText,
        stacks: stacksText, recordedAt: createdAt)
      try StackRows.insert(stacks, db, session: id.rawValue)
    }
    return SessionInfo(
      id: id,
      createdAt: Timestamp.rounded(date),
      metadata: metadata,
      forkedFrom: forkedFrom?.0,
      forkedAt: forkedFrom?.1
    )
  }

  /// The session, or `nil` when no session has that identifier.
  public func session(_ id: SessionID) throws -> SessionInfo? {
    try read("reading session \(id)") { db in
      try fetchSessions(db, where: "WHERE s.id = ?", arguments: [id.rawValue]).first
    }
  }

  /// Every session with its entry count, head and activity, oldest first.
  public func sessions() throws -> [SessionInfo] {
    try read("listing sessions") { db in
      try fetchSessions(db, where: "", arguments: [])
    }
  }

  /// Deletes the session with its journal, snapshots and stack rows, in one transaction.
  ///
  /// Nothing else deletes journal entries: this is the explicit way to remove a session.
  public func deleteSession(_ id: SessionID) throws {
    try write("deleting session \(id)") { db in
      _ = try requireHead(db, id)
      try StackRows.deleteAll(db, session: id.rawValue)
      for table in ["snapshots", "journal"] {
        try db.execute(sql: "DELETE FROM \(table) WHERE session = ?", arguments: [id.rawValue])
      }
      try db.execute(sql: "DELETE FROM sessions WHERE id = ?", arguments: [id.rawValue])
    }
  }

  /// Replaces the session's metadata (JSON, or `nil` for none).
  ///
  /// Throws ``StorageError/Code/invalidData``, changing nothing, when it is not JSON: a JSON
  /// value such as `{"user":"ada"}`, `42` or `"note"` is needed, not plain text.
  public func setMetadata(_ metadata: Data?, session: SessionID) throws {
    let metadataText = try metadata.map { try stored.text($0, "metadata of session \(session)") }
    try write("setting the metadata of session \(session)") { db in
      _ = try requireHead(db, session)
      try db.execute(
        sql: "UPDATE sessions SET metadata = ? WHERE id = ?",
        arguments: [metadataText, session.rawValue]
      )
    }
  }

  /// The sessions a condition on `sessions s` selects, read through `db`, oldest first.
  func fetchSessions(
    _ db: Database,
    where condition: String,
    arguments: StatementArguments
  ) throws -> [SessionInfo] {
    try SessionRecord.fetchAll(db, where: condition, arguments: arguments).map { record in
      let id = SessionID(record.id)
      return SessionInfo(
        id: id,
        createdAt: try stored.date(record.createdAt, "creation time of session \(id)"),
        metadata: record.metadata.map { Data($0.utf8) },
        entryCount: record.entryCount,
        headSequence: record.headSequence,
        firstActivity: try record.firstActivity.map {
          try stored.date($0, "first entry time of session \(id)")
        },
        lastActivity: try record.lastActivity.map {
          try stored.date($0, "last entry time of session \(id)")
        },
        forkedFrom: record.forkedFrom.map(SessionID.init(rawValue:)),
        forkedAt: record.forkedAt
      )
    }
  }
}
