import GRDB

/// The SQL of the `journal` table: a session's entries, read by page, by time, by range; their
/// sizes; writing and deleting them. Each function runs inside the caller's transaction.
///
/// Each row keeps `latest_at`: the latest `recorded_at` of the entry and of every earlier entry
/// of its session (schema 3). It never goes down along the sequence, so the entries whose
/// `latest_at` is at or before a time are a prefix of the session, found by a binary search on
/// the primary key. An entry recorded earlier than an earlier one (the recording machine's clock
/// went back) has `recorded_at < latest_at` and is in the partial index `journal_recorded_late`;
/// an append whose clock did not go back never writes that index.
enum JournalRows {
  /// The sequence of the last entry of session `s.id`, for a query on `sessions s`; `NULL` when
  /// it has none.
  static let lastSequenceColumn =
    "(SELECT max(j.sequence) FROM journal j WHERE j.session = s.id)"

  /// The number of entries of session `s.id`, for a query on `sessions s`.
  static let countColumn = "(SELECT count(*) FROM journal j WHERE j.session = s.id)"

  /// The `latest_at` of the last entry of session `s.id`, for a query on `sessions s`; `NULL`
  /// when it has none.
  static let lastLatestAtColumn = """
    (SELECT j.latest_at FROM journal j WHERE j.session = s.id ORDER BY j.sequence DESC LIMIT 1)
    """

  /// The times of a session's first and last activity for `sessions s`, without scanning its
  /// entries: the last is the last entry's `latest_at`; the first is the first entry's time
  /// unless a late entry is earlier still.
  static let activityColumns = """
    (SELECT min(t) FROM (
      SELECT recorded_at AS t FROM (
        SELECT recorded_at FROM journal j WHERE j.session = s.id ORDER BY j.sequence LIMIT 1)
      UNION ALL
      SELECT min(recorded_at) FROM journal j INDEXED BY journal_recorded_late
        WHERE j.session = s.id AND j.recorded_at < j.latest_at)) AS first_activity,
    \(lastLatestAtColumn) AS last_activity
    """

  /// The entries after `after` through `through`, at most `limit`, in ascending order.
  static func page(
    _ db: Database, session: SessionID, after: Int64, through: Int64, limit: Int
  ) throws -> [EntryRecord] {
    try EntryRecord.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(EntryRecord.columns) FROM journal "
          + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?"),
      arguments: [session.rawValue, after, through, limit])
  }

  /// Every entry of the session, in ascending order.
  static func all(_ db: Database, session: SessionID) throws -> RecordCursor<EntryRecord> {
    try EntryRecord.fetchCursor(
      db, sql: "SELECT \(EntryRecord.columns) FROM journal WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
  }

  /// The deltas of the entries after `after` through `through`, in ascending order.
  static func deltas(
    _ db: Database, session: SessionID, after: Int64, through: Int64
  ) throws -> RecordCursor<DeltaRecord> {
    try DeltaRecord.fetchCursor(
      db.cachedStatement(
        sql: "SELECT sequence, delta FROM journal WHERE session = ? AND sequence > ? "
          + "AND sequence <= ? ORDER BY sequence"),
      arguments: [session.rawValue, after, through])
  }

  /// The sequence of the session's last entry, or `nil` when it has none.
  static func lastSequence(_ db: Database, session: SessionID) throws -> Int64? {
    try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT max(sequence) FROM journal WHERE session = ?"),
      arguments: [session.rawValue])
  }

  /// The time the entry at `sequence` was recorded, as stored, or `nil` when there is none.
  static func recordedAt(_ db: Database, session: SessionID, sequence: Int64) throws -> String? {
    try String.fetchOne(
      db, sql: "SELECT recorded_at FROM journal WHERE session = ? AND sequence = ?",
      arguments: [session.rawValue, sequence])
  }

  /// The entry recorded at or before `time` with the latest time, then the highest sequence;
  /// `nil` when no entry kept is that early.
  static func lastEntry(_ db: Database, session: SessionID, atOrBefore time: String) throws
    -> Int64?
  {
    // Every entry up to the prefix's end was recorded at or before `time`; the latest of them
    // is the last one whose clock did not go back (the late ones are found below).
    let best = try lastOfPrefix(db, session: session, atOrBefore: time).flatMap { prefixEnd in
      try EntryTimeRecord.fetchOne(
        db.cachedStatement(
          sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE session = ? "
            + "AND sequence <= ? AND recorded_at = latest_at ORDER BY sequence DESC LIMIT 1"),
        arguments: [session.rawValue, prefixEnd])
    }
    // Entries recorded earlier than an earlier one, wherever they are: the partial index.
    let late = try EntryTimeRecord.fetchOne(
      db.cachedStatement(
        sql: "SELECT \(EntryTimeRecord.columns) FROM journal INDEXED BY journal_recorded_late "
          + "WHERE session = ? AND recorded_at < latest_at AND recorded_at <= ? "
          + "ORDER BY recorded_at DESC, sequence DESC LIMIT 1"),
      arguments: [session.rawValue, time])
    guard let late else { return best?.sequence }
    guard let best, (late.recordedAt, late.sequence) < (best.recordedAt, best.sequence) else {
      return late.sequence
    }
    return best.sequence
  }

  /// The highest sequence whose `latest_at` is at or before `time`, by binary search on the
  /// primary key (sequences may have gaps); `nil` when the first entry kept is later.
  private static func lastOfPrefix(_ db: Database, session: SessionID, atOrBefore time: String)
    throws -> Int64?
  {
    let bounds = try SequenceBounds.fetchOne(
      db.cachedStatement(
        sql: "SELECT min(sequence) AS first, max(sequence) AS last FROM journal "
          + "WHERE session = ?"),
      arguments: [session.rawValue])
    guard let bounds, var low = bounds.first, var high = bounds.last else { return nil }
    let probe = try db.cachedStatement(
      sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE session = ? AND sequence >= ? "
        + "ORDER BY sequence LIMIT 1")
    var found: Int64?
    while low <= high {
      let middle = low + (high - low) / 2
      let arguments: StatementArguments = [session.rawValue, middle]
      guard let entry = try EntryTimeRecord.fetchOne(probe, arguments: arguments),
        entry.sequence <= high
      else {
        high = middle - 1
        continue
      }
      if entry.latestAt <= time {
        found = entry.sequence
        // Nothing above the last sequence (which may be Int64.max in a file edited by hand).
        guard entry.sequence < high else { break }
        low = entry.sequence + 1
      } else {
        high = middle - 1
      }
    }
    return found
  }

  /// The conditions of a ``JournalQuery`` on a session's entries (all but the count it asks).
  struct Filter {
    var sql: String
    var arguments: [any DatabaseValueConvertible]

    init(session: SessionID, _ query: JournalQuery) {
      var conditions = ["session = ?"]
      var arguments: [any DatabaseValueConvertible] = [session.rawValue]
      func add(_ condition: String, _ value: (any DatabaseValueConvertible)?) {
        guard let value else { return }
        conditions.append(condition)
        arguments.append(value)
      }
      add("sequence >= ?", query.fromSequence)
      add("sequence <= ?", query.toSequence)
      add("recorded_at >= ?", query.since.map { Timestamp.string(from: $0) })
      add("recorded_at <= ?", query.until.map { Timestamp.string(from: $0) })
      add("type GLOB ?", query.typeGlob)
      self.sql = conditions.joined(separator: " AND ")
      self.arguments = arguments
    }
  }

  /// The sequence of the entry `offset` places below the newest one that matches `filter`.
  static func sequence(_ db: Database, _ filter: Filter, newestOffset offset: Int) throws
    -> Int64?
  {
    try Int64.fetchOne(
      db,
      sql: "SELECT sequence FROM journal WHERE \(filter.sql) ORDER BY sequence DESC "
        + "LIMIT 1 OFFSET ?",
      arguments: StatementArguments(filter.arguments + [offset]))
  }

  /// At most `limit` entries that match `filter`, in ascending order from `start` and after
  /// `cursor`, or in descending order below `cursor`.
  static func page(
    _ db: Database, _ filter: Filter, ascending: Bool, from start: Int64?, after cursor: Int64?,
    limit: Int
  ) throws -> [EntryRecord] {
    var conditions = filter.sql
    var arguments = filter.arguments
    if let start {
      conditions += " AND sequence >= ?"
      arguments.append(start)
    }
    if let cursor {
      conditions += ascending ? " AND sequence > ?" : " AND sequence < ?"
      arguments.append(cursor)
    }
    arguments.append(limit)
    return try EntryRecord.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(EntryRecord.columns) FROM journal "
          + "WHERE \(conditions) ORDER BY sequence \(ascending ? "ASC" : "DESC") LIMIT ?"),
      arguments: StatementArguments(arguments))
  }

  /// The first sequence, count and payload versions of the entries after `after` through
  /// `through`.
  static func versionSpan(
    _ db: Database, session: SessionID, after: Int64, through: Int64
  ) throws -> VersionSpan? {
    try VersionSpan.fetchOne(
      db,
      sql: "SELECT min(sequence) AS first, count(*) AS count, min(version) AS low, "
        + "max(version) AS high FROM journal WHERE session = ? AND sequence > ? AND sequence <= ?",
      arguments: [session.rawValue, after, through])
  }

  /// The highest payload version of any entry, or `nil` when there is none.
  static func maxVersion(_ db: Database) throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT max(version) FROM journal")
  }

  /// The count, sequences and stored bytes of the session's entries at or below `sequence`.
  static func span(_ db: Database, session: SessionID, through sequence: Int64) throws
    -> EntrySpan?
  {
    try EntrySpan.fetchOne(
      db,
      sql: "SELECT count(*) AS count, min(sequence) AS first, max(sequence) AS last, "
        + "coalesce(sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + 40), 0) AS bytes FROM journal "
        + "WHERE session = ? AND sequence <= ?",
      arguments: [session.rawValue, sequence])
  }

  /// The stored bytes and entry count of every session that has entries.
  static func sizes(_ db: Database) throws -> RecordCursor<SessionBytes> {
    try SessionBytes.fetchCursor(
      db,
      sql: "SELECT session, sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + 40) AS bytes, count(*) AS rows FROM journal "
        + "GROUP BY session")
  }

  /// The first and last times of the entries (one session's when given).
  static func timeSpan(_ db: Database, session: SessionID?) throws -> TimeSpan? {
    try TimeSpan.fetchOne(
      db,
      sql: "SELECT min(recorded_at) AS first, max(recorded_at) AS last FROM journal "
        + "\(session == nil ? "" : "WHERE session = ?")",
      arguments: session.map { [$0.rawValue] } ?? [])
  }

  /// How many entries (one session's when given) were recorded in each interval of `seconds`,
  /// numbered from the epoch, oldest first.
  static func activity(_ db: Database, session: SessionID?, seconds: Int) throws
    -> [ActivityBucket]
  {
    try ActivityBucket.fetchAll(
      db,
      sql: "SELECT CAST(strftime('%s', substr(recorded_at, 1, 19)) AS INTEGER) / \(seconds) "
        + "AS bucket, count(*) AS entries FROM journal "
        + "\(session == nil ? "" : "WHERE session = ? ")GROUP BY bucket ORDER BY bucket",
      arguments: session.map { [$0.rawValue] } ?? [])
  }

  /// Deletes the session's entries at or below `sequence`.
  static func delete(_ db: Database, session: SessionID, through sequence: Int64) throws {
    try db.execute(
      sql: "DELETE FROM journal WHERE session = ? AND sequence <= ?",
      arguments: [session.rawValue, sequence])
  }

  /// Deletes every entry of the session.
  static func deleteAll(_ db: Database, session: SessionID) throws {
    try db.execute(sql: "DELETE FROM journal WHERE session = ?", arguments: [session.rawValue])
  }

  /// Inserts one journal row.
  static func insert(
    _ db: Database, session: String, sequence: Int64, recordedAt: String, latestAt: String,
    type: String, version: Int, payload: String, delta: String
  ) throws {
    try db.run(
      "INSERT INTO journal (session, sequence, recorded_at, latest_at, type, version, payload, "
        + "delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      .text(session), .integer(sequence), .text(recordedAt), .text(latestAt), .text(type),
      .integer(Int64(version)), .text(payload), .text(delta))
  }
}
