import Foundation
import GRDB
import GRDBSQLite

/// The baseline: the journal's own rows inserted into a table of the same schema with a raw
/// SQLite prepared `INSERT`, in a separate database with WAL and `synchronous = FULL`, one
/// transaction per insert. What the journal costs above that is its own work.
enum RawInsertBaseline {
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

  /// The `CREATE` statements of the journal's `sessions` and `journal` tables and the rows it
  /// wrote, read back from its file.
  static func read(journalAt path: String, limit: Int) throws -> (schema: [String], rows: [Row]) {
    var configuration = Configuration()
    configuration.readonly = true
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    defer { try? queue.close() }
    return try queue.read { db in
      let schema = try String.fetchAll(
        db,
        sql: "SELECT sql FROM sqlite_master WHERE name IN ('sessions', 'journal', "
          + "'journal_by_time') ORDER BY type DESC, name DESC")
      let rows = try GRDB.Row.fetchAll(
        db,
        sql: "SELECT session, sequence, recorded_at, type, version, payload, delta FROM journal "
          + "ORDER BY rowid LIMIT ?",
        arguments: [limit]
      ).map { row in
        Row(
          session: row[0], sequence: row[1], recordedAt: row[2], type: row[3], version: row[4],
          payload: row[5], delta: row[6])
      }
      return (schema, rows)
    }
  }

  /// Inserts `rows` one transaction each into a new database at `path` and returns the seconds
  /// the inserts took (setup excluded).
  static func insert(_ rows: [Row], schema: [String], at path: String) throws -> Double {
    var handle: OpaquePointer?
    try check(
      sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil), handle)
    defer { sqlite3_close(handle) }
    try execute(handle, "PRAGMA journal_mode = WAL")
    try execute(handle, "PRAGMA synchronous = FULL")
    try execute(handle, "PRAGMA foreign_keys = ON")
    for statement in schema { try execute(handle, statement) }
    for session in Set(rows.map(\.session)) {
      try execute(
        handle,
        "INSERT INTO sessions (id, created_at) VALUES ('\(session)', '2025-01-01T00:00:00.000Z')")
    }

    var statement: OpaquePointer?
    try check(
      sqlite3_prepare_v2(
        handle,
        "INSERT INTO journal (session, sequence, recorded_at, type, version, payload, delta) "
          + "VALUES (?, ?, ?, ?, ?, ?, ?)",
        -1, &statement, nil),
      handle)
    defer { sqlite3_finalize(statement) }
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
        if code != SQLITE_DONE { try check(code, handle) }
        sqlite3_reset(statement)
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

  private static func execute(_ handle: OpaquePointer?, _ sql: String) throws {
    try check(sqlite3_exec(handle, sql, nil, nil, nil), handle)
  }

  private static func check(_ code: CInt, _ handle: OpaquePointer?) throws {
    guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
      throw DatabaseError(
        resultCode: ResultCode(rawValue: code),
        message: handle.map { String(cString: sqlite3_errmsg($0)) })
    }
  }
}
