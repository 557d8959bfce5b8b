import ConcurrencyExtras
import Foundation
import GRDB

/// A journal of many sessions in one SQLite file: actions, stack rows and snapshots.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "app.sqlite")
/// let initial = try StateEncoding.encode(AppFeature.State())
/// _ = try journal.createSession("user-42", initial: initial, version: 1)
/// let sequence = try await journal.append(
///   session: "user-42", expectedSequence: 0,
///   try JournalEntryDelta(
///     type: "path.push", version: 1, payload: actionJSON, from: initial.stacks,
///     to: StateEncoding.encode(state)))
/// ```
///
/// Opening an existing file checks it before writing anything: its SQLite header and size, then,
/// through a read-only connection, that it is a StackJournal database, not of a newer schema, and
/// that the migrations it records are the ones this build ships. A refused file is left
/// byte-for-byte unchanged. Pending migrations are then applied, each in its own transaction.
///
/// On disk the journal uses a WAL-mode `DatabasePool`: reads never block the writer, and a
/// writer never blocks reads. See `Durability` for what survives a crash.
public final class SQLiteJournal: JournalBackend {
  /// The database file, or `nil` for an in-memory journal.
  public let path: String?
  /// The schema version of the open database.
  public let schemaVersion: Int
  /// The schema version this build writes: the number of embedded migrations.
  public static var latestSchemaVersion: Int { Migration.latestVersion }

  let options: Options
  let database: any DatabaseWriter
  let upcasting: Upcasting
  let batcher: GroupCommitBatcher?
  let gate = JournalGate()
  /// How many appends at ``Durability/full`` are in progress
  /// (``append(session:expectedSequence:_:)``).
  let suspendingAppends = LockIsolated(0)
  /// The shapes of the sessions' stacks at the heads this journal's appends made.
  let headShapes = HeadShapes()
  /// The statements of an append, kept to be found without their SQL.
  let appendStatements = AppendStatements()
  /// The private copy a reader reads when the file's log lacks its index; removed with the
  /// journal.
  let privateCopy: PrivateCopy?
  /// The guard of reads through a connection that takes no lock, when the file was opened so.
  let unlockedReads: UnlockedReads?
  /// How the journal checks stored values and names itself in errors.
  let stored: StoredValues

  /// How durably appends are written, as the options asked.
  public var durability: Durability { options.durability }

  /// The journal writes a snapshot with every entry whose sequence is a multiple of this
  /// (``Options/snapshotInterval``; `JournalBackend.snapshotDue(at:)`).
  public var snapshotInterval: Int { options.snapshotInterval }

  /// Opens the journal at `path`, creating the file when it is missing (unless read-only).
  ///
  /// `path` is a plain path, resolved first to the real file (see ``JournalPath``): through a
  /// symbolic link the journal is the file it points to, with the `-wal` and `-shm` SQLite names
  /// after that file, and a path that starts with `file:` is a file of that name, never an
  /// SQLite URI. ``path`` is the resolved path.
  ///
  /// Throws a `StorageError`: `StorageError.Code.emptyFile`,
  /// `StorageError.Code.notADatabase`, `StorageError.Code.truncated`,
  /// `StorageError.Code.notStackJournal`, `StorageError.Code.newerSchema`,
  /// `StorageError.Code.checksumMismatch`, or `StorageError.Code.olderSchema` when the
  /// options forbid migrating. In each case the file is left unchanged.
  public convenience init(path: String, options: Options = .init()) throws {
    let path = JournalPath.resolve(path)
    let opened = try Self.openFile(path: path, options: options)
    try self.init(
      database: opened.database, path: path, options: options, privateCopy: opened.privateCopy,
      unlockedReads: opened.unlocked.map {
        UnlockedReads(path: path, unlocked: $0, configuration: Self.makeConfiguration(options))
      })
  }

  /// Opens a journal in memory, with the latest schema; it is gone when the journal is.
  public static func inMemory(options: Options = .init()) throws -> SQLiteJournal {
    guard !options.readOnly else {
      throw StorageError(
        code: .readOnly,
        message: "An in-memory journal cannot be read-only: it starts empty. Open a file instead."
      )
    }
    do {
      let queue = try DatabaseQueue(configuration: Self.makeConfiguration(options))
      try SchemaMigrator.migrate(queue, path: nil)
      return try SQLiteJournal(database: queue, path: nil, options: options)
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: nil, doing: "creating the database")
    }
  }

  init(
    database: any DatabaseWriter, path: String?, options: Options,
    privateCopy: PrivateCopy? = nil, unlockedReads: UnlockedReads? = nil
  ) throws {
    self.unlockedReads = unlockedReads
    self.database = database
    self.privateCopy = privateCopy
    self.path = path
    self.stored = .file(path)
    self.options = options
    self.upcasting = Upcasting(
      currentVersion: options.payloadVersion, upcasters: options.upcasters)
    if case .groupCommit(let maxBatch) = options.durability, !options.readOnly {
      self.batcher = GroupCommitBatcher(
        database: database, maxBatch: max(1, maxBatch), path: path, logger: options.logger)
    } else {
      self.batcher = nil
    }
    do {
      self.schemaVersion = try database.read { db in
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
      }
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "reading the schema version")
    }
    logOpened()
  }
}
