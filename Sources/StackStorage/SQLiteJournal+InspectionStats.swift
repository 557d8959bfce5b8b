import Foundation
import GRDB

/// Sizes and activity of a journal file, for `stackjournal stats`.
public struct StorageStatistics: Sendable {
  /// One table or index of the file.
  public struct Object: Sendable, Equatable {
    /// The table's or index's name.
    public var name: String
    /// `table` or `index`.
    public var kind: String
    /// How many rows a table holds; `nil` for an index.
    public var rows: Int64?
    /// The bytes of the pages it occupies; `nil` when this SQLite cannot tell (no `dbstat`).
    public var bytes: Int64?
  }

  /// The snapshots and size of one session.
  public struct Session: Sendable, Equatable {
    /// The session.
    public var id: SessionID
    /// How many journal entries it holds.
    public var entries: Int64
    /// Its head sequence.
    public var headSequence: Int64
    /// The stored bytes of its rows.
    public var size: SessionSize
    /// The sequence of its latest snapshot.
    public var latestSnapshot: Int64?
    /// The largest number of entries between two snapshots, or after the latest one: the most
    /// a restore replays.
    public var largestSnapshotGap: Int64
  }

  /// How many entries were recorded in one interval.
  public struct Activity: Sendable, Equatable {
    /// The interval's start.
    public var start: Date
    /// The interval's length in seconds.
    public var seconds: Int
    /// How many entries were recorded in it.
    public var entries: Int64
  }

  /// The bytes of the database file: its page count times its page size.
  public var fileBytes: Int64
  /// The bytes of the write-ahead log next to it, if there is one.
  public var walBytes: Int64?
  /// SQLite's page size.
  public var pageSize: Int
  /// Pages that are free (released by deletes, reused before the file grows).
  public var freePages: Int
  /// The tables and indexes, largest first when sizes are known.
  public var objects: [Object]
  /// The sessions, oldest first.
  public var sessions: [Session]
  /// Entries per interval over the whole history, oldest first, with empty intervals left out.
  public var activity: [Activity]
}

extension SQLiteJournal {
  /// Sizes per table and session, snapshot coverage and entries over time; only reads.
  ///
  /// - Parameter session: Count only this session's entries and list only it; every session
  ///   when `nil`.
  public func statistics(session: SessionID? = nil) throws -> StorageStatistics {
    let sizes = try sessionSizes()
    let listed = try sessions().filter { session == nil || $0.id == session }
    if let session, listed.isEmpty { throw unknownSession(session) }
    return try read("gathering statistics") { db in
      let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
      let pageCount = try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0
      let freePages = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
      var walBytes: Int64?
      if let path, let attributes = try? FileManager.default.attributesOfItem(atPath: path + "-wal")
      {
        walBytes = (attributes[.size] as? NSNumber)?.int64Value
      }
      let names = try Row.fetchAll(
        db,
        sql: "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'index') "
          + "ORDER BY name")
      var bytesByName: [String: Int64]? = nil
      if let rows = try? Row.fetchAll(
        db, sql: "SELECT name, sum(pgsize) FROM dbstat GROUP BY name")
      {
        bytesByName = Dictionary(
          rows.map { ($0[0] as String, $0[1] as Int64) }, uniquingKeysWith: { a, _ in a })
      }
      var objects: [StorageStatistics.Object] = []
      for row in names {
        let name: String = row[0]
        let kind: String = row[1]
        var rows: Int64?
        if kind == "table" {
          rows = try Int64.fetchOne(db, sql: "SELECT count(*) FROM \"\(name)\"")
        }
        objects.append(
          .init(name: name, kind: kind, rows: rows, bytes: bytesByName.map { $0[name] ?? 0 }))
      }
      objects.sort { ($0.bytes ?? 0, $1.name) > ($1.bytes ?? 0, $0.name) }

      var snapshotsBySession: [String: [Int64]] = [:]
      let snapshots = try Row.fetchCursor(
        db, sql: "SELECT session, sequence FROM snapshots ORDER BY session, sequence")
      while let row = try snapshots.next() {
        snapshotsBySession[row[0], default: []].append(row[1])
      }
      let sessions = listed.map { info -> StorageStatistics.Session in
        let sequences = snapshotsBySession[info.id.rawValue] ?? []
        var largestGap: Int64 = 0
        for (a, b) in zip(sequences, sequences.dropFirst()) { largestGap = max(largestGap, b - a) }
        if let latest = sequences.last { largestGap = max(largestGap, info.headSequence - latest) }
        return .init(
          id: info.id, entries: Int64(info.entryCount), headSequence: info.headSequence,
          size: sizes[info.id]
            ?? SessionSize(journalBytes: 0, snapshotBytes: 0, stackBytes: 0, snapshotCount: 0),
          latestSnapshot: sequences.last, largestSnapshotGap: largestGap)
      }

      let filter = session == nil ? "" : "WHERE session = ?"
      let arguments: StatementArguments = session.map { [$0.rawValue] } ?? []
      var activity: [StorageStatistics.Activity] = []
      let span = try Row.fetchOne(
        db, sql: "SELECT min(recorded_at), max(recorded_at) FROM journal \(filter)",
        arguments: arguments)
      if let span, let first = (span[0] as String?).flatMap(Timestamp.date(from:)),
        let last = (span[1] as String?).flatMap(Timestamp.date(from:))
      {
        let seconds = Self.bucketSeconds(spanning: last.timeIntervalSince(first))
        let rows = try Row.fetchCursor(
          db,
          sql: "SELECT CAST(strftime('%s', substr(recorded_at, 1, 19)) AS INTEGER) / \(seconds) "
            + "AS bucket, count(*) FROM journal \(filter) GROUP BY bucket ORDER BY bucket",
          arguments: arguments)
        while let row = try rows.next() {
          let bucket: Int64 = row[0]
          activity.append(
            .init(
              start: Date(timeIntervalSince1970: Double(bucket * Int64(seconds))),
              seconds: seconds, entries: row[1]))
        }
      }
      return StorageStatistics(
        fileBytes: pageCount * Int64(pageSize), walBytes: walBytes, pageSize: pageSize,
        freePages: freePages, objects: objects, sessions: sessions, activity: activity)
    }
  }

  /// The shortest round interval that splits a span into at most 24 intervals.
  static func bucketSeconds(spanning span: TimeInterval) -> Int {
    let candidates = [1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400]
    return candidates.first { span / Double($0) < 24 } ?? 365 * 86400
  }
}
