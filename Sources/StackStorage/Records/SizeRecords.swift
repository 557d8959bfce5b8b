import GRDB

/// The stored bytes and row count of one session in one table.
struct SessionBytes: StoredRowRecord {
  var session: String
  var bytes: Int64
  var rows: Int
}

/// A snapshot's session and sequence.
struct SessionSnapshot: StoredRowRecord {
  var session: String
  var sequence: Int64
}

/// How many entries were recorded in one interval, numbered from the epoch.
struct ActivityBucket: StoredRowRecord {
  var bucket: Int64
  var entries: Int64
}
