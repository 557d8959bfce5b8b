import Foundation
import GRDB

extension SQLiteJournal {
  /// Validates an existing file without writing to it, then opens it and migrates it.
  static func openFile(path: String, options: Options) throws -> any DatabaseWriter {
    if DatabaseFile.exists(path) {
      try DatabaseFile.checkHeader(path)
      let state = try DatabaseFile.readSchemaState(path)
      let pending = try state.pending(Migration.all, path: path)
      if !pending.isEmpty, options.readOnly || !options.migrate {
        throw olderSchema(path: path, current: state.userVersion, pending: pending)
      }
    } else if options.readOnly || !options.migrate {
      throw StorageError(
        code: .fileNotFound,
        message: "There is no journal at \(path). A journal opened "
          + (options.readOnly ? "read-only" : "without migrating")
          + " does not create one; check the path.",
        path: path
      )
    }
    let configuration = makeConfiguration(options)
    do {
      if options.readOnly {
        // With no writer on the file (no `-wal` nor `-shm` beside it), open it `immutable`:
        // SQLite then creates no file beside it. With a writer, or a log left by one, and for
        // a reader that waits for new entries, open it plainly read-only, taking the locks
        // that keep a writer's checkpoint from changing pages under a read.
        let immutable =
          !options.watchesForWrites && ReadOnlyConnection.hasNoLogFiles(path)
          && ReadOnlyConnection.urisAlwaysEnabled
        return try DatabaseQueue(
          path: immutable ? ReadOnlyConnection.uri(path: path, immutable: true) : path,
          configuration: configuration)
      }
      let pool = try DatabasePool(path: path, configuration: configuration)
      // DatabasePool switches the writer to `synchronous = NORMAL` when it enables WAL, after
      // `prepareDatabase` ran: set the chosen level again.
      try pool.writeWithoutTransaction { db in
        try db.execute(sql: "PRAGMA synchronous = \(synchronous(options.durability))")
      }
      if options.migrate {
        try SchemaMigrator.migrate(pool, path: path)
      }
      return pool
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "opening the journal")
    }
  }

  static func makeConfiguration(_ options: Options) -> Configuration {
    var configuration = Configuration()
    configuration.label = "StackJournal"
    configuration.readonly = options.readOnly
    configuration.busyMode = .timeout(10)
    let level = synchronous(options.durability)
    configuration.prepareDatabase { db in
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
        + "\(Migration.latestVersion). It was left unchanged; run `stackjournal migrate \(path)` "
        + "first.",
      path: path
    )
  }
}
