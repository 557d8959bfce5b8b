import Foundation
import GRDB

/// A row of the `sessions` table with what the journal tells of it: its head, entry count and
/// the times of its first and last entries.
struct SessionRecord: StoredRowRecord {
  var id: String
  var createdAt: String
  var metadata: String?
  /// SQLite's storage class of the metadata: `text`, `null`, or what a hand edit put there.
  var metadataType: String
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
        SELECT s.id, s.created_at, s.metadata, typeof(s.metadata) AS metadata_type,
          \(SQLiteJournal.headColumn) AS head_sequence,
          s.forked_from, s.forked_at,
          (SELECT count(*) FROM journal j WHERE j.session = s.id) AS entry_count,
          \(EntryTimes.activityColumns)
        FROM sessions s \(condition)
        ORDER BY s.created_at, s.id
        """,
      arguments: arguments)
  }

  /// The metadata, or an ``StorageError/Code/invalidData`` error when it is not JSON text a
  /// journal may store (see ``JSONText/storageProblem(_:)``), a BLOB included.
  func checkedMetadata(_ stored: StoredValues) throws -> String? {
    guard let problem = StoredSessionRow.metadataProblem(type: metadataType, metadata) else { return metadata }
    throw StorageError(
      code: .invalidData,
      message: "The metadata of session \(StorageError.printable(id)) \(problem). The row was "
        + "left as it is; run `\(stored.verifyCommand)`.",
      path: stored.path)
  }

}
