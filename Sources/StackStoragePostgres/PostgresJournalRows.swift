#if PostgreSQL
  import Foundation
  import PostgresNIO
  import StackJournalCore

  /// The SQL of the `journal` table: a session's entries, appended through
  /// `append_entry_committed(…)`, read by page, by time and by filter; their sizes and versions;
  /// importing, compacting and deleting them.
  ///
  /// A part that takes `session` is a fragment naming the session: a bound identifier
  /// (`"\(id.rawValue)"`) or a column of the statement that includes it (`"s.id"`).
  struct PostgresJournalRows: Sendable {
    let tables: PostgresTables

    /// The bytes an entry counts for: its text's UTF-8 length and a fixed cost per row, as the
    /// SQLite journal counts them.
    private static let entryBytes =
      "octet_length(type) + octet_length(payload) + octet_length(delta) "
      + "+ coalesce(octet_length(draws), 0) + 40"

    /// `append_entry(…)`: one statement that checks the head and writes the entry with its draws
    /// (schema 5; `NULL` for none), its stack rows and its snapshot, called through the procedure `append_entry_committed(…)`, which
    /// commits and only then answers with the sequence. A statement's own answer comes before
    /// its transaction commits, and a backend stopped at that moment (an immediate shutdown, a
    /// terminated backend) still sends it: the append would look done and never be committed.
    func append(
      session: SessionID,
      expected: Int64,
      recordedAt: Date,
      type: String,
      version: Int,
      payload: String,
      delta: String,
      snapshot: (state: String, stacks: String)?,
      draws: String?
    ) -> PostgresQuery {
      """
      CALL \(unescaped: tables.appendEntryCommitted)(\(session.rawValue), \(expected),
        \(Timestamp.string(from: recordedAt)), \(type), \(Int32(clamping: version)), \(payload),
        \(delta), \(Self.noReorderedPaths), \(snapshot?.state), \(snapshot?.stacks), \(draws))
      """
    }

    /// What `append_entry_committed(…)` takes as `p_reordered`: the shipped signature has it, and
    /// `apply_stack_change` has not read it since schema version 3, which finds the elements that
    /// moved as ``StackChange/fit(_:)`` does. No path is named.
    private static let noReorderedPaths: [String] = []

    /// The entries of `session` after `cursor` through `last`, at most `limit`, in ascending
    /// order: sequence, time, type, version, payload, delta, draws.
    func page(of session: SQLFragment, after cursor: Int64, through last: Int64, limit: Int)
      -> SQLFragment
    {
      """
      SELECT sequence, recorded_at, type, version, payload, delta, draws
        FROM \(unescaped: tables.journal)
        WHERE session = \(session) AND sequence > \(cursor) AND sequence <= \(last)
        ORDER BY sequence LIMIT \(Int64(limit))
      """
    }

    /// The sequence of the entry of `session` recorded at or before `time` with the latest
    /// time, then the highest sequence; `NULL` when none is that early.
    func lastSequence(of session: SQLFragment, atOrBefore time: String) -> SQLFragment {
      """
      (SELECT sequence FROM \(unescaped: tables.journal)
          WHERE session = \(session) AND recorded_at <= \(time)
          ORDER BY recorded_at DESC, sequence DESC LIMIT 1)
      """
    }

    /// The rows `(1, NULL, sequence, delta)` of the entries of `session` after the sequence of
    /// the snapshot `snapshot` (the name of a relation with a `sequence` column) through
    /// `sequence`, for a `UNION ALL` with the snapshot's row.
    func deltas(of session: SQLFragment, after snapshot: String, through sequence: Int64)
      -> SQLFragment
    {
      """
      SELECT 1, NULL, j.sequence, j.delta
        FROM \(unescaped: tables.journal) j, \(unescaped: snapshot)
        WHERE j.session = \(session) AND j.sequence > \(unescaped: snapshot).sequence
          AND j.sequence <= \(sequence)
      """
    }

    /// Three columns: the number of entries of `session`, and the times of its first and last.
    func activityColumns(of session: SQLFragment) -> SQLFragment {
      """
      (SELECT count(*) FROM \(unescaped: tables.journal) j WHERE j.session = \(session)),
        (SELECT min(recorded_at) FROM \(unescaped: tables.journal) j WHERE j.session = \(session)),
        (SELECT max(recorded_at) FROM \(unescaped: tables.journal) j WHERE j.session = \(session))
      """
    }

    /// The sequence of the last entry of `session`; `NULL` when it has none.
    func lastSequence(of session: SQLFragment) -> SQLFragment {
      "(SELECT max(sequence) FROM \(unescaped: tables.journal) WHERE session = \(session))"
    }

    /// The time the entry at `sequence` of `session` was recorded; `NULL` when there is none.
    func recordedAt(of session: SQLFragment, sequence: Int64) -> SQLFragment {
      """
      (SELECT recorded_at FROM \(unescaped: tables.journal)
          WHERE session = \(session) AND sequence = \(sequence))
      """
    }

    /// The stored bytes of the entries of `session`.
    func bytes(of session: SQLFragment) -> SQLFragment {
      """
      coalesce((SELECT sum(\(unescaped: Self.entryBytes)) FROM \(unescaped: tables.journal)
          WHERE session = \(session)), 0)::bigint
      """
    }

    /// The highest payload version of any entry; `NULL` when there is none.
    var highestVersion: SQLFragment {
      "(SELECT max(version) FROM \(unescaped: tables.journal))"
    }

    /// The number and the lowest and highest payload versions (`count`, `low`, `high`) of the
    /// entries of `session` after `after` through `through`, as a relation.
    func versions(of session: SQLFragment, after: SQLFragment, through: SQLFragment)
      -> SQLFragment
    {
      """
      SELECT count(*) AS count, min(version) AS low, max(version) AS high
        FROM \(unescaped: tables.journal)
        WHERE session = \(session) AND sequence > \(after) AND sequence <= \(through)
      """
    }

    /// The entries of `session` after `after` through `through`, at most `limit`, as an export
    /// and a check read them: the columns of a ``JournalRow``, read by ``row(_:)``.
    func storedPage(_ session: SessionID, after: Int64, through: Int64, limit: Int)
      -> PostgresQuery
    {
      """
      SELECT \(unescaped: Self.rowColumns)
      FROM \(unescaped: tables.journal)
      WHERE session = \(session.rawValue) AND sequence > \(after) AND sequence <= \(through)
      ORDER BY sequence LIMIT \(Int64(limit))
      """
    }

    /// The columns a ``JournalRow`` is read from, in the order ``row(_:)`` reads them.
    static let rowColumns = "sequence, recorded_at, type, version, payload, delta, draws"

    /// A journal row exactly as stored, from a statement that selects ``rowColumns``.
    static func row(_ row: PostgresRow) throws -> JournalRow {
      let (sequence, recordedAt, type, version, payload, delta, draws) = try row.decode(
        (Int64, String, String, Int32, String, String, String?).self)
      return JournalRow(
        sequence: sequence, recordedAt: recordedAt, type: type, version: Int(version),
        payload: payload, delta: delta, draws: draws)
    }

    /// Inserts entries of an imported session: sequence, time, type, version, payload, delta,
    /// draws (`nil` for none, sent as an empty text, which no draws' JSON is).
    func insert(
      _ session: SessionID,
      _ entries: ArraySlice<(Int64, String, String, Int32, String, String, String?)>
    ) -> PostgresQuery {
      """
      INSERT INTO \(unescaped: tables.journal)
        (session, sequence, recorded_at, type, version, payload, delta, draws)
      SELECT \(session.rawValue), u.s, u.r, u.t, u.v, u.p, u.d, nullif(u.w, '')
      FROM unnest(\(entries.map(\.0))::bigint[],
        \(entries.map(\.1))::text[], \(entries.map(\.2))::text[],
        \(entries.map(\.3))::integer[], \(entries.map(\.4))::text[], \(entries.map(\.5))::text[],
        \(entries.map { $0.6 ?? "" })::text[]) AS u(s, r, t, v, p, d, w)
      """
    }

    /// What compacting `session` at `cut` drops: the number of entries at or below `cut`, their
    /// lowest and highest sequences, their bytes, and the bytes of the snapshots below `cut`.
    func compactionMeasure(_ session: SessionID, cut: Int64) -> PostgresQuery {
      let snapshots = PostgresSnapshotRows(tables: tables)
      return """
        SELECT count(*), min(sequence), max(sequence),
          coalesce(sum(\(unescaped: Self.entryBytes)), 0)::bigint,
          \(snapshots.bytes(of: "\(session.rawValue)", below: cut))
        FROM \(unescaped: tables.journal) WHERE session = \(session.rawValue) AND sequence <= \(cut)
        """
    }

    /// Deletes the entries of `session` at or below `cut`.
    func delete(_ session: SessionID, atOrBelow cut: Int64) -> PostgresQuery {
      """
      DELETE FROM \(unescaped: tables.journal)
      WHERE session = \(session.rawValue) AND sequence <= \(cut)
      """
    }

    /// Deletes the entries of the sessions `match` selects (`= $n` or `= ANY($n)`).
    func delete(sessions match: SQLFragment) -> PostgresQuery {
      "DELETE FROM \(unescaped: tables.journal) WHERE session \(match)"
    }

    /// The times of the first and last entries of `session`, or of every session when `nil`.
    func timeSpan(of session: String?) -> PostgresQuery {
      """
      SELECT min(recorded_at), max(recorded_at) FROM \(unescaped: tables.journal)
      WHERE \(session)::text IS NULL OR session = \(session)
      """
    }

    /// The number of entries of `session` (every session's when `nil`) per interval of
    /// `seconds`, by the interval's number since 1970, oldest first. Times are stored as
    /// `2025-01-31T09:30:00.000Z`; one that is not is left out.
    func entriesPerInterval(of session: String?, seconds: Int64) -> PostgresQuery {
      """
      SELECT floor(extract(epoch FROM (substr(recorded_at, 1, 19) || 'Z')::timestamptz)
          / \(seconds))::bigint AS bucket, count(*)
      FROM \(unescaped: tables.journal)
      WHERE (\(session)::text IS NULL OR session = \(session))
        AND recorded_at ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}'
      GROUP BY bucket ORDER BY bucket
      """
    }

    /// The condition on a session's entries that `query` asks for (its sequences, times and
    /// type pattern), without its count and order.
    func filter(session: SessionID, matching query: JournalQuery) throws -> JournalFilter {
      var filter = JournalFilter(session: session)
      if let from = query.fromSequence { filter.add("sequence >= \(from)") }
      if let to = query.toSequence { filter.add("sequence <= \(to)") }
      if let since = query.since {
        let time = try Timestamp.stored(since, "The start of the times asked")
        filter.add("recorded_at >= \(time)")
      }
      if let until = query.until {
        let time = try Timestamp.stored(until, "The end of the times asked")
        filter.add("recorded_at <= \(time)")
      }
      if let glob = query.typeGlob {
        filter.add("type ~ \(PostgresJournal.regularExpression(glob: glob))")
      }
      return filter
    }

    /// The sequence of the `offset`-th newest entry (0 is the newest) that `filter` matches;
    /// `NULL` when there are fewer.
    func newest(_ filter: JournalFilter, offset: Int64) -> SQLFragment {
      """
      (SELECT sequence FROM \(unescaped: tables.journal) WHERE \(filter.condition)
        ORDER BY sequence DESC LIMIT 1 OFFSET \(offset))
      """
    }

    /// A page of the entries `filter` matches, at most `limit`, in sequence order (newest first
    /// unless `ascending`): from `start` on, or past `cursor` in that order once a page was
    /// read. The columns of a ``JournalRow``, read by ``row(_:)``.
    func inspectionPage(
      _ filter: JournalFilter, from start: Int64?, after cursor: Int64?, ascending: Bool,
      limit: Int
    ) -> PostgresQuery {
      var page = filter
      if ascending, let start, cursor == nil { page.add("sequence >= \(start)") }
      if let cursor { page.add(ascending ? "sequence > \(cursor)" : "sequence < \(cursor)") }
      let order = ascending ? "ASC" : "DESC"
      return """
        SELECT \(unescaped: Self.rowColumns) \
        FROM \(unescaped: tables.journal) WHERE \(page.condition) \
        ORDER BY sequence \(unescaped: order) LIMIT \(Int64(limit))
        """
    }
  }

  /// The condition of a journal query on one session's entries, with its values.
  struct JournalFilter: Sendable {
    private(set) var condition: SQLFragment

    init(session: SessionID) {
      condition = "session = \(session.rawValue)"
    }

    /// Adds `AND <condition>`.
    mutating func add(_ more: SQLFragment) {
      condition = "\(condition) AND \(more)"
    }
  }
#endif
