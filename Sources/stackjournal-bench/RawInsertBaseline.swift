import Foundation
import GRDB
import GRDBSQLite

/// The baseline: the journal's own rows inserted into a table of the same schema with a raw
/// SQLite prepared `INSERT`, in a separate database with WAL and `synchronous = FULL`, one
/// transaction per insert. What the journal costs above that is its own work.
final class RawInsertBaseline {
  /// One row of the `journal` table, as the journal stored it.
  struct Row {
    var session: String
    var sequence: Int64
    var recordedAt: String
    var type: String
    var version: Int64
    var payload: String
    var delta: String
  }

  private var handle: OpaquePointer?
  private var statement: OpaquePointer?

  /// Creates a database at `path` with the `sessions` and `journal` tables of the journal at
  /// `journalPath` (same statements, same indexes) and the given sessions.
  init(path: String, schemaOf journalPath: String, sessions: [String]) throws {
    let schema = try Self.readOnly(journalPath) { db in
      try String.fetchAll(
        db,
        sql: "SELECT sql FROM sqlite_master WHERE name IN ('sessions', 'journal', "
          + "'journal_by_time') ORDER BY type DESC, name DESC")
    }
    try check(
      sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil))
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = FULL")
    try execute("PRAGMA foreign_keys = ON")
    for statement in schema { try execute(statement) }
    for session in sessions {
      try execute(
        "INSERT INTO sessions (id, created_at) VALUES ('\(session)', '2025-01-01T00:00:00.000Z')")
    }
    try check(
      sqlite3_prepare_v2(
        handle,
        "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta) "
          + "VALUES (?, ?, ?, ?, ?, ?, ?)",
        -1, &statement, nil))
  }

  deinit {
    sqlite3_finalize(statement)
    sqlite3_close(handle)
  }

  /// Inserts `rows`, one transaction each, and returns the seconds it took.
  func insert(_ rows: [Row]) throws -> Double {
    let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    return try Report.seconds {
      for row in rows {
        sqlite3_bind_text(statement, 1, row.session, -1, transient)
        sqlite3_bind_int64(statement, 2, row.sequence)
        sqlite3_bind_text(statement, 3, row.recordedAt, -1, transient)
        sqlite3_bind_text(statement, 4, row.type, -1, transient)
        sqlite3_bind_int64(statement, 5, row.version)
        sqlite3_bind_text(statement, 6, row.payload, -1, transient)
        sqlite3_bind_text(statement, 7, row.delta, -1, transient)
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        if code != SQLITE_DONE { try check(code) }
      }
    }
  }

  /// The rows the journal at `path` stored for `session` in a range of sequences.
  static func rows(
    of path: String,
    session: String,
    sequences: ClosedRange<Int64>
  ) throws -> [Row] {
    try readOnly(path) { db in
      try GRDB.Row.fetchAll(
        db,
        sql: "SELECT session, sequence, recorded_at, type, version, payload, delta FROM journal "
          + "WHERE session = ? AND sequence BETWEEN ? AND ? ORDER BY sequence",
        arguments: [session, sequences.lowerBound, sequences.upperBound]
      ).map { row in
        Row(
          session: row[0], sequence: row[1], recordedAt: row[2], type: row[3], version: row[4],
          payload: row[5], delta: row[6])
      }
    }
  }

  /// The average size in bytes of the rows' payload and delta.
  static func averageSizes(_ rows: [Row]) -> (payload: Int, delta: Int) {
    guard !rows.isEmpty else { return (0, 0) }
    return (
      rows.map(\.payload.utf8.count).reduce(0, +) / rows.count,
      rows.map(\.delta.utf8.count).reduce(0, +) / rows.count
    )
  }

  private static func readOnly<T>(_ path: String, _ body: (Database) throws -> T) throws -> T {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read(body)
  }

  private func execute(_ sql: String) throws {
    try check(sqlite3_exec(handle, sql, nil, nil, nil))
  }

  private func check(_ code: CInt) throws {
    guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: handle.map { String(cString: sqlite3_errmsg($0)) })
    }
  }
}
