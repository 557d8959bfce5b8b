import GRDB

/// How many rows of a session a table holds in a range, from which sequence, in which payload
/// versions: what an export's header tells.
struct VersionSpan: StoredRowRecord {
  var first: Int64?
  var count: Int64
  var low: Int?
  var high: Int?
}

/// A session's journal rows in a range: how many, which sequences, how many bytes; what a
/// compaction drops.
struct EntrySpan: StoredRowRecord {
  var count: Int64
  var first: Int64?
  var last: Int64?
  var bytes: Int64
}

/// The first and last times of a journal.
struct TimeSpan: StoredRowRecord {
  var first: String?
  var last: String?
}
