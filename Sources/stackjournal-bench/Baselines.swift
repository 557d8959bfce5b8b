import Foundation
import GRDB
import GRDBSQLite
import StackStorage

/// Bytes this process caused to be written to storage so far (`write_bytes` of `/proc/self/io`),
/// or `nil` where the file does not exist.
func bytesWritten() -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else {
    return nil
  }
  for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
    return Int(line.split(separator: " ").last ?? "")
  }
  return nil
}

/// What a contender costs: seconds spent and bytes written, over the actions it ran.
struct Cost {
  var actions = 0
  var seconds = 0.0
  var bytes = 0

  /// Runs `body`, which performs `actions` actions, and adds what it took.
  mutating func measure(actions: Int, _ body: () async throws -> Void) async rethrows {
    let before = bytesWritten() ?? 0
    seconds += try await Report.seconds(body)
    bytes += (bytesWritten() ?? 0) - before
    self.actions += actions
  }

  var rate: Double { Double(actions) / seconds }
  var bytesPerAction: Int { actions == 0 ? 0 : bytes / actions }
}

/// A raw SQLite commit of given bytes: one prepared `INSERT` into a plain table per
/// transaction, in WAL mode at the given `synchronous` level. The floor any journal on SQLite
/// pays for writing those bytes durably.
///
/// With `stackRows`, each transaction also writes the stack rows the row's delta changes, in
/// tables laid out as the journal's (`stack_elements` clustered by session, path and ID;
/// `stacks` with the next ID): deletes the popped elements, writes the pushed and changed ones
/// whole, and the next ID when it moved. That is the floor of a journal that keeps invariant 3
/// (an entry and the stack rows it changes in one transaction) on such tables.
final class RawCommit {
  private var handle: OpaquePointer?
  private var statement: OpaquePointer?
  private var nextID: Int64 = 1
  private var stackStatements: [OpaquePointer?] = []
  /// The next ID each stack's row holds, by path.
  private var nextIDs: [String: Int] = [:]

  init(path: String, synchronous: String, stackRows: Bool = false) throws {
    try check(sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil))
    try execute("PRAGMA journal_mode = WAL")
    try execute("PRAGMA synchronous = \(synchronous)")
    try execute(
      "CREATE TABLE raw (id INTEGER PRIMARY KEY, session TEXT NOT NULL, type TEXT NOT NULL, "
        + "payload TEXT NOT NULL, delta TEXT NOT NULL)")
    statement = try prepare(
      "INSERT INTO raw (id, session, type, payload, delta) VALUES (?, ?, ?, ?, ?)")
    guard stackRows else { return }
    try execute(
      "CREATE TABLE stacks (session TEXT NOT NULL, path TEXT NOT NULL, next_id INTEGER NOT NULL, "
        + "PRIMARY KEY (session, path))")
    try execute(
      "CREATE TABLE stack_elements (session TEXT NOT NULL, path TEXT NOT NULL, "
        + "id INTEGER NOT NULL, position INTEGER NOT NULL, case_name TEXT, state TEXT NOT NULL, "
        + "PRIMARY KEY (session, path, id)) WITHOUT ROWID")
    stackStatements = try StackStatement.allCases.map { try prepare($0.sql) }
  }

  deinit {
    sqlite3_finalize(statement)
    for statement in stackStatements { sqlite3_finalize(statement) }
    sqlite3_close(handle)
  }

  /// Commits each row in its own transaction.
  func insert(_ rows: [BaselineRow]) throws {
    for row in rows {
      if stackStatements.isEmpty {
        try insertJournalRow(row)
      } else {
        try step(.begin)
        try insertJournalRow(row)
        try writeStackRows(row)
        try step(.commit)
      }
    }
  }

  private func insertJournalRow(_ row: BaselineRow) throws {
    sqlite3_bind_int64(statement, 1, nextID)
    sqlite3_bind_text(statement, 2, row.session, -1, transient)
    sqlite3_bind_text(statement, 3, row.type, -1, transient)
    sqlite3_bind_text(statement, 4, row.payload, -1, transient)
    sqlite3_bind_text(statement, 5, row.delta, -1, transient)
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    if code != SQLITE_DONE { try check(code) }
    nextID += 1
  }

  private func writeStackRows(_ row: BaselineRow) throws {
    for change in row.stackDelta.changes {
      if change.removed {
        try step(.deleteStackElements, .text(row.session), .text(change.path))
        try step(.deleteStack, .text(row.session), .text(change.path))
        nextIDs[change.path] = nil
        continue
      }
      for id in change.popped {
        try step(.deleteElement, .text(row.session), .text(change.path), .integer(id.generation))
      }
      for element in change.pushed + change.changed {
        let position = change.ids.firstIndex(of: element.id) ?? 0
        try step(
          .writeElement, .text(row.session), .text(change.path), .integer(element.id.generation),
          .integer(position), element.caseName.map { .text($0) } ?? .null, .text(element.state))
      }
      if nextIDs[change.path] != change.nextID.generation {
        try step(
          .writeStack, .text(row.session), .text(change.path),
          .integer(change.nextID.generation))
        nextIDs[change.path] = change.nextID.generation
      }
    }
  }

  /// The statements of the stack rows, and the transaction's.
  private enum StackStatement: Int, CaseIterable {
    case begin, commit, deleteStackElements, deleteStack, deleteElement, writeElement, writeStack

    var sql: String {
      switch self {
      case .begin: "BEGIN"
      case .commit: "COMMIT"
      case .deleteStackElements: "DELETE FROM stack_elements WHERE session = ? AND path = ?"
      case .deleteStack: "DELETE FROM stacks WHERE session = ? AND path = ?"
      case .deleteElement: "DELETE FROM stack_elements WHERE session = ? AND path = ? AND id = ?"
      case .writeElement:
        "INSERT OR REPLACE INTO stack_elements (session, path, id, position, case_name, state) "
          + "VALUES (?, ?, ?, ?, ?, ?)"
      case .writeStack: "INSERT OR REPLACE INTO stacks (session, path, next_id) VALUES (?, ?, ?)"
      }
    }
  }

  private enum Value {
    case text(String)
    case integer(Int)
    case null
  }

  private func step(_ kind: StackStatement, _ values: Value...) throws {
    let statement = stackStatements[kind.rawValue]
    for (index, value) in values.enumerated() {
      let position = Int32(index + 1)
      switch value {
      case .text(let text): sqlite3_bind_text(statement, position, text, -1, transient)
      case .integer(let integer): sqlite3_bind_int64(statement, position, Int64(integer))
      case .null: sqlite3_bind_null(statement, position)
      }
    }
    let code = sqlite3_step(statement)
    sqlite3_reset(statement)
    if code != SQLITE_DONE { try check(code) }
  }

  private func prepare(_ sql: String) throws -> OpaquePointer? {
    var prepared: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &prepared, nil))
    return prepared
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

/// SQLite copies a value bound with this destructor before the bind call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One action as a journal file stored it, with its session and its delta read: what a baseline
/// writer inserts (not the core's `JournalRow`, which it is read from).
struct BaselineRow {
  var session: String
  var type: String
  var payload: String
  var delta: String
  /// `delta`, read.
  var stackDelta: StackDelta

  /// The rows of a session in a range of sequences, read from the journal at `path` through a
  /// read-only ``SQLiteJournal``.
  static func read(
    _ path: String,
    session: String,
    sequences: ClosedRange<Int64>
  ) throws -> [BaselineRow] {
    let journal = try SQLiteJournal(path: path, options: .init(readOnly: true))
    defer { try? journal.close() }
    var rows: [BaselineRow] = []
    try journal.journalRows(
      session: SessionID(session),
      matching: JournalQuery(fromSequence: sequences.lowerBound, toSequence: sequences.upperBound)
    ) { row in
      rows.append(
        BaselineRow(
          session: session, type: row.type, payload: row.payload, delta: row.delta,
          stackDelta: try JSONDecoder().decode(StackDelta.self, from: Data(row.delta.utf8))))
      return true
    }
    return rows
  }

  var bytes: Int { payload.utf8.count + delta.utf8.count + type.utf8.count }
}

/// Saving the whole state after every action as a JSON file: write a temporary file, flush it,
/// rename it over the previous one.
final class WholeStateFile: @unchecked Sendable {
  private let path: String
  private let temporary: String
  private let encoder = JSONEncoder()

  init(path: String) {
    self.path = path
    self.temporary = path + ".tmp"
  }

  func save(_ state: some Encodable) throws {
    let data = try encoder.encode(state)
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw BenchmarkFailure("cannot create \(temporary)") }
    defer { close(descriptor) }
    let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == data.count, fsync(descriptor) == 0 else {
      throw BenchmarkFailure("cannot write \(temporary)")
    }
    guard rename(temporary, path) == 0 else { throw BenchmarkFailure("cannot rename \(path)") }
  }
}

/// Saving the whole state after every action as one SQLite row (GRDB, WAL, `synchronous =
/// FULL`), replaced each time.
final class WholeStateRow: @unchecked Sendable {
  private let queue: DatabaseQueue
  private let encoder = JSONEncoder()

  init(path: String) throws {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      try db.execute(sql: "PRAGMA journal_mode = WAL")
      try db.execute(sql: "PRAGMA synchronous = FULL")
    }
    queue = try DatabaseQueue(path: path, configuration: configuration)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE state (session TEXT PRIMARY KEY, json TEXT NOT NULL)")
    }
  }

  func save(_ state: some Encodable, session: String) throws {
    let json = String(decoding: try encoder.encode(state), as: UTF8.self)
    try queue.write { db in
      try db.execute(
        sql: "INSERT INTO state (session, json) VALUES (?, ?) "
          + "ON CONFLICT (session) DO UPDATE SET json = excluded.json",
        arguments: [session, json])
    }
  }
}

/// Runs async work from the synchronous benchmark sections and returns its result.
func runAsync<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let semaphore = DispatchSemaphore(value: 0)
  let result = LockedBox<Result<T, any Error>?>(nil)
  Task {
    do { result.set(.success(try await body())) } catch { result.set(.failure(error)) }
    semaphore.signal()
  }
  semaphore.wait()
  return try result.get()!.get()
}

final class LockedBox<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }
  func set(_ newValue: Value) { lock.withLock { value = newValue } }
  func get() -> Value { lock.withLock { value } }
}
