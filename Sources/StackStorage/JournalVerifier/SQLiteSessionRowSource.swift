import Foundation
import GRDB

/// A session's rows read through an SQLite connection, inside the caller's transaction.
struct SQLiteSessionRowSource: SessionRowSource {
  let db: Database
  let session: SessionID

  func snapshotSequences() throws -> [Int64] {
    try SnapshotRows.sequences(db, session: session)
  }

  func snapshot(at sequence: Int64) throws -> StoredSnapshotRow? {
    try SnapshotRows.snapshot(db, session: session, at: sequence).map {
      StoredSnapshotRow(state: $0.state, stacks: $0.stacks, recordedAt: $0.recordedAt)
    }
  }

  func entries(_ body: (StoredEntryRow) throws -> Bool) throws {
    let entries = try JournalRows.all(db, session: session)
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
