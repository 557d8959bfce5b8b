import Foundation
import GRDB
import GRDBSQLite

/// A read-only SQLite connection that leaves the file and its directory untouched, used to check
/// a file before anything opens it for writing.
///
/// When no `-wal` or `-shm` file lies next to the file, no writer has it open: it is opened
/// `immutable`, and SQLite then takes no lock and creates no `-wal` or `-shm` file next to it.
/// Otherwise (another process has it open, or one crashed) it is opened plainly read-only, so
/// the log is read too and the writer's locks are honoured.
final class ReadOnlyConnection {
  private var handle: OpaquePointer?
  let path: String

  /// The SQLite URI that opens `path` read-only, and `immutable` when asked.
  static func uri(path: String, immutable: Bool) -> String {
    uri(path: path, parameters: immutable ? "&immutable=1" : "")
  }

  /// The SQLite URI that opens `path` read-only with more URI parameters (`&name=value`).
  static func uri(path: String, parameters: String) -> String {
    let escaped = path.replacingOccurrences(of: "%", with: "%25")
      .replacingOccurrences(of: "?", with: "%3F").replacingOccurrences(of: "#", with: "%23")
    return "file:\(escaped)?mode=ro" + parameters
  }

  /// Whether connections opened without `SQLITE_OPEN_URI` (GRDB's) still read URIs: SQLite
  /// built with `SQLITE_USE_URI`, as Debian's and Ubuntu's are.
  static var urisAlwaysEnabled: Bool {
    sqlite3_compileoption_used("USE_URI") != 0
  }

  /// Whether neither a `-wal` nor a `-shm` file lies next to the file, so it may be opened
  /// `immutable`: no writer has it open, and nothing waits to be checkpointed.
  ///
  /// An empty `-wal` is not enough: a writer that has not written yet, or whose checkpoint
  /// emptied the log, leaves it empty, and an `immutable` reader takes no locks, so it would
  /// read the pages that writer changes later, half-written ones included. A writer in WAL
  /// mode keeps its `-shm` for as long as it has the file open; the last one to close it
  /// removes both files.
  static func hasNoLogFiles(_ path: String) -> Bool {
    !FileManager.default.fileExists(atPath: path + "-wal")
      && !FileManager.default.fileExists(atPath: path + "-shm")
  }

  convenience init(path: String, immutable: Bool) throws {
    try self.init(path: path, uri: Self.uri(path: path, immutable: immutable))
  }

  init(path: String, uri: String) throws {
    self.path = path
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(uri, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) }
      sqlite3_close(handle)
      throw Self.error(code, message)
    }
    self.handle = handle
    sqlite3_busy_timeout(handle, 5000)
  }

  deinit {
    sqlite3_close(handle)
  }

  /// Every row of a query, each column as text (`nil` for NULL).
  func rows(_ sql: String) throws -> [[String?]] {
    var statement: OpaquePointer?
    var code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    guard code == SQLITE_OK, let statement else { throw lastError(code) }
    var rows: [[String?]] = []
    while true {
      code = sqlite3_step(statement)
      if code == SQLITE_DONE { return rows }
      guard code == SQLITE_ROW else { throw lastError(code) }
      rows.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_text(statement, column).map { String(cString: $0) }
        })
    }
  }

  /// The error of a failed call, with SQLite's extended code when the connection has one (say,
  /// `SQLITE_READONLY_RECOVERY`: the log needs a writer's recovery first).
  private func lastError(_ code: CInt) -> DatabaseError {
    let extended = handle.map { sqlite3_extended_errcode($0) } ?? code
    return Self.error(
      extended & 0xFF == code & 0xFF ? extended : code,
      handle.map { String(cString: sqlite3_errmsg($0)) })
  }

  private static func error(_ code: CInt, _ message: String?) -> DatabaseError {
    DatabaseError(resultCode: ResultCode(rawValue: code), message: message)
  }
}
