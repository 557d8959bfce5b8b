import GRDB

/// A row of the `journal` table exactly as stored: times as text, payload and delta as JSON text.
struct EntryRecord: StoredRowRecord {
  var sequence: Int64
  var recordedAt: String
  /// The latest time of this entry and the ones before it (see ``JournalRows``).
  var latestAt: String
  var type: String
  var version: Int
  var payload: String
  var delta: String

  /// The columns to select.
  static let columns = "sequence, recorded_at, latest_at, type, version, payload, delta"
}

/// The sequence and delta of a journal row: what rebuilding stacks reads.
struct DeltaRecord: StoredRowRecord {
  var sequence: Int64
  var delta: String
}
