import GRDB

/// A row of the `snapshots` table exactly as stored.
struct SnapshotRecord: Decodable, FetchableRecord {
  var sequence: Int64
  var version: Int
  var state: String
  var stacks: String
  var recordedAt: String

  enum CodingKeys: String, CodingKey {
    case sequence
    case version
    case state
    case stacks
    case recordedAt = "recorded_at"
  }

  /// The columns to select.
  static let columns = "sequence, version, state, stacks, recorded_at"
}

/// The sequence and stacks of a snapshot, without its state: what rebuilding stacks reads.
struct SnapshotStacksRecord: Decodable, FetchableRecord {
  var sequence: Int64
  var stacks: String
}

/// The sequence and time of a snapshot, without its state and stacks.
struct SnapshotTimeRecord: Decodable, FetchableRecord {
  var sequence: Int64
  var recordedAt: String

  enum CodingKeys: String, CodingKey {
    case sequence
    case recordedAt = "recorded_at"
  }
}
