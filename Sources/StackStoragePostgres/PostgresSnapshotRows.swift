#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  /// The SQL of the `snapshots` table: a session's full states at some sequences, read by
  /// sequence, by range and nearest below a sequence; their sizes and versions; writing,
  /// importing, compacting and deleting them.
  ///
  /// A part that takes `session` is a fragment naming the session: a bound identifier
  /// (`"\(id.rawValue)"`) or a column of the statement that includes it (`"s.id"`).
  struct PostgresSnapshotRows: Sendable {
    let tables: PostgresTables

    /// The bytes a snapshot counts for: its text's UTF-8 length and a fixed cost per row, as
    /// the SQLite journal counts them.
    private static let snapshotBytes = "octet_length(state) + octet_length(stacks) + 40"

    /// The snapshot of `session` with the greatest sequence at or below `sequence`: sequence,
    /// version, state, stacks, time.
    func nearest(of session: SQLFragment, atOrBelow sequence: Int64) -> SQLFragment {
      """
      SELECT sequence, version, state, stacks, recorded_at
        FROM \(unescaped: tables.snapshots)
        WHERE session = \(session) AND sequence <= \(sequence)
        ORDER BY sequence DESC LIMIT 1
      """
    }

    /// The sequence and stacks of the snapshot of `session` with the greatest sequence at or
    /// below `sequence`: what rebuilding stacks starts from.
    func nearestStacks(of session: SQLFragment, atOrBelow sequence: Int64) -> SQLFragment {
      """
      SELECT sequence, stacks FROM \(unescaped: tables.snapshots)
        WHERE session = \(session) AND sequence <= \(sequence)
        ORDER BY sequence DESC LIMIT 1
      """
    }

    /// The sequence and time of the oldest snapshot of `session`.
    func oldest(of session: SQLFragment) -> SQLFragment {
      """
      SELECT sequence, recorded_at FROM \(unescaped: tables.snapshots)
        WHERE session = \(session) ORDER BY sequence LIMIT 1
      """
    }

    /// The sequences of the snapshots of `session`, unordered.
    func sequences(of session: SQLFragment) -> SQLFragment {
      "SELECT sequence FROM \(unescaped: tables.snapshots) WHERE session = \(session)"
    }

    /// The sequence of the oldest snapshot of `session`; `NULL` when it has none.
    func oldestSequence(of session: SQLFragment) -> SQLFragment {
      "(SELECT min(sequence) FROM \(unescaped: tables.snapshots) WHERE session = \(session))"
    }

    /// The time of the snapshot at `sequence` of `session`; `NULL` when there is none.
    func recordedAt(of session: SQLFragment, sequence: Int64) -> SQLFragment {
      """
      (SELECT recorded_at FROM \(unescaped: tables.snapshots)
          WHERE session = \(session) AND sequence = \(sequence))
      """
    }

    /// The stored bytes of the snapshots of `session`.
    func bytes(of session: SQLFragment) -> SQLFragment {
      """
      coalesce((SELECT sum(\(unescaped: Self.snapshotBytes))
          FROM \(unescaped: tables.snapshots) WHERE session = \(session)), 0)::bigint
      """
    }

    /// The stored bytes of the snapshots of `session` below `cut`.
    func bytes(of session: SQLFragment, below cut: Int64) -> SQLFragment {
      """
      (SELECT coalesce(sum(\(unescaped: Self.snapshotBytes)), 0)::bigint
          FROM \(unescaped: tables.snapshots) WHERE session = \(session) AND sequence < \(cut))
      """
    }

    /// The number of snapshots of `session`.
    func count(of session: SQLFragment) -> SQLFragment {
      "(SELECT count(*) FROM \(unescaped: tables.snapshots) WHERE session = \(session))"
    }

    /// The highest payload version of any snapshot; `NULL` when there is none.
    var highestVersion: SQLFragment {
      "(SELECT max(version) FROM \(unescaped: tables.snapshots))"
    }

    /// The oldest sequence, number and lowest and highest versions (`base`, `count`, `low`,
    /// `high`) of the snapshots of `session` at or below the head of the session row `row` (the
    /// name of a relation with a `head_sequence` column), as a relation.
    func exportBase(of session: SQLFragment, headOf row: String) -> SQLFragment {
      """
      SELECT min(sequence) AS base, count(*) AS count, min(version) AS low,
          max(version) AS high
        FROM \(unescaped: tables.snapshots), \(unescaped: row)
        WHERE session = \(session) AND sequence <= \(unescaped: row).head_sequence
      """
    }

    /// Writes a snapshot at `sequence` when `head` (a statement that gives the session's
    /// `head_sequence`, no row for an unknown session) holds it, keeping one already there;
    /// answers with the head.
    func write(
      _ session: SessionID, sequence: Int64, version: Int, state: String, stacks: String,
      recordedAt: String, head: SQLFragment
    ) -> PostgresQuery {
      """
      WITH s AS (
        \(head)
      ), inserted AS (
        INSERT INTO \(unescaped: tables.snapshots)
          (session, sequence, version, state, stacks, recorded_at)
        SELECT \(session.rawValue), \(sequence), \(Int32(clamping: version)), \(state),
          \(stacks), \(recordedAt)
        FROM s WHERE \(sequence) BETWEEN 0 AND s.head_sequence
        ON CONFLICT (session, sequence) DO NOTHING
        RETURNING 1
      )
      SELECT head_sequence FROM s
      """
    }

    /// The snapshot at `sequence` of `session`, as a check reads it: the columns of a
    /// `StoredSnapshotRow`, read by ``row(_:)``.
    func snapshot(_ session: SessionID, at sequence: Int64) -> PostgresQuery {
      """
      SELECT \(unescaped: Self.rowColumns) FROM \(unescaped: tables.snapshots)
      WHERE session = \(session.rawValue) AND sequence = \(sequence)
      """
    }

    /// The snapshots of `session` after `after` through `through`, as an export reads them: the
    /// columns of a `StoredSnapshotRow`, read by ``row(_:)``.
    func storedPage(_ session: SessionID, after: Int64, through: Int64) -> PostgresQuery {
      """
      SELECT \(unescaped: Self.rowColumns) FROM \(unescaped: tables.snapshots)
      WHERE session = \(session.rawValue) AND sequence > \(after) AND sequence <= \(through)
      ORDER BY sequence
      """
    }

    /// The columns a `StoredSnapshotRow` is read from, in the order ``row(_:)`` reads them.
    static let rowColumns = "sequence, version, state, stacks, recorded_at"

    /// A snapshot exactly as stored, from a statement that selects ``rowColumns``.
    static func row(_ row: PostgresRow) throws -> StoredSnapshotRow {
      let (sequence, version, state, stacks, recordedAt) = try row.decode(
        (Int64, Int32, String, String, String).self)
      return StoredSnapshotRow(
        sequence: sequence, version: Int(version), state: state, stacks: stacks,
        recordedAt: recordedAt)
    }

    /// The sequences of the snapshots of `session`, oldest first.
    func sequences(_ session: SessionID) -> PostgresQuery {
      """
      SELECT sequence FROM \(unescaped: tables.snapshots) WHERE session = \(session.rawValue)
      ORDER BY sequence
      """
    }

    /// Every session's snapshot sequences: session, sequence, in that order.
    var allSequences: PostgresQuery {
      "SELECT session, sequence FROM \(unescaped: tables.snapshots) ORDER BY session, sequence"
    }

    /// Inserts snapshots of an imported session: sequence, version, time, state, stacks.
    func insert(
      _ session: SessionID, _ snapshots: ArraySlice<(Int64, Int32, String, String, String)>
    ) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: tables.snapshots)
        (session, sequence, version, recorded_at, state, stacks)
      SELECT \(session.rawValue), * FROM unnest(\(snapshots.map(\.0))::bigint[],
        \(snapshots.map(\.1))::integer[], \(snapshots.map(\.2))::text[],
        \(snapshots.map(\.3))::text[], \(snapshots.map(\.4))::text[])
      """
    }

    /// Deletes the snapshots of `session` below `cut`.
    func delete(_ session: SessionID, below cut: Int64) -> PostgresQuery {
      """
      DELETE FROM \(unescaped: tables.snapshots)
      WHERE session = \(session.rawValue) AND sequence < \(cut)
      """
    }

    /// Deletes the snapshots of the sessions `match` selects (`= $n` or `= ANY($n)`).
    func delete(sessions match: SQLFragment) -> PostgresQuery {
      "DELETE FROM \(unescaped: tables.snapshots) WHERE session \(match)"
    }
  }
#endif
