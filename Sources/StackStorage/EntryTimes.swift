import GRDB

/// How an SQLite journal finds its entries by time without an index written by every append
/// (schema 3).
///
/// Each journal row keeps `latest_at`: the latest `recorded_at` of the entry and of every earlier
/// entry of its session. It never goes down along the sequence, so the entries whose `latest_at`
/// is at or before a time are a prefix of the session, found by a binary search on the primary
/// key. An entry recorded earlier than an earlier one (the recording machine's clock went back)
/// has `recorded_at < latest_at` and is in the partial index `journal_recorded_late`; an append
/// whose clock did not go back never writes that index.
enum EntryTimes {
  /// Inserts one journal row.
  static func insertEntry(
    _ db: Database, session: String, sequence: Int64, recordedAt: String, latestAt: String,
    type: String, version: Int, payload: String, delta: String
  ) throws {
    try db.run(
      "INSERT INTO journal (session, sequence, recorded_at, latest_at, type, version, payload, "
        + "delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      .text(session), .integer(sequence), .text(recordedAt), .text(latestAt), .text(type),
      .integer(Int64(version)), .text(payload), .text(delta))
  }

  /// The entry recorded at or before `time` with the latest time, then the highest sequence;
  /// `nil` when no entry kept is that early.
  static func lastEntry(
    _ db: Database, session: String, atOrBefore time: String
  ) throws -> Int64? {
    // Every entry up to the prefix's end was recorded at or before `time`; the latest of them
    // is the last one whose clock did not go back (the late ones are found below).
    let best = try lastOfPrefix(db, session: session, atOrBefore: time).flatMap { prefixEnd in
      try EntryTimeRecord.fetchOne(
        db.cachedStatement(
          sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE session = ? "
            + "AND sequence <= ? AND recorded_at = latest_at ORDER BY sequence DESC LIMIT 1"),
        arguments: [session, prefixEnd])
    }
    // Entries recorded earlier than an earlier one, wherever they are: the partial index.
    let late = try EntryTimeRecord.fetchOne(
      db.cachedStatement(
        sql: "SELECT \(EntryTimeRecord.columns) FROM journal INDEXED BY journal_recorded_late "
          + "WHERE session = ? AND recorded_at < latest_at AND recorded_at <= ? "
          + "ORDER BY recorded_at DESC, sequence DESC LIMIT 1"),
      arguments: [session, time])
    guard let late else { return best?.sequence }
    guard let best, (late.recordedAt, late.sequence) < (best.recordedAt, best.sequence) else {
      return late.sequence
    }
    return best.sequence
  }

  /// The highest sequence whose `latest_at` is at or before `time`, by binary search on the
  /// primary key (sequences may have gaps); `nil` when the first entry kept is later.
  private static func lastOfPrefix(
    _ db: Database, session: String, atOrBefore time: String
  ) throws -> Int64? {
    let bounds = try SequenceBounds.fetchOne(
      db.cachedStatement(
        sql: "SELECT min(sequence) AS first, max(sequence) AS last FROM journal "
          + "WHERE session = ?"),
      arguments: [session])
    guard let bounds, var low = bounds.first, var high = bounds.last else { return nil }
    let probe = try db.cachedStatement(
      sql: "SELECT \(EntryTimeRecord.columns) FROM journal WHERE session = ? AND sequence >= ? "
        + "ORDER BY sequence LIMIT 1")
    var found: Int64?
    while low <= high {
      let middle = low + (high - low) / 2
      guard let entry = try EntryTimeRecord.fetchOne(probe, arguments: [session, middle]),
        entry.sequence <= high
      else {
        high = middle - 1
        continue
      }
      if entry.latestAt <= time {
        found = entry.sequence
        // Nothing above the last sequence (which may be Int64.max in a file edited by hand).
        guard entry.sequence < high else { break }
        low = entry.sequence + 1
      } else {
        high = middle - 1
      }
    }
    return found
  }

  /// The `latest_at` of the last entry of session `s.id`, for a query on `sessions s`; `NULL`
  /// when it has none.
  static let lastLatestAtColumn = """
    (SELECT j.latest_at FROM journal j WHERE j.session = s.id ORDER BY j.sequence DESC LIMIT 1)
    """

  /// The times of a session's first and last activity for `sessions s`, without scanning its
  /// entries: the last is the last entry's `latest_at`; the first is the first entry's time
  /// unless a late entry is earlier still.
  static let activityColumns = """
    (SELECT min(t) FROM (
      SELECT recorded_at AS t FROM (
        SELECT recorded_at FROM journal j WHERE j.session = s.id ORDER BY j.sequence LIMIT 1)
      UNION ALL
      SELECT min(recorded_at) FROM journal j INDEXED BY journal_recorded_late
        WHERE j.session = s.id AND j.recorded_at < j.latest_at)) AS first_activity,
    \(lastLatestAtColumn) AS last_activity
    """
}

/// Where an append's entry goes: its sequence and its `latest_at`.
struct EntryPlace {
  var sequence: Int64
  var latestAt: String
}
