import Foundation
import GRDB

extension SQLiteJournal {
  /// What opening a file gives: the connection and, for a reader, the private copy it reads.
  struct OpenedFile {
    var database: any DatabaseWriter
    var privateCopy: PrivateCopy?
    /// How the connection reads without taking part in the log's locks, if it does.
    var unlocked: ReadOnlyAccess.Unlocked?
  }

  /// Validates an existing file without writing to it, then opens it and migrates it; a missing
  /// file is created atomically (see ``JournalFileCreation``), readable by its owner only.
  static func openFile(path: String, options: Options) throws -> OpenedFile {
    try DatabaseFile.checkPath(path)
    let writes = !options.readOnly
    if writes {
      JournalFileCreation.removeLeftovers(of: path)
    }
    if !DatabaseFile.exists(path) {
      guard writes, options.migrate else {
        throw StorageError(
          code: .fileNotFound,
          message: "There is no journal at \(path). A journal opened "
            + (options.readOnly ? "read-only" : "without migrating")
            + " does not create one; check the path.",
          path: path
        )
      }
      try JournalFileCreation.create(
        path: path, configuration: makeConfiguration(options), durability: options.durability,
        logger: options.logger)
    }
    try DatabaseFile.checkHeader(path)
    let configuration = makeConfiguration(options)
    if options.readOnly {
      return try retryingTransientFailures(path: path) {
        try openReader(path: path, options: options, configuration: configuration)
      }
    }
    // Checked as a reader would read it, changing nothing, so a refused file stays as it is.
    let state = try retryingTransientFailures(path: path) {
      let plan = try ReadOnlyAccess.plan(for: path, participating: false)
      return try DatabaseFile.readSchemaState(path, location: plan.location)
    }
    let pending = try state.pending(Migration.all, path: path)
    if !pending.isEmpty, !options.migrate {
      throw olderSchema(path: path, current: state.userVersion, pending: pending)
    }
    try state.checkShape(path: path, forWriting: true)
    try DatabaseFile.checkWritable(path)
    do {
      let pool = try DatabasePool(path: path, configuration: configuration)
      // DatabasePool switches the writer to `synchronous = NORMAL` when it enables WAL, after
      // `prepareDatabase` ran: set the chosen level again.
      try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = \(synchronous(options.durability))")
      }
      if options.migrate {
        try SchemaMigrator.migrate(pool, path: path, logger: options.logger)
      }
      return OpenedFile(database: pool)
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "opening the journal")
    }
  }

  /// Opens an existing file for reading: see ``ReadOnlyAccess``.
  private static func openReader(
    path: String, options: Options, configuration: Configuration
  ) throws -> OpenedFile {
    // See ReadOnlyAccess: no reader creates or rewrites a file beside the journal, except one
    // that waits for new entries (`log --follow`), which takes part in the write-ahead log.
    if options.watchesForWrites { try DatabaseFile.checkLogIndexReachable(path) }
    let plan = try ReadOnlyAccess.plan(for: path, participating: options.watchesForWrites)
    let state = try DatabaseFile.readSchemaState(path, location: plan.location)
    let pending = try state.pending(Migration.all, path: path)
    if !pending.isEmpty {
      throw olderSchema(path: path, current: state.userVersion, pending: pending)
    }
    try state.checkShape(path: path, forWriting: false)
    do {
      let queue = try DatabaseQueue(path: plan.location, configuration: configuration)
      // Read once now, so a file that changes state under the open fails here, where it is
      // retried, rather than in the command's first query.
      _ = try queue.read { try Int.fetchOne($0, sql: "PRAGMA user_version") }
      return OpenedFile(database: queue, privateCopy: plan.privateCopy, unlocked: plan.unlocked)
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "opening the journal")
    }
  }

  /// How many times a reader's open is tried when it meets a passing state, and the pause
  /// before the n-th retry (n × this), about a second in all.
  static let readerAttempts = 12
  static let readerRetryPause: useconds_t = 15_000

  /// Runs `open`, again (within ``readerAttempts``) while it fails in a way a writer opening or
  /// closing the file at that moment causes: its `-wal` and `-shm` appear or vanish between
  /// the look at them and the open (SQLite cannot open the file, or finds it locked, or — read
  /// only — finds a log that only a writer may recover or index), the log changes while it is
  /// copied, or a connection that takes no lock (`immutable`, chosen when
  /// no writer had the file open) reads pages a writer that came since is folding into the file
  /// (SQLite calls them malformed). A file that did not change during the attempt, with no log
  /// beside it, is reported malformed at once.
  static func retryingTransientFailures<T>(path: String, _ open: () throws -> T) throws -> T {
    var attempt = 1
    while true {
      let before = UnlockedReads.Identity(path)
      do {
        return try open()
      } catch let error as StorageError
        where attempt < readerAttempts
        && (isTransient(error) || error.code == .corrupt && isChanging(path, since: before))
      {
        usleep(readerRetryPause * useconds_t(attempt))
        attempt += 1
      }
    }
  }

  /// Whether a writer is at work on the file: it changed since `before`, or a log lies beside it.
  private static func isChanging(_ path: String, since before: UnlockedReads.Identity?) -> Bool {
    UnlockedReads.Identity(path) != before || DatabaseFile.status(path + "-wal") != nil
  }

  static func isTransient(_ error: StorageError) -> Bool {
    if error.code == .busy { return true }
    // A read-only connection that meets a log a writer is opening or closing: it would need to
    // recover the log or set up its index, which only a writer may do.
    if error.code == .readOnly {
      guard let database = error.underlying as? DatabaseError else { return false }
      return database.extendedResultCode == .SQLITE_READONLY_RECOVERY
        || database.extendedResultCode == .SQLITE_READONLY_CANTINIT
    }
    guard error.code == .io else { return false }
    guard let database = error.underlying as? DatabaseError else { return true }
    return database.resultCode == .SQLITE_CANTOPEN || database.resultCode == .SQLITE_IOERR
  }

  static func makeConfiguration(_ options: Options) -> Configuration {
    var configuration = Configuration()
    configuration.label = "StackJournal"
    configuration.readonly = options.readOnly
    configuration.busyMode = .timeout(10)
    let level = synchronous(options.durability)
    let trace = options.statementTrace
    configuration.prepareDatabase { db in
      if let trace {
        db.trace { event in
          if case .statement(let statement) = event { trace(statement.sql) }
        }
      }
      try db.execute(sql: "PRAGMA synchronous = \(level)")
    }
    return configuration
  }

  /// The `PRAGMA synchronous` level of a durability mode.
  static func synchronous(_ durability: Durability) -> String {
    switch durability {
    case .full, .groupCommit: "FULL"
    case .normal: "NORMAL"
    }
  }

  static func olderSchema(path: String, current: Int, pending: [Migration]) -> StorageError {
    StorageError(
      code: .olderSchema,
      message: "The file \(path) has schema version \(current) and needs the migrations "
        + "\(pending.map(\.name).joined(separator: ", ")) to reach version "
        + "\(Migration.latestVersion). It was left unchanged; run "
        + "`stackjournal migrate --db \(path)` first.",
      path: path
    )
  }
}

extension SQLiteJournal {
  /// The schema version of the file at `path`, the version this build writes, and the names of
  /// the migrations opening it would apply, for `stackjournal migrate --dry-run`.
  ///
  /// Read-only: the file is checked as ``init(path:options:)`` checks it, and never changed.
  /// Throws `StorageError.Code.fileNotFound` for a missing file, and the errors of opening for
  /// a file that cannot be migrated.
  public static func pendingMigrations(at path: String) throws -> (
    current: Int, target: Int, pending: [String]
  ) {
    guard DatabaseFile.exists(path) else {
      throw StorageError(
        code: .fileNotFound,
        message: "There is no journal at \(path); check the path.",
        path: path
      )
    }
    try DatabaseFile.checkHeader(path)
    let state = try retryingTransientFailures(path: path) {
      let plan = try ReadOnlyAccess.plan(for: path, participating: false)
      return try DatabaseFile.readSchemaState(path, location: plan.location)
    }
    let pending = try state.pending(Migration.all, path: path)
    try state.checkShape(path: path, forWriting: true)
    return (state.userVersion, Migration.latestVersion, pending.map(\.name))
  }
}
