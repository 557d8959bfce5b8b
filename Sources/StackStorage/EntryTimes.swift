import GRDB

/// The journal row an append or an import writes, with its `latest_at` (see ``JournalRows``,
/// which finds entries by time from it).
enum EntryTimes {
  /// Inserts one journal row.
  static func insertEntry(
    _ db: Database, session: String, sequence: Int64, recordedAt: String, latestAt: String,
    type: String, version: Int, payload: String, delta: String
  ) throws {
    try db.cachedStatement(
      sql: "INSERT INTO journal (session, sequence, recorded_at, latest_at, type, version, "
        + "payload, delta) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    ).execute(arguments: [
      session, sequence, recordedAt, latestAt, type, version, payload, delta,
    ])
  }
}

/// Where an append's entry goes: its sequence and its `latest_at`.
struct EntryPlace {
  var sequence: Int64
  var latestAt: String
}
