import Foundation
import StackJournalCore

/// What `stats --json` prints.
struct StatsReport: Encodable, Sendable {
  /// A table or index.
  struct Table: Encodable, Sendable {
    var name, kind: String
    @NullWhenAbsent var rows: Int64?
    @NullWhenAbsent var bytes: Int64?
  }

  /// A session's size and snapshot coverage.
  struct Session: Encodable, Sendable {
    var session: String
    var entries, headSequence, bytes, journalBytes, snapshotBytes, stackBytes: Int64
    var snapshots: Int
    @NullWhenAbsent var latestSnapshot: Int64?
    var largestSnapshotGap: Int64
  }

  /// Entries recorded in one interval; `perSecond` to the thousandth.
  struct Activity: Encodable, Sendable {
    var start: String
    var seconds: Int
    var entries: Int64
    var perSecond: Double
  }

  var database: String
  var fileBytes: Int64
  @NullWhenAbsent var walBytes: Int64?
  var pageSize, freePages: Int
  var tables: [Table]
  var sessions: [Session]
  var activity: [Activity]

  init(_ stats: StorageStatistics, path: String) {
    database = path
    fileBytes = stats.fileBytes
    walBytes = stats.walBytes
    pageSize = stats.pageSize
    freePages = stats.freePages
    tables = stats.objects.map {
      Table(name: $0.name, kind: $0.kind, rows: $0.rows, bytes: $0.bytes)
    }
    sessions = stats.sessions.map { session in
      let size = session.size
      return Session(
        session: session.id.rawValue, entries: session.entries,
        headSequence: session.headSequence, bytes: size.totalBytes,
        journalBytes: size.journalBytes, snapshotBytes: size.snapshotBytes,
        stackBytes: size.stackBytes, snapshots: size.snapshotCount,
        latestSnapshot: session.latestSnapshot, largestSnapshotGap: session.largestSnapshotGap)
    }
    activity = stats.activity.map {
      let rate = Double($0.entries) / Double($0.seconds)
      return Activity(
        start: TimeFormat.iso($0.start), seconds: $0.seconds, entries: $0.entries,
        perSecond: (rate * 1000).rounded() / 1000)
    }
  }
}
