#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackNavigation
  import StackJournalCore

  extension PostgresJournal {
    /// Appends an action whose delta the caller computed, after `expectedSequence`, and returns
    /// its sequence.
    ///
    /// One statement: `append_entry(…)` moves the head from `expectedSequence` under the session
    /// row's lock, inserts the entry, applies the delta to the stack rows (checking that it fits
    /// them) and, when ``snapshotDue(at:)``, writes `entry.snapshot`; it is called through
    /// `append_entry_committed(…)`, which commits before it answers. Throws
    /// `StorageError.Code.sequenceConflict` or `StorageError.Code.inconsistentDelta`,
    /// writing nothing. The calling task suspends, holding no thread, while the server commits.
    public func append(
      session: SessionID,
      expectedSequence: Int64,
      _ entry: JournalEntryDelta
    ) async throws -> Int64 {
      try await execute(
        appendQuery(session: session, expected: expectedSequence, entry), session: session,
        expected: expectedSequence)
    }

    /// The statement that appends a delta entry.
    private func appendQuery(
      session: SessionID,
      expected: Int64,
      _ entry: JournalEntryDelta
    ) throws -> PostgresQuery {
      try requireWritable("appending to session \(session)")
      _ = try Timestamp.stored(
        entry.recordedAt, "The time of the entry appended to session \(session)")
      let (payload, snapshot) = try entry.storedTexts(
        sequence: expected + 1, snapshotInterval: options.snapshotInterval,
        checked: { try stored.text($0, $1) })
      return entryRows.append(
        session: session, expected: expected, recordedAt: entry.recordedAt,
        type: entry.type, version: entry.version, payload: payload,
        delta: StorageJSON.text(entry.delta), snapshot: snapshot,
        draws: entry.draws.map { $0.journalText() })
    }

    /// The journal writes a snapshot with every entry whose sequence is a multiple of this
    /// (``Options/snapshotInterval``; `JournalBackend.snapshotDue(at:)`).
    public var snapshotInterval: Int { options.snapshotInterval }

    /// Runs an append's statement and returns the new sequence.
    private func execute(_ query: PostgresQuery, session: SessionID, expected: Int64) async throws
      -> Int64
    {
      do {
        return try await run("appending to session \(session)") { client in
          try await Self.sequence(of: client.query(query).collect())
        }
      } catch let error as StorageError {
        let reported = journalError(error, session: session, expected: expected)
        if reported.code == .sequenceConflict {
          logger.info(
            "sequence conflict: another writer appended first",
            metadata: [
              "journal": "\(location.description)", "session": "\(session.escaped)",
              "sequence": "\(conflictHead(error).map(String.init) ?? "unknown")",
              "expected_sequence": "\(expected)",
            ])
        }
        throw reported
      }
    }

    /// The head a conflict raised by `append_entry(…)` reports, when it does.
    private func conflictHead(_ error: StorageError) -> Int64? {
      ((error.underlying as? PostgresUnderlyingError)?.error.serverInfo?[.message]).flatMap {
        Int64($0)
      }
    }

    /// The sequence `append_entry_committed(…)` returned.
    private static func sequence(of rows: [PostgresRow]) throws -> Int64 {
      guard let row = rows.first else { throw CancellationError() }
      return try row.decode(Int64.self)
    }

    /// A conflict or a refused delta raised by the journal's functions, as the SQLite journal
    /// reports them.
    func journalError(_ error: StorageError, session: SessionID, expected: Int64 = 0)
      -> StorageError
    {
      guard let psql = (error.underlying as? PostgresUnderlyingError)?.error, psql.code == .server,
        let state = psql.serverInfo?[.sqlState]
      else { return error }
      let message = psql.serverInfo?[.message] ?? ""
      switch state {
      case JournalSQLState.sequenceConflict:
        return stored.sequenceConflict(session, head: Int64(message) ?? -1, expected: expected)
      case JournalSQLState.unknownSession:
        return stored.unknownSession(SessionID(message))
      case JournalSQLState.inconsistentDelta:
        let path = psql.serverInfo?[.detail] ?? ""
        return StorageError(
          code: .inconsistentDelta,
          message: "The change to the stack or presentation `\(StorageError.printable(path))` "
            + "\(StorageError.printable(message)). The delta does not match the session's stack "
            + "rows; nothing was written. Reopen the session to record from its head.",
          underlying: psql)
      case "23505" where psql.serverInfo?[.constraintName] == "sessions_pkey":
        return StorageError(
          code: .sessionExists,
          message: "A session \(session) already exists in \(location.description). Choose "
            + "another identifier, or delete that session first.")
      default:
        return error
      }
    }
  }
#endif
