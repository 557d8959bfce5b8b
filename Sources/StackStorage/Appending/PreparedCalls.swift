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
    try run(cachedStatement(sql: sql), values)
  }

  /// ``run(_:_:)`` with the statement `statements` keeps for `slot` (GRDB's cached one when
  /// `statements` is nil).
  func run(
    _ sql: @autoclosure () -> String, _ slot: AppendStatements.Slot,
    in statements: AppendStatements?, _ values: BoundValue...
  ) throws {
    try run(statement(sql, slot, in: statements), values)
  }

  private func run(_ statement: Statement, _ values: [BoundValue]) throws {
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
    try first(cachedStatement(sql: sql), values, read: read)
  }

  /// ``first(_:_:read:)`` with the statement `statements` keeps for `slot`.
  func first<T>(
    _ sql: @autoclosure () -> String, _ slot: AppendStatements.Slot,
    in statements: AppendStatements, _ values: BoundValue..., read: (ColumnReader) -> T
  ) throws -> T? {
    try first(statement(sql, slot, in: statements), values, read: read)
  }

  private func first<T>(
    _ statement: Statement, _ values: [BoundValue], read: (ColumnReader) -> T
  ) throws -> T? {
    let handle = try bind(statement, values)
    defer { sqlite3_reset(handle) }
    let code = sqlite3_step(handle)
    if code == SQLITE_DONE { return nil }
    if code != SQLITE_ROW { throw failure(code, statement) }
    return read(ColumnReader(handle: handle))
  }

  /// Runs `body` in an immediate transaction, committed when it returns and rolled back when it
  /// throws (or when the commit fails). An append passes its journal's `statements`.
  func inImmediateTransaction<T>(
    keptIn statements: AppendStatements? = nil, _ body: () throws -> T
  ) throws -> T {
    try run("BEGIN IMMEDIATE TRANSACTION", .begin, in: statements)
    do {
      let result = try body()
      try run("COMMIT TRANSACTION", .commit, in: statements)
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

  /// The statement of `sql`: the one `statements` keeps for `slot`, or GRDB's cached one.
  private func statement(
    _ sql: () -> String, _ slot: AppendStatements.Slot, in statements: AppendStatements?
  ) throws -> Statement {
    guard let statements else { return try cachedStatement(sql: sql()) }
    return try statements.statement(slot, sql, self)
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

/// The statements an append runs on every action, found without hashing their SQL.
///
/// GRDB's `cachedStatement(sql:)` finds a statement by its text, hashing and comparing all of
/// it, and an append's SQL is long (its head's query is hundreds of bytes): the lookups cost
/// several thousand instructions per append. A journal keeps, for each statement of the
/// append, the one GRDB's cache gave last, weakly: GRDB's cache still owns it and finalizes it
/// when it is cleared (closing the connection, releasing memory), and then the cache is asked
/// again; so is it when the connection is not the statement's. Used on the journal's writer
/// connection only, one write at a time.
final class AppendStatements: @unchecked Sendable {
  enum Slot: Int, CaseIterable {
    case begin, commit, head, insertEntry, dataVersion
    case deleteElement, updateElement, insertElement, moveElement, updateNextID
  }

  private struct Kept {
    weak var statement: Statement?
  }

  private var kept = [Kept](repeating: Kept(), count: Slot.allCases.count)

  /// The statement of `sql`, which is the same text every time for `slot`, on `db`; `sql` is
  /// built only when the statement is not kept.
  func statement(_ slot: Slot, _ sql: () -> String, _ db: Database) throws -> Statement {
    if let statement = kept[slot.rawValue].statement,
      let connection = db.sqliteConnection,
      sqlite3_db_handle(statement.sqliteStatement) == connection
    {
      return statement
    }
    let statement = try db.cachedStatement(sql: sql())
    kept[slot.rawValue].statement = statement
    return statement
  }
}
