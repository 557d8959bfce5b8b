import Foundation
import GRDB

extension SQLiteJournal {
  /// Runs `body` in a read transaction, turning SQLite errors into ``StorageError``s.
  func read<T>(_ activity: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
    guard let unlockedReads else {
      return try usingDatabase(activity()) { try database.read(body) }
    }
    return try unlockedReads.read(database) { reader in
      try usingDatabase(activity()) { try reader.read(body) }
    }
  }

  /// Runs `body` in a write transaction, turning SQLite errors into ``StorageError``s.
  ///
  /// Forgets the stack shapes kept since the last appends (``HeadShapes``): whatever `body`
  /// writes, the next append reads the rows.
  func write<T>(_ activity: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
    try write(activity(), forgetting: nil, body)
  }

  /// ``write(_:_:)`` for a write that changes no session's rows but `session`'s, which it
  /// creates: only that session's kept shapes are forgotten (`nil`: every session's).
  func write<T>(
    _ activity: @autoclosure () -> String, forgetting session: SessionID?,
    _ body: (Database) throws -> T
  ) throws -> T {
    try requireWritable(activity())
    return try usingDatabase(activity()) {
      try database.write { db in
        // Forgotten in the transaction, where appends take their turns: an append that began
        // before it keeps nothing (its ticket is gone), and one that begins after it reads the
        // rows it wrote.
        if let session { headShapes.forget(session) } else { headShapes.forgetAll() }
        return try body(db)
      }
    }
  }

  /// Runs `body`, which uses the database, while the journal is open (``close()`` waits for it),
  /// turning SQLite errors into ``StorageError``s; throws ``StorageError/Code/closed`` after
  /// ``close()``.
  func usingDatabase<T>(_ activity: @autoclosure () -> String, _ body: () throws -> T) throws
    -> T
  {
    try enter(activity())
    defer { gate.leave() }
    do {
      return try body()
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: activity())
    }
  }

  /// ``usingDatabase(_:_:)`` for a body that suspends.
  func usingDatabase<T>(
    _ activity: @autoclosure () -> String, _ body: () async throws -> T
  ) async throws -> T {
    try enter(activity())
    defer { gate.leave() }
    do {
      return try await body()
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: activity())
    }
  }

  /// Counts a use of the database in, or throws ``StorageError/Code/closed``; balance it with
  /// `gate.leave()`.
  private func enter(_ activity: @autoclosure () -> String) throws {
    guard gate.enter() else {
      throw StorageError(
        code: .closed,
        message: "The journal at \(path ?? "memory") was closed before \(activity()). Open it "
          + "again to go on.",
        path: path
      )
    }
  }

  /// Closes the journal: waits for the calls in progress (a group commit's batch included) to
  /// finish, then closes the database's connections. Calls made after it throw
  /// `StorageError.Code.closed`; closing again does nothing.
  ///
  /// Throws when SQLite cannot close a connection; the journal is closed for calls anyway.
  public func close() throws {
    guard gate.close() else { return }
    do {
      // A pool closes its writer before its readers, and SQLite folds the write-ahead log into
      // the file only when the last connection to close can write: close the readers first, so
      // the writer is last and a closed journal leaves no log behind.
      if let pool = database as? DatabasePool { pool.releaseMemory() }
      try database.close()
      logClosed()
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: "closing the journal")
    }
  }

  func requireWritable(_ activity: @autoclosure () -> String) throws {
    guard options.readOnly else { return }
    throw StorageError(
      code: .readOnly,
      message: "Cannot write while \(activity()): the journal at \(path ?? "memory") was opened "
        + "read-only. Open it without `readOnly` to write.",
      path: path
    )
  }
}
