import Foundation
import GRDB

extension SQLiteJournal {
  /// Creates a session whose sequence 0 is `initial`: writes the session, snapshot 0 and the
  /// stack rows in one transaction.
  ///
  /// A fork names its source session and sequence, which must exist. Throws
  /// `StorageError.Code.sessionExists` when the identifier is taken, and
  /// `StorageError.Code.invalidData` when the metadata is not JSON.
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
    let createdAt = try Timestamp.stored(date, "The creation time of session \(id)", path: path)
    try write("creating session \(id)", forgetting: id) { db in
      guard try !SessionRows.exists(db, id) else {
        throw StorageError(
          code: .sessionExists,
          message: "A session \(id) already exists in \(path ?? "the in-memory journal"). "
            + "Choose another identifier, or delete that session first.",
          path: path
        )
      }
      if let (source, sequence) = forkedFrom {
        let head = try SessionRows.requireHead(db, source, stored)
        guard (0...head).contains(sequence) else {
          throw stored.outOfRange(source, sequence, head: head)
        }
      }
      try SessionRows.insert(
        db, id, createdAt: createdAt, metadata: metadataText, headSequence: 0,
        forkedFrom: forkedFrom?.0, forkedAt: forkedFrom?.1, path: path)
      try SnapshotRows.insert(
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
      try SessionRows.infos(db, id: id, stored).first
    }
  }

  /// Every session with its entry count, head and activity, oldest first.
  public func sessions() throws -> [SessionInfo] {
    try read("listing sessions") { db in
      try SessionRows.infos(db, stored)
    }
  }

  /// Deletes the session with its journal, snapshots and stack rows, in one transaction.
  ///
  /// Nothing else deletes journal entries: this is the explicit way to remove a session.
  public func deleteSession(_ id: SessionID) throws {
    try write("deleting session \(id)") { db in
      _ = try SessionRows.requireHead(db, id, stored)
      try SessionRows.delete(db, id)
    }
  }

  /// Replaces the session's metadata (JSON, or `nil` for none).
  ///
  /// Throws `StorageError.Code.invalidData`, changing nothing, when it is not JSON: a JSON
  /// value such as `{"user":"ada"}`, `42` or `"note"` is needed, not plain text.
  public func setMetadata(_ metadata: Data?, session: SessionID) throws {
    let metadataText = try metadata.map { try stored.text($0, "metadata of session \(session)") }
    try write("setting the metadata of session \(session)") { db in
      _ = try SessionRows.requireHead(db, session, stored)
      try SessionRows.setMetadata(db, session, metadataText)
    }
  }
}
