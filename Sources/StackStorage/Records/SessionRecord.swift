import GRDB

/// A row of the `sessions` table with what the journal tells of it: its head, entry count and
/// the times of its first and last entries.
struct SessionRecord: StoredRowRecord {
  var id: String
  var createdAt: String
  var metadata: String?
  var headSequence: Int64
  var forkedFrom: String?
  var forkedAt: Int64?
  var entryCount: Int
  var firstActivity: String?
  var lastActivity: String?

  /// The sessions a condition on `sessions s` selects, oldest first.
  static func fetchAll(
    _ db: Database,
    where condition: String,
    arguments: StatementArguments
  ) throws -> [SessionRecord] {
    try SessionRecord.fetchAll(
      db,
      sql: """
        SELECT s.id, s.created_at, s.metadata, \(SQLiteJournal.headColumn) AS head_sequence,
          s.forked_from, s.forked_at,
          (SELECT count(*) FROM journal j WHERE j.session = s.id) AS entry_count,
          \(EntryTimes.activityColumns)
        FROM sessions s \(condition)
        ORDER BY s.created_at, s.id
        """,
      arguments: arguments)
  }
}
