#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// What the journal tells an import: schema version, highest payload version, sessions.
    public func importTarget() async throws -> ImportTarget {
      let rows = try await rows("reading the import target", sessionRows.importTarget)
      let (version, sessions) = try rows[0].decode((Int32?, [String]).self)
      return ImportTarget(
        schemaVersion: schemaVersion, payloadVersion: version.map(Int.init),
        existingSessions: Set(sessions.map(SessionID.init(rawValue:))),
        comparesSchemaVersions: false, payloadVersionRange: Int(Int32.min)...Int(Int32.max))
    }

    /// Imports a checked session export as a new session: the session row, its snapshots,
    /// entries and head stack rows, written in one transaction (entries and snapshots a
    /// thousand rows per statement). The file's lines are read again and checked (a delta walk
    /// from its first snapshot, as `SessionExportFile.read(path:)` checks them) before
    /// anything is written; after the commit the new session is verified, and removed again
    /// if it does not verify, so a failed import leaves nothing behind.
    ///
    /// Judge the file first with `SessionExportFile.verdict(into:as:payloadVersion:)`.
    /// Throws `StorageError.Code.sessionExists` when the identifier is taken.
    public func importSession(_ file: SessionExportFile, as id: SessionID? = nil) async throws
      -> ImportResult
    {
      let session = id ?? file.header.session
      try requireWritable("importing session \(session)")
      try session.validate()
      var snapshots: [(Int64, Int32, String, String, String)] = []
      var entries: [(Int64, String, String, Int32, String, String, String?)] = []
      let headStacks = try file.readLines { line in
        switch line {
        case .snapshot(let row):
          snapshots.append(
            (row.sequence, Int32(clamping: row.version), row.recordedAt, row.state, row.stacks))
        case .entry(let row):
          entries.append(
            (row.sequence, row.recordedAt, row.type, Int32(clamping: row.version), row.payload,
              row.delta, row.draws))
        }
      }
      let header = file.header
      let logger = self.logger
      let (importedSnapshots, importedEntries) = (snapshots, entries)
      let created = try await run("importing session \(session)") { client in
        try await client.withTransaction(logger: logger) { connection -> Bool in
          let inserted = try await connection.query(
            self.sessionRows.insert(session, header), logger: logger
          ).collect()
          guard !inserted.isEmpty else { return false }
          for chunk in stride(from: 0, to: importedSnapshots.count, by: 1000) {
            let part = importedSnapshots[chunk..<min(chunk + 1000, importedSnapshots.count)]
            try await connection.query(self.snapshotRows.insert(session, part), logger: logger)
          }
          for chunk in stride(from: 0, to: importedEntries.count, by: 1000) {
            let part = importedEntries[chunk..<min(chunk + 1000, importedEntries.count)]
            try await connection.query(self.entryRows.insert(session, part), logger: logger)
          }
          for stack in headStacks {
            try await connection.query(self.stackRows.insert(session, stack), logger: logger)
            guard !stack.elements.isEmpty else { continue }
            try await connection.query(
              self.stackRows.insertElements(session, stack), logger: logger)
          }
          return true
        }
      }
      guard created else {
        throw StorageError(
          code: .sessionExists,
          message: "A session \(session) already exists in \(location.description); nothing was "
            + "imported. Import it under another identifier.")
      }
      let check = try await verifySession(session, maxProblems: 1)
      if let problem = check.problems.first {
        try await deleteSession(session)
        throw StorageError(
          code: .inconsistentDelta,
          message: "The imported session \(session) does not verify (\(problem)); nothing was "
            + "imported.")
      }
      return ImportResult(
        session: session, entries: Int64(importedEntries.count), snapshots: importedSnapshots.count,
        headSequence: header.headSequence)
    }
  }

  extension PostgresJournal: SessionExportSource {
    package var exportErrorPath: String? { nil }

    package func exportCheck(_ session: SessionID) async throws -> SessionVerification {
      try await verifySession(session, maxProblems: 1)
    }

    package func exportHeader(_ session: SessionID) async throws -> SessionExportHeader {
      let rows = try await rows("exporting session \(session)", sessionRows.exportHeader(session))
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (
        createdAt, metadata, forkedFrom, forkedAt, head, drawsFrom, base, snapshots, snapshotLow,
        snapshotHigh, entries, entryLow, entryHigh
      ) = try row.decode(
        (String, String?, String?, Int64?, Int64, Int64, Int64?, Int64, Int32?, Int32?, Int64,
          Int32?, Int32?).self)
      guard let base else {
        throw StorageError(
          code: .snapshotMissing,
          message: "Session \(session) has no snapshot to start an export from; run "
            + "`stackjournal verify --db \(location.description)`.")
      }
      let low = [snapshotLow, entryLow].compactMap { $0 }.min().map(Int.init)
      let high = [snapshotHigh, entryHigh].compactMap { $0 }.max().map(Int.init)
      return SessionExportHeader(
        schemaVersion: schemaVersion, session: session,
        createdAt: try stored.date(createdAt, "creation time of session \(session)"),
        metadata: metadata, forkedFrom: forkedFrom.map(SessionID.init(rawValue:)),
        forkedAt: forkedAt, headSequence: head, drawsJournaledFrom: drawsFrom,
        baseSequence: base, entryCount: entries,
        snapshotCount: Int(snapshots), payloadVersions: low.flatMap { low in high.map { low...$0 } })
    }

    package func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int)
      async throws -> (snapshots: [StoredSnapshotRow], entries: [JournalRow])
    {
      let entries = try await rows(
        "exporting session \(session)",
        entryRows.storedPage(session, after: after, through: through, limit: limit)
      ).map(PostgresJournalRows.row)
      let last = entries.last?.sequence ?? through
      let snapshots = try await rows(
        "exporting session \(session)",
        snapshotRows.storedPage(session, after: after, through: last)
      ).map(PostgresSnapshotRows.row)
      return (snapshots, entries)
    }
  }
#endif
