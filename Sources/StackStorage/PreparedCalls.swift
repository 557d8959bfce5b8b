import GRDB
import GRDBSQLite

/// A value bound to a statement's parameter with SQLite's own calls.
enum BoundValue {
  case text(String)
  case integer(Int64)
  case null

  /// Text, or NULL for `nil`.
  static func textOrNull(_ text: String?) -> BoundValue {
    text.map { .text($0) } ?? .null
  }
}

/// The statements an append runs, on statements GRDB prepared once per connection
/// (`cachedStatement`), bound and stepped with SQLite's own calls.
///
/// An append runs a handful of statements on every action. GRDB's `execute(arguments:)` builds,
/// checks and copies a `StatementArguments` on each call, and GRDB's `inTransaction` and
/// `inSavepoint` prepare their `BEGIN`, `COMMIT`, `SAVEPOINT` and `RELEASE` text again each
/// time; together they cost more instructions than the rest of the append's SQL. These calls
/// skip that work and nothing else: errors are GRDB's `DatabaseError`s, turned into
/// ``StorageError``s as every other, and the statements stay in GRDB's cache.
extension Database {
  /// Runs `sql` to its end with `values` bound to its parameters.
  func run(_ sql: String, _ values: BoundValue...) throws {
    let statement = try cachedStatement(sql: sql)
    let handle = try bind(statement, values)
    defer { sqlite3_reset(handle) }
    while true {
      let code = sqlite3_step(handle)
      if code == SQLITE_DONE { return }
      if code != SQLITE_ROW { throw failure(code, statement) }
    }
  }

  /// Reads the first row of `sql` with `values` bound, through `read` (given the statement,
  /// positioned on the row); `nil` when there is no row.
  func first<T>(
    _ sql: String, _ values: BoundValue..., read: (ColumnReader) -> T
  ) throws -> T? {
    let statement = try cachedStatement(sql: sql)
    let handle = try bind(statement, values)
    defer { sqlite3_reset(handle) }
    let code = sqlite3_step(handle)
    if code == SQLITE_DONE { return nil }
    if code != SQLITE_ROW { throw failure(code, statement) }
    return read(ColumnReader(handle: handle))
  }

  /// Runs `body` in an immediate transaction, committed when it returns and rolled back when it
  /// throws (or when the commit fails).
  func inImmediateTransaction<T>(_ body: () throws -> T) throws -> T {
    try run("BEGIN IMMEDIATE TRANSACTION")
    do {
      let result = try body()
      try run("COMMIT TRANSACTION")
      return result
    } catch {
      // Unless SQLite rolled it back already (after SQLITE_FULL, say).
      if isInsideTransaction { try? run("ROLLBACK TRANSACTION") }
      throw error
    }
  }

  /// Runs `body` under a savepoint of the current transaction: released when it returns, rolled
  /// back to (leaving the transaction's earlier work) when it throws.
  func inAppendSavepoint<T>(_ body: () throws -> T) throws -> T {
    try run("SAVEPOINT append")
    do {
      let result = try body()
      try run("RELEASE SAVEPOINT append")
      return result
    } catch {
      // An error such as SQLITE_FULL can roll the whole transaction back; then there is no
      // savepoint left to go back to, and the transaction's own rollback reports it.
      if !isInsideTransaction { throw error }
      try? run("ROLLBACK TRANSACTION TO SAVEPOINT append")
      try? run("RELEASE SAVEPOINT append")
      throw error
    }
  }

  private func bind(_ statement: Statement, _ values: [BoundValue]) throws -> OpaquePointer {
    let handle = statement.sqliteStatement
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      let code: Int32
      switch value {
      case .integer(let integer):
        code = sqlite3_bind_int64(handle, position, integer)
      case .null:
        code = sqlite3_bind_null(handle, position)
      case .text(var text):
        code = text.withUTF8 { bytes in
          // An empty buffer may have no address, which SQLite would bind as NULL.
          guard let base = bytes.baseAddress, !bytes.isEmpty else {
            return sqlite3_bind_text(handle, position, "", 0, transient)
          }
          return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
            sqlite3_bind_text(handle, position, $0, Int32(bytes.count), transient)
          }
        }
      }
      if code != SQLITE_OK { throw failure(code, statement) }
    }
    return handle
  }

  private func failure(_ code: Int32, _ statement: Statement) -> DatabaseError {
    DatabaseError(
      resultCode: ResultCode(rawValue: code),
      message: String(cString: sqlite3_errmsg(sqliteConnection)),
      sql: statement.sql)
  }
}

/// SQLite copies a value bound with this destructor before the bind call returns.
private let transient = unsafeBitCast(
  OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)

/// The columns of the row a statement is on.
struct ColumnReader {
  let handle: OpaquePointer

  /// The text of column `index`, or `nil` for NULL.
  func text(_ index: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, index) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The integer of column `index`.
  func integer(_ index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }
}
