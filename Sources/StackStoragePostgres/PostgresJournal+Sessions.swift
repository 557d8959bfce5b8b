#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// Creates a session whose sequence 0 is `initial`: the session, snapshot 0 and the stack
    /// rows, in one statement.
    ///
    /// Throws `StorageError.Code.sessionExists` when the identifier is taken; a fork's source
    /// must exist and hold the sequence.
    public func createSession(
      _ id: SessionID,
      initial: EncodedState,
      version: Int,
      metadata: Data?,
      forkedFrom: (SessionID, Int64)?,
      at date: Date
    ) async throws -> SessionInfo {
      try requireWritable("creating session \(id)")
      let (_, stateText, stacksText, metadataText) = try stored.sessionTexts(
        id, initial: initial, metadata: metadata)
      let createdAt = try Timestamp.stored(date, "The creation time of session \(id)")
      let query = sessionRows.create(
        id, createdAt: createdAt, metadata: metadataText, forkedFrom: forkedFrom,
        version: version, state: stateText, stacks: stacksText)
      do {
        _ = try await committedRows("creating session \(id)", query)
      } catch let error as StorageError {
        let mapped = journalError(error, session: id)
        if let (source, sequence) = forkedFrom, let psql = (error.underlying as? PostgresUnderlyingError)?.error,
          psql.serverInfo?[.sqlState] == JournalSQLState.outOfRange
        {
          throw stored.outOfRange(
            source, sequence, head: Int64(psql.serverInfo?[.message] ?? "") ?? -1)
        }
        throw mapped
      }
      return SessionInfo(
        id: id, createdAt: Timestamp.rounded(date), metadata: metadata,
        forkedFrom: forkedFrom?.0, forkedAt: forkedFrom?.1)
    }

    /// The session, or `nil` when no session has that identifier.
    public func session(_ id: SessionID) async throws -> SessionInfo? {
      try await fetchSessions("reading session \(id)", id: id).first
    }

    /// Every session with its entry count, head and activity, oldest first.
    public func sessions() async throws -> [SessionInfo] {
      try await fetchSessions("listing sessions", id: nil)
    }

    /// Deletes the session with its journal, snapshots and stack rows, in one transaction.
    public func deleteSession(_ id: SessionID) async throws {
      try requireWritable("deleting session \(id)")
      let sessions = sessionRows
      let found = try await run("deleting session \(id)") { client in
        try await client.withTransaction(logger: self.logger) { connection in
          let rows = try await connection.query(
            sessions.find(id, locking: true), logger: self.logger
          ).collect()
          guard !rows.isEmpty else { return false }
          for statement in sessions.delete(id) {
            try await connection.query(statement, logger: self.logger)
          }
          return true
        }
      }
      guard found else { throw stored.unknownSession(id) }
    }

    /// Replaces the session's metadata (JSON, or `nil` for none).
    public func setMetadata(_ metadata: Data?, session: SessionID) async throws {
      try requireWritable("setting the metadata of session \(session)")
      let metadataText = try metadata.map { try stored.text($0, "metadata of session \(session)") }
      let found = try await committedRows(
        "setting the metadata of session \(session)",
        sessionRows.setMetadata(metadataText, of: session))
      guard !found.isEmpty else { throw stored.unknownSession(session) }
    }

    private func fetchSessions(_ activity: String, id: SessionID?) async throws -> [SessionInfo] {
      try decodeSessions(try await rows(activity, sessionRows.list(id: id)))
    }

    /// The sessions of the rows of ``PostgresSessionRows/list(id:)``.
    func decodeSessions(_ rows: [PostgresRow]) throws -> [SessionInfo] {
      try rows.map { row in
        let (rawID, created, metadata, head, forkedFrom, forkedAt, drawsFrom, count, first, last) =
          try row.decode(
            (String, String, String?, Int64, String?, Int64?, Int64, Int64, String?, String?).self)
        let id = SessionID(rawID)
        return SessionInfo(
          id: id,
          createdAt: try stored.date(created, "creation time of session \(id)"),
          metadata: metadata.map { Data($0.utf8) },
          entryCount: Int(count),
          headSequence: head,
          firstActivity: try first.map { try stored.date($0, "first entry time of session \(id)") },
          lastActivity: try last.map { try stored.date($0, "last entry time of session \(id)") },
          forkedFrom: forkedFrom.map(SessionID.init(rawValue:)),
          forkedAt: forkedAt, drawsJournaledFrom: drawsFrom)
      }
    }
  }
#endif
