import Foundation

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

    /// Creates an object's figures.
    package init(name: String, kind: String, rows: Int64?, bytes: Int64?) {
      self.name = name
      self.kind = kind
      self.rows = rows
      self.bytes = bytes
    }
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

    /// Creates an interval's count.
    package init(start: Date, seconds: Int, entries: Int64) {
      self.start = start
      self.seconds = seconds
      self.entries = entries
    }
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

  /// Creates statistics.
  package init(
    fileBytes: Int64, walBytes: Int64?, pageSize: Int, freePages: Int, objects: [Object],
    sessions: [Session], activity: [Activity]
  ) {
    self.fileBytes = fileBytes
    self.walBytes = walBytes
    self.pageSize = pageSize
    self.freePages = freePages
    self.objects = objects
    self.sessions = sessions
    self.activity = activity
  }
}

extension StorageStatistics.Session {
  /// The figures of the sessions listed, from their snapshots' sequences (by session) and
  /// sizes: the latest snapshot and the longest run of entries a restore may replay.
  package static func figures(
    _ listed: [SessionInfo],
    snapshots: [SessionID: [Int64]],
    sizes: [SessionID: SessionSize]
  ) -> [StorageStatistics.Session] {
    listed.map { info in
      let sequences = snapshots[info.id] ?? []
      var largestGap: Int64 = 0
      for (a, b) in zip(sequences, sequences.dropFirst()) { largestGap = max(largestGap, b - a) }
      if let latest = sequences.last { largestGap = max(largestGap, info.headSequence - latest) }
      return .init(
        id: info.id, entries: Int64(info.entryCount), headSequence: info.headSequence,
        size: sizes[info.id] ?? .zero, latestSnapshot: sequences.last,
        largestSnapshotGap: largestGap)
    }
  }
}

extension StorageStatistics {
  /// The shortest round interval that splits a span into at most 24 intervals.
  package static func bucketSeconds(spanning span: TimeInterval) -> Int {
    let candidates = [1, 10, 60, 600, 3600, 6 * 3600, 86400, 7 * 86400, 30 * 86400]
    return candidates.first { span / Double($0) < 24 } ?? 365 * 86400
  }}
