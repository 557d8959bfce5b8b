import Foundation
import GRDB

/// Sizes per table and session, snapshot coverage and entries over time of an SQLite journal:
/// the functions behind ``SQLiteJournal/statistics(session:)`` and
/// ``SQLiteJournal/sessionSizes()``, read inside the one read transaction the journal opens, so
/// the figures are of one moment.
enum SQLiteStatistics {
  /// The file's statistics read through `db`; counts only `session`'s entries and lists only it
  /// when given. `walBytes` is the size of the file's write-ahead log, when it has one.
  static func statistics(
    _ db: Database, session: SessionID?, walBytes: Int64?, _ stored: StoredValues
  ) throws -> StorageStatistics {
    let sizes = try sessionSizes(db)
    let listed = try SessionRows.infos(db, stored).filter { session == nil || $0.id == session }
    if let session, listed.isEmpty { throw stored.unknownSession(session) }
    let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
    let pageCount = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
    let freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
    let snapshots = try SnapshotRows.sequencesOfAllSessions(db)
    let sessions = StorageStatistics.Session.figures(
      listed,
      snapshots: Dictionary(grouping: snapshots, by: { SessionID($0.session) }).mapValues {
        $0.map(\.sequence)
      }, sizes: sizes)
    return StorageStatistics(
      fileBytes: pageCount * Int64(pageSize), walBytes: walBytes, pageSize: pageSize,
      freePages: freePages, objects: try objects(db), sessions: sessions,
      activity: try activity(db, session: session))
  }

  /// The stored bytes of each session, read through `db`.
  static func sessionSizes(_ db: Database) throws -> [SessionID: SessionSize] {
    var sizes: [SessionID: SessionSize] = [:]
    for id in try SessionRows.ids(db) {
      sizes[id] = .zero
    }
    func add(
      _ rows: RecordCursor<SessionBytes>, _ update: (inout SessionSize, SessionBytes) -> Void
    ) throws {
      while let row = try rows.next() {
        let id = SessionID(row.session)
        update(&sizes[id, default: .zero], row)
      }
    }
    try add(JournalRows.sizes(db)) { size, row in size.journalBytes = row.bytes }
    try add(SnapshotRows.sizes(db)) { size, row in
      size.snapshotBytes = row.bytes
      size.snapshotCount = row.rows
    }
    try add(StackRows.sizes(db)) { size, row in size.stackBytes = row.bytes }
    return sizes
  }

  /// The tables and indexes with their rows and pages, largest first when sizes are known.
  private static func objects(_ db: Database) throws -> [StorageStatistics.Object] {
    let schema = "FROM sqlite_master m WHERE m.type IN ('table', 'index') ORDER BY m.name"
    // `dbstat` is missing from SQLite builds without SQLITE_ENABLE_DBSTAT_VTAB: no sizes then.
    let withPages =
      "SELECT m.name, m.type, coalesce((SELECT sum(d.pgsize) FROM dbstat d "
      + "WHERE d.name = m.name), 0) AS bytes \(schema)"
    let found =
      try (try? SchemaObject.fetchAll(db, sql: withPages))
      ?? SchemaObject.fetchAll(db, sql: "SELECT m.name, m.type, NULL AS bytes \(schema)")
    var objects: [StorageStatistics.Object] = []
    for object in found {
      var rows: Int64?
      if object.type == "table" {
        rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM \"\(object.name)\"")
      }
      objects.append(
        .init(name: object.name, kind: object.type, rows: rows, bytes: object.bytes))
    }
    return objects.sorted { ($0.bytes ?? 0, $1.name) > ($1.bytes ?? 0, $0.name) }
  }

  /// Entries per interval over the whole history (one session's when given), oldest first.
  private static func activity(
    _ db: Database,
    session: SessionID?
  ) throws -> [StorageStatistics.Activity] {
    let span = try JournalRows.timeSpan(db, session: session)
    guard let first = span?.first.flatMap(Timestamp.date(from:)),
      let last = span?.last.flatMap(Timestamp.date(from:))
    else { return [] }
    let seconds = StorageStatistics.bucketSeconds(spanning: last.timeIntervalSince(first))
    let buckets = try JournalRows.activity(db, session: session, seconds: seconds)
    return buckets.map { bucket -> StorageStatistics.Activity in
      let start = Date(timeIntervalSince1970: Double(bucket.bucket * Int64(seconds)))
      return StorageStatistics.Activity(start: start, seconds: seconds, entries: bucket.entries)
    }
  }
}

/// A table or index of the schema with the bytes of its pages, when `dbstat` tells them.
private struct SchemaObject: StoredRowRecord {
  var name: String
  var type: String
  var bytes: Int64?
}
