import Foundation
import StackStorage

/// What `stats --json` prints.
struct StatsReport: Encodable, Sendable {
  var database: String
  var fileBytes: Int64
  @NullWhenAbsent var walBytes: Int64?
  var pageSize: Int
  var freePages: Int
  var tables: [Table]
  var sessions: [Session]
  var activity: [Activity]

  init(_ stats: StorageStatistics, path: String) {
    database = path
    fileBytes = stats.fileBytes
    walBytes = stats.walBytes
    pageSize = stats.pageSize
    freePages = stats.freePages
    tables = stats.objects.map(Table.init)
    sessions = stats.sessions.map(Session.init)
    activity = stats.activity.map(Activity.init)
  }

  /// A table or index.
  struct Table: Encodable, Sendable {
    var name: String
    var kind: String
    @NullWhenAbsent var rows: Int64?
    @NullWhenAbsent var bytes: Int64?

    init(_ object: StorageStatistics.Object) {
      name = object.name
      kind = object.kind
      rows = object.rows
      bytes = object.bytes
    }
  }

  /// A session's size and snapshot coverage.
  struct Session: Encodable, Sendable {
    var session: String
    var entries: Int64
    var headSequence: Int64
    var bytes: Int64
    var journalBytes: Int64
    var snapshotBytes: Int64
    var stackBytes: Int64
    var snapshots: Int
    @NullWhenAbsent var latestSnapshot: Int64?
    var largestSnapshotGap: Int64

    init(_ session: StorageStatistics.Session) {
      self.session = session.id.rawValue
      entries = session.entries
      headSequence = session.headSequence
      bytes = session.size.totalBytes
      journalBytes = session.size.journalBytes
      snapshotBytes = session.size.snapshotBytes
      stackBytes = session.size.stackBytes
      snapshots = session.size.snapshotCount
      latestSnapshot = session.latestSnapshot
      largestSnapshotGap = session.largestSnapshotGap
    }
  }

  /// Entries recorded in one interval.
  struct Activity: Encodable, Sendable {
    var start: String
    var seconds: Int
    var entries: Int64
    /// Entries per second, to the thousandth.
    var perSecond: Double

    init(_ activity: StorageStatistics.Activity) {
      start = TimeFormat.iso(activity.start)
      seconds = activity.seconds
      entries = activity.entries
      perSecond = (Double(activity.entries) / Double(activity.seconds) * 1000).rounded() / 1000
    }
  }
}
