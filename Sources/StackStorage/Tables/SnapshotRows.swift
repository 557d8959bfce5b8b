import GRDB

/// The SQL of the `snapshots` table: a session's full states at some sequences, read by
/// sequence, by range and by time; their sizes; deleting them. Each function runs inside the
/// caller's transaction.
///
enum SnapshotRows {
  /// The snapshot with the greatest sequence at or below `sequence`, or `nil`.
  static func latest(_ db: Database, session: SessionID, atOrBelow sequence: Int64) throws
    -> StoredSnapshotRow?
  {
    try Row.fetchOne(
      db.cachedStatement(
        sql: "SELECT \(snapshotColumns) FROM snapshots "
          + "WHERE session = ? AND sequence <= ? ORDER BY sequence DESC LIMIT 1"),
      arguments: [session.rawValue, sequence]
    ).map(StoredSnapshotRow.init)
  }

  /// The sequence and stacks of the snapshot with the greatest sequence at or below `sequence`,
  /// or `nil`: what rebuilding stacks starts from.
  static func latestStacks(_ db: Database, session: SessionID, atOrBelow sequence: Int64)
    throws -> SnapshotStacksRecord?
  {
    try SnapshotStacksRecord.fetchOne(
      db.cachedStatement(
        sql: "SELECT sequence, stacks FROM snapshots WHERE session = ? AND sequence <= ? "
          + "ORDER BY sequence DESC LIMIT 1"),
      arguments: [session.rawValue, sequence])
  }

  /// The snapshot at `sequence`, or `nil` when there is none.
  static func snapshot(_ db: Database, session: SessionID, at sequence: Int64) throws
    -> StoredSnapshotRow?
  {
    try Row.fetchOne(
      db,
      sql: "SELECT \(snapshotColumns) FROM snapshots WHERE session = ? AND sequence = ?",
      arguments: [session.rawValue, sequence]
    ).map(StoredSnapshotRow.init)
  }

  /// The snapshots after `after` through `through`, in ascending order.
  static func page(_ db: Database, session: SessionID, after: Int64, through: Int64) throws
    -> [StoredSnapshotRow]
  {
    try Row.fetchAll(
      db.cachedStatement(
        sql: "SELECT \(snapshotColumns) FROM snapshots "
          + "WHERE session = ? AND sequence > ? AND sequence <= ? ORDER BY sequence"),
      arguments: [session.rawValue, after, through]
    ).map(StoredSnapshotRow.init)
  }

  /// The sequence and time of the session's oldest snapshot, or `nil` when it has none.
  static func oldest(_ db: Database, session: SessionID) throws -> SnapshotTimeRecord? {
    try SnapshotTimeRecord.fetchOne(
      db.cachedStatement(
        sql: "SELECT sequence, recorded_at FROM snapshots WHERE session = ? "
          + "ORDER BY sequence LIMIT 1"),
      arguments: [session.rawValue])
  }

  /// The sequence of the session's oldest snapshot, or `nil` when it has none.
  static func oldestSequence(_ db: Database, session: SessionID) throws -> Int64? {
    try Int64.fetchOne(
      db.cachedStatement(sql: "SELECT min(sequence) FROM snapshots WHERE session = ?"),
      arguments: [session.rawValue])
  }

  /// The sequences of the session's snapshots, oldest first.
  static func sequences(_ db: Database, session: SessionID) throws -> [Int64] {
    try Int64.fetchAll(
      db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
  }

  /// The session and sequence of every snapshot, by session and sequence.
  static func sequencesOfAllSessions(_ db: Database) throws -> [SessionSnapshot] {
    try SessionSnapshot.fetchAll(
      db, sql: "SELECT session, sequence FROM snapshots ORDER BY session, sequence")
  }

  /// The time the snapshot at `sequence` was recorded, as stored, or `nil` when there is none.
  static func recordedAt(_ db: Database, session: SessionID, sequence: Int64) throws -> String? {
    try String.fetchOne(
      db, sql: "SELECT recorded_at FROM snapshots WHERE session = ? AND sequence = ?",
      arguments: [session.rawValue, sequence])
  }

  /// The first sequence, count and payload versions of the snapshots at or below `sequence`.
  static func versionSpan(_ db: Database, session: SessionID, through sequence: Int64) throws
    -> VersionSpan?
  {
    try VersionSpan.fetchOne(
      db,
      sql: "SELECT min(sequence) AS first, count(*) AS count, min(version) AS low, "
        + "max(version) AS high FROM snapshots WHERE session = ? AND sequence <= ?",
      arguments: [session.rawValue, sequence])
  }

  /// The highest payload version of any snapshot, or `nil` when there is none.
  static func maxVersion(_ db: Database) throws -> Int? {
    try Int.fetchOne(db, sql: "SELECT max(version) FROM snapshots")
  }

  /// The stored bytes of the session's snapshots below `sequence`.
  static func bytes(_ db: Database, session: SessionID, below sequence: Int64) throws -> Int64 {
    try Int64.fetchOne(
      db,
      sql: "SELECT coalesce(sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) "
        + "+ 40), 0) FROM snapshots WHERE session = ? AND sequence < ?",
      arguments: [session.rawValue, sequence]) ?? 0
  }

  /// The stored bytes and snapshot count of every session that has snapshots.
  static func sizes(_ db: Database) throws -> RecordCursor<SessionBytes> {
    try SessionBytes.fetchCursor(
      db,
      sql: "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) + 40) "
        + "AS bytes, count(*) AS rows FROM snapshots GROUP BY session")
  }

  /// Deletes the session's snapshots below `sequence`.
  static func delete(_ db: Database, session: SessionID, below sequence: Int64) throws {
    try db.execute(
      sql: "DELETE FROM snapshots WHERE session = ? AND sequence < ?",
      arguments: [session.rawValue, sequence])
  }

  /// Deletes every snapshot of the session.
  static func deleteAll(_ db: Database, session: SessionID) throws {
    try db.execute(sql: "DELETE FROM snapshots WHERE session = ?", arguments: [session.rawValue])
  }

  /// Inserts a snapshot, unless the session has one at that sequence.
  static func insert(
    _ db: Database,
    session: String,
    sequence: Int64,
    version: Int,
    state: String,
    stacks: String,
    recordedAt: String
  ) throws {
    try db.run(
      "INSERT INTO snapshots (session, sequence, version, state, stacks, recorded_at) "
        + "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (session, sequence) DO NOTHING",
      .text(session), .integer(sequence), .integer(Int64(version)), .text(state), .text(stacks),
      .text(recordedAt))
  }
}

// MARK: - Records

extension StoredSnapshotRow {
  /// A row of the `snapshots` table exactly as stored, read by column name.
  init(_ row: Row) {
    self.init(
      sequence: row["sequence"], version: row["version"], state: row["state"],
      stacks: row["stacks"], recordedAt: row["recorded_at"])
  }
}

extension SnapshotRows {
  /// The columns a ``StoredSnapshotRow`` is read from.
  static let snapshotColumns = "sequence, version, state, stacks, recorded_at"

  /// The sequence and stacks of a snapshot, without its state: what rebuilding stacks reads.
  struct SnapshotStacksRecord: StoredRowRecord {
    var sequence: Int64
    var stacks: String
  }

  /// The sequence and time of a snapshot, without its state and stacks.
  struct SnapshotTimeRecord: StoredRowRecord {
    var sequence: Int64
    var recordedAt: String
  }

  /// A snapshot's session and sequence.
  struct SessionSnapshot: StoredRowRecord {
    var session: String
    var sequence: Int64
  }
}
