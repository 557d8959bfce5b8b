import Foundation
import GRDB

extension SQLiteJournal {
  /// Runs `body` in a read transaction, turning SQLite errors into ``StorageError``s.
  func read<T>(_ activity: @autoclosure () -> String, _ body: (Database) throws -> T) throws -> T {
    try usingDatabase(activity()) { try database.read(body) }
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
      try database.close()
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

  /// The head sequence of a session, or a ``StorageError/Code/unknownSession`` error.
  func requireHead(_ db: Database, _ session: SessionID) throws -> Int64 {
    let statement = try db.cachedStatement(
      sql: "SELECT \(Self.headColumn) FROM sessions s WHERE s.id = ?")
    guard let head = try Int64.fetchOne(statement, arguments: [session.rawValue]) else {
      throw unknownSession(session)
    }
    return head
  }

  func unknownSession(_ session: SessionID) -> StorageError {
    StorageError(
      code: .unknownSession,
      message: "There is no session \(session) in \(path ?? "the in-memory journal"). List the "
        + "sessions to find its identifier, or create it first.",
      path: path
    )
  }

  func outOfRange(_ session: SessionID, _ sequence: Int64, head: Int64) -> StorageError {
    StorageError(
      code: .sequenceOutOfRange,
      message: "Session \(session) has no sequence \(sequence): its journal runs from 0 to "
        + "\(head).",
      path: path
    )
  }

  /// The UTF-8 text of JSON bytes, or an ``StorageError/Code/invalidData`` error when they are
  /// not UTF-8 or not one JSON value.
  ///
  /// Stored JSON is spliced as it is into exports and the CLI's JSON output, so text that is not
  /// JSON is refused before it is written.
  func text(_ json: Data, _ what: @autoclosure () -> String) throws -> String {
    guard let text = JSONText.text(json) else {
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) is not UTF-8 text; a journal stores JSON as text. Encode it with "
          + "JSONEncoder.",
        path: path
      )
    }
    guard JSONText.isJSON(json) else {
      let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) is not JSON: `\(shown)`. A journal stores JSON, which exports "
          + "and `--json` output copy as it is; encode it with JSONEncoder. Nothing was written.",
        path: path
      )
    }
    return text
  }

  /// The date of a stored time, or an ``StorageError/Code/invalidData`` error.
  func date(_ text: String, _ what: @autoclosure () -> String) throws -> Date {
    guard let date = Timestamp.date(from: text) else {
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) is `\(text)`, not a time in the form 2025-01-31T09:30:00.000Z. "
          + "The row was left as it is.",
        path: path
      )
    }
    return date
  }

  /// Decodes a stored JSON column, or throws an ``StorageError/Code/invalidData`` error.
  func decode<T: Decodable>(_ type: T.Type, _ text: String, _ what: @autoclosure () -> String)
    throws -> T
  {
    do {
      return try JSONDecoder().decode(type, from: Data(text.utf8))
    } catch {
      throw StorageError(
        code: .invalidData,
        message: "The \(what()) cannot be read. The row was left as it is; run "
          + "`stackjournal verify --db \(path ?? "PATH")`.",
        path: path,
        underlying: error
      )
    }
  }
}
