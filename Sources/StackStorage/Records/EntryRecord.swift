import GRDB

/// A row of the `journal` table exactly as stored: times as text, payload and delta as JSON text.
struct EntryRecord: Decodable, FetchableRecord {
  var sequence: Int64
  var recordedAt: String
  var type: String
  var version: Int
  var payload: String
  var delta: String

  enum CodingKeys: String, CodingKey {
    case sequence
    case recordedAt = "recorded_at"
    case type
    case version
    case payload
    case delta
  }

  /// The columns to select, in any order a query needs.
  static let columns = "sequence, recorded_at, type, version, payload, delta"
}

/// The sequence and delta of a journal row: what rebuilding stacks reads.
struct DeltaRecord: Decodable, FetchableRecord {
  var sequence: Int64
  var delta: String
}
