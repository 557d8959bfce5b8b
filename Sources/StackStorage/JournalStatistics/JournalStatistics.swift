import Foundation
import GRDB

/// Sizes per table and session, snapshot coverage and entries over time; only reads.
///
/// ```swift
/// let stats = try JournalStatistics().statistics(of: journal)
/// print(stats.fileBytes, stats.sessions.map(\.largestSnapshotGap))
/// ```
public struct JournalStatistics: Sendable {
  /// Creates the statistics reader.
  public init() {}

  /// The file's statistics; counts only `session`'s entries and lists only it when given.
  ///
  /// Throws ``StorageError/Code/unknownSession`` for a session the journal does not hold.
  public func statistics(
    of journal: SQLiteJournal,
    session: SessionID? = nil
  ) throws -> StorageStatistics {
    let sizes = try sessionSizes(of: journal)
    let listed = try journal.sessions().filter { session == nil || $0.id == session }
    if let session, listed.isEmpty { throw journal.stored.unknownSession(session) }
    return try journal.read("gathering statistics") { db in
      let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
      let pageCount = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
      let freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
      var walBytes: Int64?
      if let path = journal.path,
        let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
      {
        walBytes = (attributes[.size] as? NSNumber)?.int64Value
      }
      let snapshots = try SessionSnapshot.fetchAll(
        db, sql: "SELECT session, sequence FROM snapshots ORDER BY session, sequence")
      let sessions = StorageStatistics.Session.figures(
        listed,
        snapshots: Dictionary(grouping: snapshots, by: { SessionID($0.session) }).mapValues {
          $0.map(\.sequence)
        }, sizes: sizes)
      return StorageStatistics(
        fileBytes: pageCount * Int64(pageSize), walBytes: walBytes, pageSize: pageSize,
        freePages: freePages, objects: try Self.objects(db), sessions: sessions,
        activity: try Self.activity(db, session: session))
    }
  }

  /// The bytes each session holds, by session.
  ///
  /// Reads the length of every stored text, so it scans the whole file: use it for listings,
  /// not in a loop.
  public func sessionSizes(of journal: SQLiteJournal) throws -> [SessionID: SessionSize] {
    try journal.read("measuring sessions", Self.sessionSizes)
  }

  /// The stored bytes of each session, read through `db`.
  static func sessionSizes(_ db: Database) throws -> [SessionID: SessionSize] {
    var sizes: [SessionID: SessionSize] = [:]
    for id in try String.fetchAll(db, sql: "SELECT id FROM sessions") {
      sizes[SessionID(id)] = .zero
    }
    func add(_ sql: String, _ update: (inout SessionSize, SessionBytes) -> Void) throws {
      let rows = try SessionBytes.fetchCursor(db, sql: sql)
      while let row = try rows.next() {
        let id = SessionID(row.session)
        update(&sizes[id, default: .zero], row)
      }
    }
    try add(
      "SELECT session, sum(length(CAST(type AS BLOB)) + length(CAST(payload AS BLOB)) "
        + "+ length(CAST(delta AS BLOB)) + 40) AS bytes, count(*) AS rows FROM journal "
        + "GROUP BY session"
    ) { size, row in size.journalBytes = row.bytes }
    try add(
      "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(stacks AS BLOB)) + 40) "
        + "AS bytes, count(*) AS rows FROM snapshots GROUP BY session"
    ) { size, row in
      size.snapshotBytes = row.bytes
      size.snapshotCount = row.rows
    }
    try add(
      "SELECT session, sum(length(CAST(state AS BLOB)) + length(CAST(path AS BLOB)) + 24) "
        + "AS bytes, count(*) AS rows FROM stack_elements GROUP BY session"
    ) { size, row in size.stackBytes = row.bytes }
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
    let filter = session == nil ? "" : "WHERE session = ?"
    let arguments: StatementArguments = session.map { [$0.rawValue] } ?? []
    let span = try TimeSpan.fetchOne(
      db, sql: "SELECT min(recorded_at) AS first, max(recorded_at) AS last FROM journal \(filter)",
      arguments: arguments)
    guard let first = span?.first.flatMap(Timestamp.date(from:)),
      let last = span?.last.flatMap(Timestamp.date(from:))
    else { return [] }
    let seconds = StorageStatistics.bucketSeconds(spanning: last.timeIntervalSince(first))
    let sql =
      "SELECT CAST(strftime('%s', substr(recorded_at, 1, 19)) AS INTEGER) / \(seconds) "
      + "AS bucket, count(*) AS entries FROM journal \(filter) GROUP BY bucket ORDER BY bucket"
    let buckets = try ActivityBucket.fetchAll(db, sql: sql, arguments: arguments)
    return buckets.map { bucket -> StorageStatistics.Activity in
      let start = Date(timeIntervalSince1970: Double(bucket.bucket * Int64(seconds)))
      return StorageStatistics.Activity(start: start, seconds: seconds, entries: bucket.entries)
    }
  }

}

/// A snapshot's session and sequence.
private struct SessionSnapshot: StoredRowRecord {
  var session: String
  var sequence: Int64
}

/// The stored bytes and row count of one session in one table.
private struct SessionBytes: StoredRowRecord {
  var session: String
  var bytes: Int64
  var rows: Int
}

/// A table or index of the schema with the bytes of its pages, when `dbstat` tells them.
private struct SchemaObject: StoredRowRecord {
  var name: String
  var type: String
  var bytes: Int64?
}

/// The first and last times of a journal.
private struct TimeSpan: StoredRowRecord {
  var first: String?
  var last: String?
}

/// How many entries were recorded in one interval, numbered from the epoch.
private struct ActivityBucket: StoredRowRecord {
  var bucket: Int64
  var entries: Int64
}
