#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// Checks the journal's recorded migrations against this build's and each session (one, or
    /// all when `session` is `nil`) as SQLite's `verifyStorage` checks a file's: sequences
    /// from the oldest snapshot to the head with no gap; every delta applies to the stacks
    /// before it and keeps IDs below the next generation; every snapshot's stacks equal the
    /// stacks rebuilt at its sequence and agree with its state; the stack rows equal those at
    /// the head; payloads, states and times parse. Only reads.
    ///
    /// The server enforces the keys and references SQLite's foreign-key check looks for, so
    /// `fileProblems` stays empty. A session's rows are read a page at a time, as of the head
    /// read first, so an app appending meanwhile causes no finding. Entries past the head are
    /// not looked for: an append writes the entry and moves the head in one statement.
    public func verifyStorage(session: SessionID?, maxProblemsPerSession: Int) async throws
      -> StorageVerification
    {
      let recorded = try await rows(
        "reading the journal's migrations", PostgresSchemaMigrator.recordedQuery(tables))
      var migrations: [StorageVerification.MigrationCheck] = []
      for row in recorded {
        let (version, name, checksum, appliedAt) = try row.decode(
          (Int32, String, String, String).self)
        let shipped = PostgresMigration.all.first { $0.version == Int(version) }
        migrations.append(
          .init(
            version: Int(version), name: name, checksum: checksum, appliedAt: appliedAt,
            shipped: shipped.map { ($0.name, $0.checksum) }))
      }
      let ids: [SessionID]
      if let session {
        _ = try await headSequence(session: session)
        ids = [session]
      } else {
        ids = try await sessions().map(\.id)
      }
      var results: [SessionVerification] = []
      for id in ids {
        await results.append(try verifySession(id, maxProblems: maxProblemsPerSession))
      }
      let location = self.location
      let version = schemaVersion
      let shape = try await run("comparing the journal's schema with its migrations") { client in
        try await client.withConnection { connection in
          try await PostgresSchemaShape.deviations(connection, location, version: version)
        }
      }
      return StorageVerification(
        schemaVersion: schemaVersion, latestSchemaVersion: PostgresMigration.latestVersion,
        migrations: migrations, fileProblems: shape.problems, sessions: results)
    }

    /// Checks one session as of its head when the check starts: the head and its stack rows
    /// are read in one statement, then the snapshots and entries up to that head, which later
    /// appends do not change.
    func verifySession(_ session: SessionID, maxProblems: Int) async throws
      -> SessionVerification
    {
      let (head, stacks) = try await loadHeadStacks(session)
      var check = SessionCheck(session: session, head: head, maxProblems: maxProblems)
      let rows = PostgresCheckedRows(journal: self, session: session, head: head)
      let snapshots = try await rows.snapshotSequences()
      guard let base = check.begin(snapshotSequences: snapshots),
        var walk = check.start(
          base: base, snapshotSequences: snapshots, snapshot: try await rows.snapshot(at: base))
      else { return check.result }
      try await rows.entries { entry in
        var due: StoredSnapshotRow?
        if let sequence = check.snapshotToCompare(walk, at: entry.sequence) {
          due = try await rows.snapshot(at: sequence)
        }
        return check.visit(entry, &walk, snapshot: due)
      }
      check.finish(walk, stackRows: stacks)
      return check.result
    }
  }

  /// A session's rows read from PostgreSQL up to the head the check is made at, a page of
  /// entries per statement.
  struct PostgresCheckedRows {
    let journal: PostgresJournal
    let session: SessionID
    let head: Int64

    func snapshotSequences() async throws -> [Int64] {
      try await journal.snapshotSequences(session: session).filter { $0 <= head }
    }

    func snapshot(at sequence: Int64) async throws -> StoredSnapshotRow? {
      let rows = try await journal.rows(
        "reading the snapshot at \(sequence) of session \(session)",
        journal.snapshotRows.snapshot(session, at: sequence))
      return try rows.first.map(PostgresSnapshotRows.row)
    }

    func entries(_ body: (JournalRow) async throws -> Bool) async throws {
      var cursor: Int64 = -1
      while true {
        let rows = try await journal.rows(
          "verifying the journal of session \(session)",
          journal.entryRows.storedPage(
            session, after: cursor, through: head, limit: PostgresJournal.inspectionPageSize))
        for row in rows {
          let entry = try PostgresJournalRows.row(row)
          cursor = entry.sequence
          guard try await body(entry) else { return }
        }
        if rows.count < PostgresJournal.inspectionPageSize { return }
      }
    }
  }
#endif
