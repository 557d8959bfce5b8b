import GRDB

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

/// A session's number, head and the `latest_at` of its last entry, read by every append.
/// Decoded by hand rather than through `Decodable`: it is on every append's path.
struct HeadRecord: FetchableRecord {
  /// No row for an unknown session.
  static let sql = SessionRows.headRecordSQL

  /// The session's `sessions.number`, which its journal keys start with.
  var number: Int64
  var headSequence: Int64
  var lastLatestAt: String?

  init(number: Int64, headSequence: Int64, lastLatestAt: String?) {
    self.number = number
    self.headSequence = headSequence
    self.lastLatestAt = lastLatestAt
  }

  init(row: Row) {
    number = row["number"]
    headSequence = row["head_sequence"]
    lastLatestAt = row["last_latest_at"]
  }
}
