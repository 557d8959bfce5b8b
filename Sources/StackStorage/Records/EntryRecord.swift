import GRDB

/// A row of the `journal` table exactly as stored: times as text, payload and delta as JSON text.
struct EntryRecord: StoredRowRecord {
  var sequence: Int64
  var recordedAt: String
  var type: String
  var version: Int
  var payload: String
  var delta: String

  /// The columns to select.
  static let columns = "sequence, recorded_at, type, version, payload, delta"
}

/// A row of the `journal` table as the verifier reads it: ``EntryRecord``'s columns and the
/// `latest_at` time lookups rely on.
struct CheckedEntryRecord: StoredRowRecord {
  var sequence: Int64
  var recordedAt: String
  var type: String
  var payload: String
  var delta: String
  var latestAt: String
}

/// The sequence and delta of a journal row: what rebuilding stacks reads.
struct DeltaRecord: StoredRowRecord {
  var sequence: Int64
  var delta: String
}
