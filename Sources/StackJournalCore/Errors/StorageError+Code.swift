extension StorageError {
  /// The kind of a ``StorageError``. New codes may be added; switch with a `default` case.
  public struct Code: Hashable, Sendable {
    /// The code's name, e.g. `sequenceConflict`.
    public let name: String

    /// Creates a code with a name.
    public init(_ name: String) {
      self.name = name
    }

    /// The file is not an SQLite database.
    public static let notADatabase = Code("notADatabase")
    /// The file is an SQLite database, but not a StackJournal database.
    public static let notStackJournal = Code("notStackJournal")
    /// The file exists but is empty.
    public static let emptyFile = Code("emptyFile")
    /// The file is shorter than its SQLite header says.
    public static let truncated = Code("truncated")
    /// SQLite reports the file as damaged, or its schema record is inconsistent.
    public static let corrupt = Code("corrupt")
    /// The file does not exist and may not be created.
    public static let fileNotFound = Code("fileNotFound")
    /// The database was written by a newer schema version than this build knows.
    public static let newerSchema = Code("newerSchema")
    /// The database needs migrations this journal was told not to apply.
    public static let olderSchema = Code("olderSchema")
    /// The file's schema is not the one its migrations made: a trigger, view, index or table
    /// was added, changed or replaced by hand.
    public static let alteredSchema = Code("alteredSchema")
    /// A recorded migration's checksum differs from this build's file of that migration.
    public static let checksumMismatch = Code("checksumMismatch")
    /// An append's expected sequence is not the session's head: another writer appended first.
    public static let sequenceConflict = Code("sequenceConflict")
    /// No session has that identifier.
    public static let unknownSession = Code("unknownSession")
    /// A session identifier that may not be written: empty, too long, or not printable text.
    public static let invalidSessionID = Code("invalidSessionID")
    /// A session with that identifier already exists.
    public static let sessionExists = Code("sessionExists")
    /// A sequence or date lies outside the session's journal.
    public static let sequenceOutOfRange = Code("sequenceOutOfRange")
    /// A payload's version is newer than the app's current version.
    public static let newerPayloadVersion = Code("newerPayloadVersion")
    /// An upcaster threw while turning an old payload into the current one.
    public static let upcastFailed = Code("upcastFailed")
    /// A write was attempted on a journal opened read-only.
    public static let readOnly = Code("readOnly")
    /// A stack delta does not fit the stacks it is applied to.
    public static let inconsistentDelta = Code("inconsistentDelta")
    /// A stack would hold more elements than ``StackRecord/maximumElements``.
    public static let stackTooLarge = Code("stackTooLarge")
    /// Two stacks of one state render to the same path.
    public static let duplicateStackPath = Code("duplicateStackPath")
    /// A stored or given value cannot be read: JSON that is not UTF-8, a malformed time, ….
    public static let invalidData = Code("invalidData")
    /// A time outside what the stored form orders, years 0000 through 9999 in UTC
    /// (``Timestamp/isStorable(_:)``).
    public static let timeOutOfRange = Code("timeOutOfRange")
    /// A session has no snapshot to start rebuilding from.
    public static let snapshotMissing = Code("snapshotMissing")
    /// The database is locked by another connection for longer than the busy timeout.
    public static let busy = Code("busy")
    /// Reading or writing the file failed: disk full, permissions, missing directory, ….
    public static let io = Code("io")
    /// The disk (or the database's size limit) is full; the write was rolled back.
    public static let diskFull = Code("diskFull")
    /// Another SQLite error.
    public static let database = Code("database")
    /// A database server could not be reached: nothing listens there, or the network failed.
    public static let connectionRefused = Code("connectionRefused")
    /// A database server refused the user name or password.
    public static let authenticationFailed = Code("authenticationFailed")
    /// A database server has no database of that name.
    public static let databaseNotFound = Code("databaseNotFound")
    /// The connection to a database server broke during an operation (a server restart, say):
    /// its outcome is unknown; the next operation connects again.
    public static let connectionLost = Code("connectionLost")
    /// A database server gave no connection within the journal's timeout.
    public static let timedOut = Code("timedOut")
    /// The journal was closed; open it again to go on.
    public static let closed = Code("closed")
    /// Another process changed the rows a read of several steps was reading (a `compact` or a
    /// `prune` committed between two of its steps), so what it read is not one state of the
    /// journal; nothing was changed, and reading again reads the journal as it is now.
    public static let changedDuringRead = Code("changedDuringRead")
  }
}

extension StorageError.Code: CustomStringConvertible {
  /// The code's name.
  public var description: String { name }
}
