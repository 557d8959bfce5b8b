#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  /// The SQL of the `sessions` table: a session's row, created through `create_session(…)`,
  /// locked, changed and deleted, and the reads that start from it.
  ///
  /// A read of a session's rows starts from the session's row, so that one statement tells an
  /// unknown session (no row) from a range with nothing in it (the session's row alone): those
  /// statements are written here, with the other tables' parts written by their owners
  /// (``PostgresJournalRows``, ``PostgresSnapshotRows``, ``PostgresStackRows``).
  struct PostgresSessionRows: Sendable {
    let tables: PostgresTables

    private var entryRows: PostgresJournalRows { PostgresJournalRows(tables: tables) }
    private var snapshotRows: PostgresSnapshotRows { PostgresSnapshotRows(tables: tables) }
    private var stackRows: PostgresStackRows { PostgresStackRows(tables: tables) }

    /// The head of `session`, `head_sequence`; no row for an unknown session.
    func head(_ session: SessionID) -> SQLFragment {
      "SELECT head_sequence FROM \(unescaped: tables.sessions) WHERE id = \(session.rawValue)"
    }

    /// `create_session(…)`: the session row, snapshot 0 and the stack rows, in one statement.
    func create(
      _ id: SessionID, createdAt: String, metadata: String?, forkedFrom: (SessionID, Int64)?,
      version: Int, state: String, stacks: String
    ) -> PostgresQuery {
      """
      SELECT \(unescaped: tables.createSession)(\(id.rawValue),
        \(createdAt), \(metadata), \(forkedFrom?.0.rawValue),
        \(forkedFrom?.1), \(Int32(clamping: version)), \(state), \(stacks))
      """
    }

    /// The sessions (one, or all when `id` is `nil`), oldest first: identifier, creation time,
    /// metadata, head, fork source and sequence, the first sequence that journals its draws,
    /// number of entries, times of the first and last.
    func list(id: SessionID?) -> PostgresQuery {
      let only = id?.rawValue
      return """
        SELECT s.id, s.created_at, s.metadata, s.head_sequence, s.forked_from, s.forked_at,
          s.draws_from, \(entryRows.activityColumns(of: "s.id"))
        FROM \(unescaped: tables.sessions) s
        WHERE \(only)::text IS NULL OR s.id = \(only)
        ORDER BY s.created_at, s.id
        """
    }

    /// `column` for the session's row; no row for an unknown session.
    func value(_ column: SQLFragment, of session: SessionID) -> PostgresQuery {
      "SELECT \(column) FROM \(unescaped: tables.sessions) WHERE id = \(session.rawValue)"
    }

    /// The sequence of the session's last entry (`NULL` when it has none).
    func lastEntry(_ session: SessionID) -> PostgresQuery {
      value(entryRows.lastSequence(of: "\(session.rawValue)"), of: session)
    }

    /// The session's head and the sequence of its oldest snapshot.
    func bounds(_ session: SessionID) -> PostgresQuery {
      value(
        "head_sequence, \(snapshotRows.oldestSequence(of: "\(session.rawValue)"))", of: session)
    }

    /// The sequence of the session's oldest snapshot and of its last entry, without its row.
    func limits(_ session: SessionID) -> PostgresQuery {
      """
      SELECT \(snapshotRows.oldestSequence(of: "\(session.rawValue)")),
        \(entryRows.lastSequence(of: "\(session.rawValue)"))
      """
    }

    /// The session's head and the time of `sequence`: the creation time for 0, else the
    /// entry's, else the snapshot's (the oldest sequence of a compacted session).
    func recordedAt(_ session: SessionID, sequence: Int64) -> PostgresQuery {
      let id: SQLFragment = "\(session.rawValue)"
      return value(
        """
        head_sequence, CASE WHEN \(sequence) = 0 THEN created_at ELSE coalesce(
            \(entryRows.recordedAt(of: id, sequence: sequence)),
            \(snapshotRows.recordedAt(of: id, sequence: sequence))) END
        """, of: session)
    }

    /// A page of the session's entries after `cursor` through `last`, at most `limit`; the
    /// session's row alone (every column `NULL`) when none is in the range.
    func entries(_ session: SessionID, after cursor: Int64, through last: Int64, limit: Int)
      -> PostgresQuery
    {
      """
      SELECT j.sequence, j.recorded_at, j.type, j.version, j.payload, j.delta, j.draws
      FROM \(unescaped: tables.sessions) s
      LEFT JOIN LATERAL (
        \(entryRows.page(of: "s.id", after: cursor, through: last, limit: limit))
      ) j ON true
      WHERE s.id = \(session.rawValue)
      ORDER BY j.sequence
      """
    }

    /// The session's snapshot with the greatest sequence at or below `sequence`: sequence,
    /// version, state, stacks, time, all `NULL` when there is none.
    func nearestSnapshot(_ session: SessionID, atOrBelow sequence: Int64) -> PostgresQuery {
      """
      SELECT n.sequence, n.version, n.state, n.stacks, n.recorded_at
      FROM \(unescaped: tables.sessions) s
      LEFT JOIN LATERAL (
        \(snapshotRows.nearest(of: "s.id", atOrBelow: sequence))
      ) n ON true
      WHERE s.id = \(session.rawValue)
      """
    }

    /// The session's creation time, the sequence of its last entry recorded at or before
    /// `time`, and the sequence and time of its oldest snapshot.
    func sequence(_ session: SessionID, atOrBefore time: String) -> PostgresQuery {
      """
      SELECT s.created_at,
        \(entryRows.lastSequence(of: "s.id", atOrBefore: time)),
        o.sequence, o.recorded_at
      FROM \(unescaped: tables.sessions) s
      LEFT JOIN LATERAL (
        \(snapshotRows.oldest(of: "s.id"))
      ) o ON true
      WHERE s.id = \(session.rawValue)
      """
    }

    /// The session's head and its stack rows: head, path, next ID, whether it is a
    /// presentation, element ID, case name, state, by path and position.
    func headStacks(_ session: SessionID) -> PostgresQuery {
      """
      SELECT s.head_sequence, r.path, r.next_id, r.presentation, r.id, r.case_name, r.state
      FROM \(unescaped: tables.sessions) s
      LEFT JOIN LATERAL (
        \(stackRows.elements(of: "s.id"))
      ) r ON true
      WHERE s.id = \(session.rawValue)
      ORDER BY r.path, r.position
      """
    }

    /// The session's head and nearest snapshot at or below `sequence` (kind 0: head, snapshot
    /// sequence, its stacks), then the deltas after it through `sequence` (kind 1: `NULL`,
    /// entry sequence, delta), in that order.
    func stacks(_ session: SessionID, at sequence: Int64) -> PostgresQuery {
      let id: SQLFragment = "\(session.rawValue)"
      return """
        WITH n AS (
          \(snapshotRows.nearestStacks(of: id, atOrBelow: sequence))
        )
        SELECT 0 AS kind, s.head_sequence AS number, n.sequence, n.stacks
        FROM \(unescaped: tables.sessions) s LEFT JOIN n ON true
        WHERE s.id = \(session.rawValue)
        UNION ALL
        \(entryRows.deltas(of: id, after: "n", through: sequence))
        ORDER BY 1, 3
        """
    }

    /// The sequences of the session's snapshots, oldest first; one `NULL` when it has none.
    func snapshotSequences(_ session: SessionID) -> PostgresQuery {
      """
      SELECT n.sequence FROM \(unescaped: tables.sessions) s
      LEFT JOIN LATERAL (\(snapshotRows.sequences(of: "s.id"))) n ON true
      WHERE s.id = \(session.rawValue) ORDER BY n.sequence
      """
    }

    /// Every session's stored bytes: identifier, bytes of its entries, of its snapshots, number
    /// of snapshots, bytes of its stack elements.
    var sizes: PostgresQuery {
      """
      SELECT s.id,
        \(entryRows.bytes(of: "s.id")),
        \(snapshotRows.bytes(of: "s.id")),
        \(snapshotRows.count(of: "s.id")),
        \(stackRows.bytes(of: "s.id"))
      FROM \(unescaped: tables.sessions) s
      """
    }

    /// What an import needs of the journal: the highest payload version of its entries and
    /// snapshots, and every session's identifier.
    var importTarget: PostgresQuery {
      """
      SELECT greatest(\(entryRows.highestVersion),
        \(snapshotRows.highestVersion)),
        coalesce((SELECT array_agg(id) FROM \(unescaped: tables.sessions)), '{}')
      """
    }

    /// What an export's header says of the session: its row, then the oldest sequence, number
    /// and version range of its snapshots up to the head, then the number and version range of
    /// its entries after that snapshot through the head.
    func exportHeader(_ session: SessionID) -> PostgresQuery {
      let id: SQLFragment = "\(session.rawValue)"
      return """
        WITH s AS (
          SELECT * FROM \(unescaped: tables.sessions) WHERE id = \(session.rawValue)
        ), n AS (
          \(snapshotRows.exportBase(of: id, headOf: "s"))
        )
        SELECT s.created_at, s.metadata, s.forked_from, s.forked_at, s.head_sequence,
          s.draws_from, n.base, n.count, n.low, n.high, j.count, j.low, j.high
        FROM s, n, LATERAL (
          \(entryRows.versions(of: id, after: "n.base", through: "s.head_sequence"))
        ) j
        """
    }

    /// One row when the session exists; with `locking`, its row is locked until the
    /// transaction ends, so appends to it wait.
    func find(_ session: SessionID, locking: Bool) -> PostgresQuery {
      let lock = locking ? " FOR UPDATE" : ""
      return """
        SELECT 1 FROM \(unescaped: tables.sessions) WHERE id = \(session.rawValue)\(unescaped: lock)
        """
    }

    /// Locks every session's row until the transaction ends, in one order.
    var lockAll: PostgresQuery {
      "SELECT 1 FROM \(unescaped: tables.sessions) ORDER BY id FOR UPDATE"
    }

    /// The sessions forked from `session` before `cut`, by identifier.
    func forks(of session: SessionID, before cut: Int64) -> PostgresQuery {
      """
      SELECT id FROM \(unescaped: tables.sessions)
      WHERE forked_from = \(session.rawValue) AND forked_at < \(cut) ORDER BY id
      """
    }

    /// Replaces the session's metadata; answers with its identifier when it exists.
    func setMetadata(_ metadata: String?, of session: SessionID) -> PostgresQuery {
      """
      UPDATE \(unescaped: tables.sessions) SET metadata = \(metadata)
      WHERE id = \(session.rawValue) RETURNING id
      """
    }

    /// Inserts an imported session's row at its head, unless one has its identifier; answers
    /// with a row when it was inserted.
    func insert(_ session: SessionID, _ header: SessionExportHeader) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: tables.sessions)
        (id, created_at, metadata, head_sequence, forked_from, forked_at, draws_from)
      VALUES (\(session.rawValue), \(Timestamp.string(from: header.createdAt)), \(header.metadata),
        \(header.headSequence), \(header.forkedFrom?.rawValue), \(header.forkedAt),
        \(header.drawsJournaledFrom))
      ON CONFLICT (id) DO NOTHING RETURNING 1
      """
    }

    /// The statements that delete the session with all its rows, those that refer to it first.
    func delete(_ session: SessionID) -> [PostgresQuery] {
      delete(matching: "= \(session.rawValue)")
    }

    /// The statements that delete the sessions with all their rows, those that refer to them
    /// first.
    func delete(_ sessions: [SessionID]) -> [PostgresQuery] {
      delete(matching: "= ANY(\(sessions.map(\.rawValue)))")
    }

    private func delete(matching match: SQLFragment) -> [PostgresQuery] {
      stackRows.delete(sessions: match)
        + [snapshotRows.delete(sessions: match), entryRows.delete(sessions: match)]
        + ["DELETE FROM \(unescaped: tables.sessions) WHERE id \(match)"]
    }
  }
#endif
