#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalCore

  extension PostgresJournal {
    /// What the journal tells an import: schema version, highest payload version, sessions.
    public func importTarget() async throws -> ImportTarget {
      let rows = try await rows(
        "reading the import target",
        """
        SELECT greatest((SELECT max(version) FROM \(unescaped: table("journal"))),
          (SELECT max(version) FROM \(unescaped: table("snapshots")))),
          coalesce((SELECT array_agg(id) FROM \(unescaped: table("sessions"))), '{}')
        """)
      let (version, sessions) = try rows[0].decode((Int32?, [String]).self)
      return ImportTarget(
        schemaVersion: schemaVersion, payloadVersion: version.map(Int.init),
        existingSessions: Set(sessions.map(SessionID.init(rawValue:))),
        comparesSchemaVersions: false, payloadVersionRange: Int(Int32.min)...Int(Int32.max))
    }

    /// Imports a checked session export as a new session: the session row, its snapshots,
    /// entries and head stack rows, written in one transaction (entries and snapshots a
    /// thousand rows per statement). The file's lines are read again and checked (a delta walk
    /// from its first snapshot, as ``SessionExportFile/read(path:)`` checks them) before
    /// anything is written; after the commit the new session is verified, and removed again
    /// if it does not verify, so a failed import leaves nothing behind.
    ///
    /// Judge the file first with ``SessionExportFile/verdict(into:as:payloadVersion:)``.
    /// Throws ``StorageError/Code/sessionExists`` when the identifier is taken.
    public func importSession(_ file: SessionExportFile, as id: SessionID? = nil) async throws
      -> ImportResult
    {
      let session = id ?? file.header.session
      try requireWritable("importing session \(session)")
      try session.validate()
      var snapshots: [(Int64, Int32, String, String, String)] = []
      var entries: [(Int64, String, String, Int32, String, String)] = []
      let headStacks = try file.readLines { line in
        switch line {
        case .snapshot(let sequence, let version, let recordedAt, let state, let stacks):
          snapshots.append((sequence, Int32(clamping: version), recordedAt, state, stacks))
        case .entry(let sequence, let recordedAt, let type, let version, let payload, let delta):
          entries.append(
            (sequence, recordedAt, type, Int32(clamping: version), payload, delta))
        }
      }
      let header = file.header
      let schema = location.schema
      let logger = self.logger
      let (snapshotRows, entryRows) = (snapshots, entries)
      let created = try await run("importing session \(session)") { client in
        try await client.withTransaction(logger: logger) { connection -> Bool in
          let id = session.rawValue
          let inserted = try await connection.query(
            """
            INSERT INTO \(unescaped: schema).sessions
              (id, created_at, metadata, head_sequence, forked_from, forked_at)
            VALUES (\(id), \(Timestamp.string(from: header.createdAt)), \(header.metadata),
              \(header.headSequence), \(header.forkedFrom?.rawValue), \(header.forkedAt))
            ON CONFLICT (id) DO NOTHING RETURNING 1
            """, logger: logger
          ).collect()
          guard !inserted.isEmpty else { return false }
          for chunk in stride(from: 0, to: snapshotRows.count, by: 1000) {
            let part = snapshotRows[chunk..<min(chunk + 1000, snapshotRows.count)]
            try await connection.query(
              """
              INSERT INTO \(unescaped: schema).snapshots
                (session, sequence, version, recorded_at, state, stacks)
              SELECT \(id), * FROM unnest(\(part.map(\.0))::bigint[], \(part.map(\.1))::integer[],
                \(part.map(\.2))::text[], \(part.map(\.3))::text[], \(part.map(\.4))::text[])
              """, logger: logger)
          }
          for chunk in stride(from: 0, to: entryRows.count, by: 1000) {
            let part = entryRows[chunk..<min(chunk + 1000, entryRows.count)]
            try await connection.query(
              """
              INSERT INTO \(unescaped: schema).journal
                (session, sequence, recorded_at, type, version, payload, delta)
              SELECT \(id), * FROM unnest(\(part.map(\.0))::bigint[], \(part.map(\.1))::text[],
                \(part.map(\.2))::text[], \(part.map(\.3))::integer[], \(part.map(\.4))::text[],
                \(part.map(\.5))::text[])
              """, logger: logger)
          }
          for stack in headStacks {
            try await connection.query(
              """
              INSERT INTO \(unescaped: schema).stacks (session, path, next_id)
              VALUES (\(id), \(stack.path), \(Int64(stack.nextID.generation)))
              """, logger: logger)
            guard !stack.elements.isEmpty else { continue }
            let elements = stack.elements
            try await connection.query(
              """
              INSERT INTO \(unescaped: schema).stack_elements
                (session, path, id, position, case_name, state)
              SELECT \(id), \(stack.path), u.i, u.p, CASE WHEN u.h THEN u.n END, u.st
              FROM unnest(
                \(elements.map { Int64($0.id.generation) })::bigint[],
                \(elements.indices.map { Int32($0) })::integer[],
                \(elements.map { $0.caseName ?? "" })::text[],
                \(elements.map { $0.caseName != nil })::boolean[],
                \(elements.map(\.state))::text[]) AS u(i, p, n, h, st)
              """, logger: logger)
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
        session: session, entries: Int64(entryRows.count), snapshots: snapshotRows.count,
        headSequence: header.headSequence)
    }
  }

  extension PostgresJournal: SessionExportSource {
    package var exportErrorPath: String? { nil }

    package func exportCheck(_ session: SessionID) async throws -> SessionVerification {
      try await verifySession(session, maxProblems: 1)
    }

    package func exportHeader(_ session: SessionID) async throws -> SessionExportHeader {
      let id = session.rawValue
      let rows = try await rows(
        "exporting session \(session)",
        """
        WITH s AS (
          SELECT * FROM \(unescaped: table("sessions")) WHERE id = \(id)
        ), n AS (
          SELECT min(sequence) AS base, count(*) AS count, min(version) AS low,
            max(version) AS high
          FROM \(unescaped: table("snapshots")), s
          WHERE session = \(id) AND sequence <= s.head_sequence
        )
        SELECT s.created_at, s.metadata, s.forked_from, s.forked_at, s.head_sequence,
          n.base, n.count, n.low, n.high, j.count, j.low, j.high
        FROM s, n, LATERAL (
          SELECT count(*) AS count, min(version) AS low, max(version) AS high
          FROM \(unescaped: table("journal"))
          WHERE session = \(id) AND sequence > n.base AND sequence <= s.head_sequence
        ) j
        """)
      guard let row = rows.first else { throw stored.unknownSession(session) }
      let (
        createdAt, metadata, forkedFrom, forkedAt, head, base, snapshots, snapshotLow,
        snapshotHigh, entries, entryLow, entryHigh
      ) = try row.decode(
        (String, String?, String?, Int64?, Int64, Int64?, Int64, Int32?, Int32?, Int64, Int32?,
          Int32?).self)
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
        forkedAt: forkedAt, headSequence: head, baseSequence: base, entryCount: entries,
        snapshotCount: Int(snapshots), payloadVersions: low.flatMap { low in high.map { low...$0 } })
    }

    package func exportPage(_ session: SessionID, after: Int64, through: Int64, limit: Int)
      async throws -> (snapshots: [ExportRow], entries: [ExportRow])
    {
      let id = session.rawValue
      let entryRows = try await rows(
        "exporting session \(session)",
        """
        SELECT sequence, recorded_at, type, version, payload, delta
        FROM \(unescaped: table("journal"))
        WHERE session = \(id) AND sequence > \(after) AND sequence <= \(through)
        ORDER BY sequence LIMIT \(Int64(limit))
        """)
      var entries: [ExportRow] = []
      for row in entryRows {
        let (sequence, recordedAt, type, version, payload, delta) = try row.decode(
          (Int64, String, String, Int32, String, String).self)
        entries.append(
          ExportRow(
            sequence: sequence,
            line: .entry(
              sequence: sequence, recordedAt: recordedAt, type: type, version: Int(version),
              payload: payload, delta: delta)))
      }
      let last = entries.last?.sequence ?? through
      var snapshots: [ExportRow] = []
      for row in try await rows(
        "exporting session \(session)",
        """
        SELECT sequence, version, recorded_at, state, stacks FROM \(unescaped: table("snapshots"))
        WHERE session = \(id) AND sequence > \(after) AND sequence <= \(last) ORDER BY sequence
        """)
      {
        let (sequence, version, recordedAt, state, stacks) = try row.decode(
          (Int64, Int32, String, String, String).self)
        snapshots.append(
          ExportRow(
            sequence: sequence,
            line: .snapshot(
              sequence: sequence, version: Int(version), recordedAt: recordedAt, state: state,
              stacks: stacks)))
      }
      return (snapshots, entries)
    }
  }
#endif
