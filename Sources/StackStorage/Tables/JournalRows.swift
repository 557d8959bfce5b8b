import GRDB

/// The SQL of the `journal` table: a session's entries, read by page, by time, by range; their
/// sizes; writing and deleting them. Each function runs inside the caller's transaction.
///
/// Every row is keyed by one integer (schema 4): `key = number * 2³² + sequence`, where `number`
/// is the session's ``SessionKeys/number`` (`sessions.number`). A session's entries are the keys
/// ``SessionKeys/base`` + 1 … ``SessionKeys/base`` + ``SessionKeys/maximumSequence``, contiguous
/// and in sequence order, so every query on a session's entries is a range of keys, and an
/// append inserts at the end of its session's range. The columns `session_number` and
/// `sequence` are computed from the key; queries read `sequence` but never filter on it.
///
/// Each row keeps `latest_at`: the latest `recorded_at` of the entry and of every earlier entry
/// of its session (schema 3). It never goes down along the sequence, so the entries whose
/// `latest_at` is at or before a time are a prefix of the session, found by a binary search on
/// the key. An entry recorded earlier than an earlier one (the recording machine's clock went
/// back) has `recorded_at < latest_at` and is in the partial index `journal_recorded_late`; an
/// append whose clock did not go back never writes that index.
enum JournalRows {
  /// The keys of session `s` for a query on `sessions s`, as a condition on `journal j`.
  static let sessionRange =
    "j.key BETWEEN s.number * 4294967296 AND s.number * 4294967296 + 4294967295"

  /// The sequence of the last entry of session `s.id`, for a query on `sessions s`; `NULL` when
  /// it has none.
  static let lastSequenceColumn =
    "(SELECT j.sequence FROM journal j WHERE \(sessionRange) ORDER BY j.key DESC LIMIT 1)"

  /// The number of entries of session `s.id`, for a query on `sessions s`.
  static let countColumn = "(SELECT count(*) FROM journal j WHERE \(sessionRange))"

  /// The `latest_at` of the last entry of session `s.id`, for a query on `sessions s`; `NULL`
  /// when it has none.
  static let lastLatestAtColumn =
    "(SELECT j.latest_at FROM journal j WHERE \(sessionRange) ORDER BY j.key DESC LIMIT 1)"

  /// The times of a session's first and last activity for `sessions s`, without scanning its
  /// entries: the last is the last entry's `latest_at`; the first is the first entry's time
  /// unless a late entry is earlier still.
  static let activityColumns = """
    (SELECT min(t) FROM (
      SELECT recorded_at AS t FROM (
        SELECT recorded_at FROM journal j WHERE \(sessionRange) ORDER BY j.key LIMIT 1)
      UNION ALL
      SELECT min(recorded_at) FROM journal j INDEXED BY journal_recorded_late
        WHERE j.session_number = s.number AND j.recorded_at < j.latest_at)) AS first_activity,
    \(lastLatestAtColumn) AS last_activity
    """

  /// The keys of the session `session`: its number, or 0 for a session the file does not hold,
  /// whose range holds no key (keys start at 2³²).
  static func keys(_ db: Database, session: SessionID) throws -> SessionKeys {
    let number = try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT number FROM sessions WHERE id = ?"),
      arguments: [session.rawValue])
    return SessionKeys(number: number ?? 0)
  }

  /// The entries after `after` through `through`, at most `limit`, in ascending order.
  static func page(
    _ db: Database, session: SessionID, after: Int64, through: Int64, limit: Int
  ) throws -> [JournalRow] {
    let range = try keys(db, session: session).range(after: after, through: through)
    return try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(entryColumns) FROM journal "
          + "WHERE key BETWEEN ? AND ? ORDER BY key LIMIT ?"),
      arguments: [range.low, range.high, limit]
    ).map(JournalRow.init)
  }

  /// Every entry of the session, in ascending order.
  static func all(_ db: Database, session: SessionID) throws
    -> MapCursor<RowCursor, JournalRow>
  {
    let range = try keys(db, session: session).all
    return try Row.fetchCursor(
      db,
      sql: "SELECT \(entryColumns) FROM journal WHERE key BETWEEN ? AND ? ORDER BY key",
      arguments: [range.low, range.high]
    ).map(JournalRow.init)
  }

  /// The deltas of the entries after `after` through `through`, in ascending order.
  static func deltas(
    _ db: Database, session: SessionID, after: Int64, through: Int64
  ) throws -> RecordCursor<DeltaRecord> {
    let range = try keys(db, session: session).range(after: after, through: through)
    return try DeltaRecord.fetchCursor(
      db.cachedStatement(
        sql: "SELECT sequence, delta FROM journal WHERE key BETWEEN ? AND ? ORDER BY key"),
      arguments: [range.low, range.high])
  }

  /// The sequence of the session's last entry, or `nil` when it has none.
  static func lastSequence(_ db: Database, session: SessionID) throws -> Int64? {
    let range = try keys(db, session: session).all
    return try Int64.fetchOne(
      db.cachedStatement(
        sql: "SELECT sequence FROM journal WHERE key BETWEEN ? AND ? ORDER BY key DESC LIMIT 1"),
      arguments: [range.low, range.high])
  }

  /// The time the entry at `sequence` was recorded, as stored, or `nil` when there is none.
  static func recordedAt(_ db: Database, session: SessionID, sequence: Int64) throws -> String? {
    let range = try keys(db, session: session).range(from: sequence, through: sequence)
    return try String.fetchOne(
      db, sql: "SELECT recorded_at FROM journal WHERE key BETWEEN ? AND ?",
      arguments: [range.low, range.high])
  }

  /// The entry recorded at or before `time` with the latest time, then the highest sequence;
  /// `nil` when no entry kept is that early.
  static func lastEntry(_ db: Database, session: SessionID, atOrBefore time: String) throws
    -> Int64?
  {
    let keys = try keys(db, session: session)
    // Every entry up to the prefix's end was recorded at or before `time`; the latest of them
    // is the last one whose clock did not go back (the late ones are found below).
    let best = try lastOfPrefix(db, keys, atOrBefore: time).flatMap { prefixEnd in
      let range = keys.range(after: 0, through: prefixEnd)
      return try EntryTimeRecord.fetchOne(
        db.cachedStatement(
          sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE key BETWEEN ? AND ? "
            + "AND recorded_at = latest_at ORDER BY key DESC LIMIT 1"),
        arguments: [range.low, range.high])
    }
    // Entries recorded earlier than an earlier one, wherever they are: the partial index.
    let late = try EntryTimeRecord.fetchOne(
      db.cachedStatement(
        sql: "SELECT \(EntryTimeRecord.columns) FROM journal INDEXED BY journal_recorded_late "
          + "WHERE session_number = ? AND recorded_at < latest_at AND recorded_at <= ? "
          + "ORDER BY recorded_at DESC, key DESC LIMIT 1"),
      arguments: [keys.number, time])
    guard let late else { return best?.sequence }
    guard let best, (late.recordedAt, late.sequence) < (best.recordedAt, best.sequence) else {
      return late.sequence
    }
    return best.sequence
  }

  /// The highest sequence whose `latest_at` is at or before `time`, by binary search on the
  /// key (sequences may have gaps); `nil` when the first entry kept is later.
  private static func lastOfPrefix(_ db: Database, _ keys: SessionKeys, atOrBefore time: String)
    throws -> Int64?
  {
    let all = keys.all
    let bounds = try SequenceBounds.fetchOne(
      db.cachedStatement(
        sql: "SELECT (SELECT sequence FROM journal WHERE key BETWEEN ?1 AND ?2 ORDER BY key "
          + "LIMIT 1) AS first, (SELECT sequence FROM journal WHERE key BETWEEN ?1 AND ?2 "
          + "ORDER BY key DESC LIMIT 1) AS last"),
      arguments: [all.low, all.high])
    guard let bounds, var low = bounds.first, var high = bounds.last else { return nil }
    let probe = try db.cachedStatement(
      sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE key BETWEEN ? AND ? "
        + "ORDER BY key LIMIT 1")
    var found: Int64?
    while low <= high {
      let middle = low + (high - low) / 2
      let range = keys.range(after: middle - 1, through: high)
      guard let entry = try EntryTimeRecord.fetchOne(probe, arguments: [range.low, range.high])
      else {
        high = middle - 1
        continue
      }
      if entry.latestAt <= time {
        found = entry.sequence
        guard entry.sequence < high else { break }
        low = entry.sequence + 1
      } else {
        high = middle - 1
      }
    }
    return found
  }

  /// The conditions of a ``JournalQuery`` on a session's entries (all but the count it asks):
  /// its sequences as a range of keys, found in each transaction from the session's number,
  /// and its other conditions.
  struct Filter {
    var session: SessionID
    /// The lowest and highest sequence asked.
    var low: Int64
    var high: Int64
    /// The conditions other than the sequences, each starting with " AND ".
    var sql: String
    var arguments: [any DatabaseValueConvertible]

    /// Throws ``StorageError/Code/timeOutOfRange`` for a time the stored form does not hold.
    init(session: SessionID, _ query: JournalQuery, path: String?) throws {
      self.session = session
      low = query.fromSequence ?? 1
      high = query.toSequence ?? SessionKeys.maximumSequence
      var sql = ""
      var arguments: [any DatabaseValueConvertible] = []
      func add(_ condition: String, _ value: (any DatabaseValueConvertible)?) {
        guard let value else { return }
        sql += " AND " + condition
        arguments.append(value)
      }
      let since = try query.since.map {
        try Timestamp.stored($0, "The start of the times asked", path: path)
      }
      let until = try query.until.map {
        try Timestamp.stored($0, "The end of the times asked", path: path)
      }
      add("recorded_at >= ?", since)
      add("recorded_at <= ?", until)
      add("type GLOB ?", query.typeGlob)
      self.sql = sql
      self.arguments = arguments
    }

    /// The condition and its arguments, for the sequences `low` through `high` of those asked.
    func condition(_ db: Database, low: Int64? = nil, high: Int64? = nil) throws
      -> (sql: String, arguments: [any DatabaseValueConvertible])
    {
      let range = try keys(db, session: session).range(
        from: Swift.max(self.low, low ?? self.low), through: Swift.min(self.high, high ?? self.high))
      return ("key BETWEEN ? AND ?" + sql, [range.low, range.high] + arguments)
    }
  }

  /// The sequence of the entry `offset` places below the newest one that matches `filter`.
  static func sequence(_ db: Database, _ filter: Filter, newestOffset offset: Int) throws
    -> Int64?
  {
    let (conditions, arguments) = try filter.condition(db)
    return try Int64.fetchOne(
      db,
      sql: "SELECT sequence FROM journal WHERE \(conditions) ORDER BY key DESC "
        + "LIMIT 1 OFFSET ?",
      arguments: StatementArguments(arguments + [offset]))
  }

  /// At most `limit` entries that match `filter`, in ascending order from `start` and after
  /// `cursor`, or in descending order below `cursor`.
  static func page(
    _ db: Database, _ filter: Filter, ascending: Bool, from start: Int64?, after cursor: Int64?,
    limit: Int
  ) throws -> [JournalRow] {
    var low = start
    var high: Int64?
    if let cursor {
      if ascending {
        // Nothing is above the largest sequence; `cursor + 1` could overflow.
        guard cursor < SessionKeys.maximumSequence else { return [] }
        low = Swift.max(low ?? cursor + 1, cursor + 1)
      } else {
        guard cursor > 1 else { return [] }
        high = cursor - 1
      }
    }
    let (conditions, arguments) = try filter.condition(db, low: low, high: high)
    return try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(entryColumns) FROM journal "
          + "WHERE \(conditions) ORDER BY key \(ascending ? "ASC" : "DESC") LIMIT ?"),
      arguments: StatementArguments(arguments + [limit])
    ).map(JournalRow.init)
  }

  /// The first sequence, count and payload versions of the entries after `after` through
  /// `through`.
  static func versionSpan(
    _ db: Database, session: SessionID, after: Int64, through: Int64
  ) throws -> VersionSpan? {
    let range = try keys(db, session: session).range(after: after, through: through)
    return try VersionSpan.fetchOne(
      db,
      sql: "SELECT min(sequence) AS first, count(*) AS count, min(version) AS low, "
        + "max(version) AS high FROM journal WHERE key BETWEEN ? AND ?",
      arguments: [range.low, range.high])
  }

  /// How many entries have a session number no session has, and the smallest such number; nil
  /// when there are none. A scan of the journal, for `verify`: the number is not a foreign key.
  static func entriesOfNoSession(_ db: Database) throws -> (count: Int, firstNumber: Int64)? {
    let row = try Row.fetchOne(
      db,
      sql: "SELECT count(*) AS count, min(session_number) AS first FROM journal "
        + "WHERE session_number NOT IN (SELECT number FROM sessions)")
    guard let row, let count: Int = row["count"], count > 0, let first: Int64 = row["first"]
    else { return nil }
    return (count, first)
  }

  /// The highest payload version of any entry, or `nil` when there is none.
  static func maxVersion(_ db: Database) throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT max(version) FROM journal")
  }

  /// The count, sequences and stored bytes of the session's entries at or below `sequence`.
  static func span(_ db: Database, session: SessionID, through sequence: Int64) throws
    -> EntrySpan?
  {
    let range = try keys(db, session: session).range(after: 0, through: sequence)
    return try EntrySpan.fetchOne(
      db,
      sql: "SELECT count(*) AS count, min(sequence) AS first, max(sequence) AS last, "
        + "coalesce(sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + coalesce(length(CAST(draws AS BLOB)), 0) + 40), 0) "
        + "AS bytes FROM journal "
        + "WHERE key BETWEEN ? AND ?",
      arguments: [range.low, range.high])
  }

  /// The stored bytes and entry count of every session that has entries.
  static func sizes(_ db: Database) throws -> RecordCursor<SessionBytes> {
    try SessionBytes.fetchCursor(
      db,
      sql: "SELECT s.id AS session, sum(length(CAST(j.type AS BLOB)) "
        + "+ length(CAST(j.payload AS BLOB)) + length(CAST(j.delta AS BLOB)) "
        + "+ coalesce(length(CAST(j.draws AS BLOB)), 0) + 40) AS bytes, "
        + "count(*) AS rows FROM sessions s JOIN journal j ON \(sessionRange) GROUP BY s.id")
  }

  /// The first and last times of the entries (one session's when given).
  static func timeSpan(_ db: Database, session: SessionID?) throws -> TimeSpan? {
    let range = try session.map { try keys(db, session: $0).all }
    return try TimeSpan.fetchOne(
      db,
      sql: "SELECT min(recorded_at) AS first, max(recorded_at) AS last FROM journal "
        + "\(range == nil ? "" : "WHERE key BETWEEN ? AND ?")",
      arguments: range.map { [$0.low, $0.high] } ?? [])
  }

  /// How many entries (one session's when given) were recorded in each interval of `seconds`,
  /// numbered from the epoch, oldest first.
  static func activity(_ db: Database, session: SessionID?, seconds: Int) throws
    -> [ActivityBucket]
  {
    let range = try session.map { try keys(db, session: $0).all }
    return try ActivityBucket.fetchAll(
      db,
      sql: "SELECT CAST(strftime('%s', substr(recorded_at, 1, 19)) AS INTEGER) / \(seconds) "
        + "AS bucket, count(*) AS entries FROM journal "
        + "\(range == nil ? "" : "WHERE key BETWEEN ? AND ? ")GROUP BY bucket ORDER BY bucket",
      arguments: range.map { [$0.low, $0.high] } ?? [])
  }

  /// Deletes the session's entries at or below `sequence`.
  static func delete(_ db: Database, session: SessionID, through sequence: Int64) throws {
    let range = try keys(db, session: session).range(after: 0, through: sequence)
    try db.execute(
      sql: "DELETE FROM journal WHERE key BETWEEN ? AND ?", arguments: [range.low, range.high])
  }

  /// Deletes every entry of the session.
  static func deleteAll(_ db: Database, session: SessionID) throws {
    let range = try keys(db, session: session).all
    try db.execute(
      sql: "DELETE FROM journal WHERE key BETWEEN ? AND ?", arguments: [range.low, range.high])
  }

  /// Inserts one journal row of the session `session`, numbered `number`, with the JSON text of
  /// what its reducer drew (`nil` for nothing, stored as `NULL`); a
  /// ``StorageError/Code/sequenceOutOfRange`` error, writing nothing, for a sequence outside
  /// 1 … ``SessionKeys/maximumSequence``, which has no key in the session's range. An append
  /// passes its journal's `statements`.
  static func insert(
    _ db: Database, session: String, number: Int64, sequence: Int64, recordedAt: String,
    latestAt: String, type: String, version: Int, payload: String, delta: String,
    draws: String?, path: String?, statements: AppendStatements? = nil
  ) throws {
    guard (1...SessionKeys.maximumSequence).contains(sequence) else {
      throw StorageError(
        code: .sequenceOutOfRange,
        message: "Session \(StorageError.printable(session)) cannot hold an entry at sequence "
          + "\(sequence): a journal file holds sequences 1 through "
          + "\(SessionKeys.maximumSequence) in a session. Nothing was written; record further "
          + "actions in a new session.",
        path: path)
    }
    try db.run(
      "INSERT INTO journal (key, recorded_at, latest_at, type, version, payload, delta, draws) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", .insertEntry, in: statements,
      .integer(SessionKeys(number: number).key(sequence)), .text(recordedAt), .text(latestAt),
      .text(type), .integer(Int64(version)), .text(payload), .text(delta), .textOrNull(draws))
  }
}

/// The keys of one session's journal entries: `number * 2³² + sequence` for the sequences 1 …
/// ``maximumSequence`` (see ``JournalRows``).
struct SessionKeys {
  /// The greatest sequence a key holds: 2³² − 1.
  static let maximumSequence: Int64 = 4_294_967_295
  /// The greatest session number whose keys fit in an Int64: 2³¹ − 1.
  static let maximumNumber: Int64 = 2_147_483_647

  /// The session's `sessions.number`; 0 (a range without keys) for none.
  var number: Int64

  /// The key of sequence 0, which no entry has.
  var base: Int64 { number << 32 }

  /// The key of `sequence`, which is in 1 … ``maximumSequence``.
  func key(_ sequence: Int64) -> Int64 { base + sequence }

  /// The first and last key of the sequences `from` through `through`, clamped to the
  /// session's range; `low > high` when none is in it.
  func range(from: Int64, through: Int64) -> (low: Int64, high: Int64) {
    let low = Swift.min(Swift.max(from, 1), Self.maximumSequence + 1)
    let high = Swift.max(Swift.min(through, Self.maximumSequence), 0)
    return (base + low, base + high)
  }

  /// ``range(from:through:)`` for the sequences after `after` through `through`.
  func range(after: Int64, through: Int64) -> (low: Int64, high: Int64) {
    range(
      from: after < Self.maximumSequence ? Swift.max(after, 0) + 1 : Self.maximumSequence + 1,
      through: through)
  }

  /// Every key of the session.
  var all: (low: Int64, high: Int64) { range(from: 1, through: Self.maximumSequence) }
}

// MARK: - Records

extension JournalRow {
  /// A row of the `journal` table exactly as stored, read by column name: times as text, payload,
  /// delta and draws (schema 6; `NULL` for none) as JSON text, `latest_at` as ``JournalRows``
  /// keeps it.
  init(_ row: Row) {
    self.init(
      sequence: row["sequence"], recordedAt: row["recorded_at"], latestAt: row["latest_at"],
      type: row["type"], version: row["version"], payload: row["payload"], delta: row["delta"],
      draws: row["draws"])
  }
}

extension JournalRows {
  /// The columns a ``JournalRow`` is read from.
  static let entryColumns =
    "sequence, recorded_at, latest_at, type, version, payload, delta, draws"

  /// The sequence and delta of a journal row: what rebuilding stacks reads.
  struct DeltaRecord: StoredRowRecord {
    var sequence: Int64
    var delta: String
  }

  /// A journal row's sequence and times: what finding an entry by time reads (see
  /// ``JournalRows/lastEntry(_:session:atOrBefore:)``).
  struct EntryTimeRecord: StoredRowRecord {
    var sequence: Int64
    var recordedAt: String
    var latestAt: String

    /// The columns to select.
    static let columns = "sequence, recorded_at, latest_at"
  }

  /// The first and last sequence of a session's entries.
  struct SequenceBounds: StoredRowRecord {
    var first: Int64?
    var last: Int64?
  }

  /// A session's journal rows in a range: how many, which sequences, how many bytes; what a
  /// compaction drops.
  struct EntrySpan: StoredRowRecord {
    var count: Int64
    var first: Int64?
    var last: Int64?
    var bytes: Int64
  }

  /// The first and last times of a journal.
  struct TimeSpan: StoredRowRecord {
    var first: String?
    var last: String?
  }

  /// How many entries were recorded in one interval, numbered from the epoch.
  struct ActivityBucket: StoredRowRecord {
    var bucket: Int64
    var entries: Int64
  }
}

// MARK: - Records read by every table

/// A row read into a record by column names: the snake_case columns of the schema
/// (`recorded_at`) fill the camelCase properties (`recordedAt`), so a record lists its columns
/// once, as properties, and no query depends on the order of its SELECT list.
protocol StoredRowRecord: Decodable, FetchableRecord {}

extension StoredRowRecord {
  static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
    .convertFromSnakeCase
  }
}

/// The stored bytes and row count of one session in one table.
struct SessionBytes: StoredRowRecord {
  var session: String
  var bytes: Int64
  var rows: Int
}

/// How many rows of a session a table holds in a range, from which sequence, in which payload
/// versions: what an export's header tells.
struct VersionSpan: StoredRowRecord {
  var first: Int64?
  var count: Int64
  var low: Int?
  var high: Int?
}
