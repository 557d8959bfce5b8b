import Foundation

/// Which entries of a session `SQLiteJournal.journalRows(session:matching:_:)` reads.
///
/// Every filter is optional and they combine: an entry is read when it passes all of them.
public struct JournalQuery: Sendable, Equatable {
  /// The first sequence to read (inclusive).
  public var fromSequence: Int64?
  /// The last sequence to read (inclusive).
  public var toSequence: Int64?
  /// Only entries recorded at or after this time.
  public var since: Date?
  /// Only entries recorded at or before this time.
  public var until: Date?
  /// Only entries whose type matches this SQLite `GLOB` pattern (`*`, `?`, `[…]`;
  /// case-sensitive).
  public var typeGlob: String?
  /// Only the last `last` matching entries (the newest ones).
  public var last: Int?
  /// Read newest first instead of oldest first.
  public var newestFirst: Bool

  /// Creates a query; with no arguments it reads the whole journal, oldest first.
  public init(
    fromSequence: Int64? = nil,
    toSequence: Int64? = nil,
    since: Date? = nil,
    until: Date? = nil,
    typeGlob: String? = nil,
    last: Int? = nil,
    newestFirst: Bool = false
  ) {
    self.fromSequence = fromSequence
    self.toSequence = toSequence
    self.since = since
    self.until = until
    self.typeGlob = typeGlob
    self.last = last
    self.newestFirst = newestFirst
  }
}
