import GRDB

/// A row of the `snapshots` table exactly as stored.
struct SnapshotRecord: StoredRowRecord {
  var sequence: Int64
  var version: Int
  var state: String
  var stacks: String
  var recordedAt: String

  /// The columns to select.
  static let columns = "sequence, version, state, stacks, recorded_at"
}

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
