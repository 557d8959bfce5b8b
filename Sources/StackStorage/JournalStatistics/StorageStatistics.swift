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
