import Foundation
import GRDB

extension SQLiteJournal {
  /// Runs `body` in a read transaction, turning SQLite errors into ``StorageError``s.
  func read<T>(_ activity: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
    guard let unlockedReads else {
      return try usingDatabase(activity()) { try database.read(body) }
    }
    return try unlockedReads.read(database) {
      try usingDatabase(activity()) { try database.read(body) }
    }
  }

  /// Runs `body` in a write transaction, turning SQLite errors into ``StorageError``s.
  func write<T>(_ activity: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
    try requireWritable(activity())
    return try usingDatabase(activity()) { try database.write(body) }
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
  func usingDatabase<T>(_ activity: String, _ body: () async throws -> T) async throws -> T {
    try enter(activity)
    defer { gate.leave() }
    do {
      return try await body()
    } catch let error as DatabaseError {
      throw StorageError(databaseError: error, path: path, doing: activity)
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
  /// ``StorageError/Code/closed``; closing again does nothing.
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

  /// The SQL of a session's head, for a query on `sessions s`: the greater of the head it was
  /// created, imported or compacted at and its last journal entry. Appends do not update the
  /// session row (schema version 2), so an append writes one page less.
  static let headColumn =
    "max(s.head_sequence, coalesce((SELECT max(j.sequence) FROM journal j "
    + "WHERE j.session = s.id), 0))"

  /// The head sequence of a session, or a ``StorageError/Code/unknownSession`` error; when
  /// `bounded`, an ``StorageError/Code/invalidData`` error for a head beyond
  /// ``SessionCheck/maximumSequence`` (only a hand edit puts one there; `verify` reports it).
  func requireHead(_ db: Database, _ session: SessionID, bounded: Bool = true) throws -> Int64 {
    let statement = try db.cachedStatement(
      sql: "SELECT \(Self.headColumn) FROM sessions s WHERE s.id = ?")
    guard let head = try Int64.fetchOne(statement, arguments: [session.rawValue]) else {
      throw stored.unknownSession(session)
    }
    return bounded ? try boundedHead(head, session) : head
  }

  /// `head`, or an ``StorageError/Code/invalidData`` error for a head beyond
  /// ``SessionCheck/maximumSequence``.
  func boundedHead(_ head: Int64, _ session: SessionID) throws -> Int64 {
    guard head <= SessionCheck.maximumSequence else {
      throw StorageError(
        code: .invalidData,
        message: "Session \(session) has the head sequence \(head), beyond "
          + "\(SessionCheck.maximumSequence), the largest a journal holds: a row was edited by "
          + "hand. Nothing was changed; run `\(stored.verifyCommand)`.",
        path: path)
    }
    return head
  }
}
