import Foundation
import GRDB

/// A session's rows read through an SQLite transaction.
struct SQLiteSessionRows: SessionRows {
  let db: Database
  let session: SessionID

  func snapshotSequences() throws -> [Int64] {
    try Int64.fetchAll(
      db, sql: "SELECT sequence FROM snapshots WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
  }

  func snapshot(at sequence: Int64) throws -> StoredSnapshotRow? {
    try SnapshotRecord.fetchOne(
      db,
      sql: "SELECT \(SnapshotRecord.columns) FROM snapshots WHERE session = ? AND sequence = ?",
      arguments: [session.rawValue, sequence]
    ).map { StoredSnapshotRow(state: $0.state, stacks: $0.stacks, recordedAt: $0.recordedAt) }
  }

  func entries(_ body: (StoredEntryRow) throws -> Bool) throws {
    let entries = try EntryRecord.fetchCursor(
      db,
      sql: "SELECT \(EntryRecord.columns) FROM journal WHERE session = ? ORDER BY sequence",
      arguments: [session.rawValue])
    while let entry = try entries.next() {
      let row = StoredEntryRow(
        sequence: entry.sequence, recordedAt: entry.recordedAt, type: entry.type,
        payload: entry.payload, delta: entry.delta, latestAt: entry.latestAt)
      guard try body(row) else { return }
    }
  }

  func stackRows() throws -> [StackRecord] {
    try StackRows.load(db, session: session.rawValue)
  }
}
