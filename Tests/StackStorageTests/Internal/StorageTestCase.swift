import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// A test case with a fresh temporary directory per test, deleted after, that runs storage
/// tests against both an in-memory and an on-disk journal.
class StorageTestCase: XCTestCase {
  enum Storage: String, CaseIterable {
    case inMemory
    case onDisk
  }

  var directory: TemporaryDirectory!
  private var fileCount = 0

  override func setUpWithError() throws {
    try super.setUpWithError()
    directory = try TemporaryDirectory(prefix: "StackStorageTests")
  }

  override func tearDown() {
    directory.remove()
    directory = nil
    super.tearDown()
  }

  /// A new journal: in memory, or in a new file of the test's directory.
  func makeJournal(
    _ storage: Storage,
    options: SQLiteJournal.Options = .init()
  ) throws -> SQLiteJournal {
    switch storage {
    case .inMemory:
      return try SQLiteJournal.inMemory(options: options)
    case .onDisk:
      fileCount += 1
      return try SQLiteJournal(
        path: directory.path("journal-\(fileCount).sqlite"), options: options)
    }
  }

  /// Runs `body` once with an in-memory journal and once with an on-disk one.
  func forEachStorage(
    options: SQLiteJournal.Options = .init(),
    _ body: (SQLiteJournal, Storage) async throws -> Void
  ) async throws {
    for storage in Storage.allCases {
      try await body(try makeJournal(storage, options: options), storage)
    }
  }

  /// Runs `body` with a fresh journal of every backend under test: SQLite in memory and on
  /// disk always, PostgreSQL when the package is built with the `PostgreSQL` trait and
  /// `STACKJOURNAL_TEST_POSTGRES_URL` names a server (otherwise a line says it was skipped).
  func forEachBackend(
    _ options: BackendOptions = .init(),
    _ body: (any JournalBackend, String) async throws -> Void
  ) async throws {
    for backend in try await Backends.all(options) {
      try await body(backend.journal, backend.name)
    }
  }

  /// Asserts that `body` throws a ``StorageError`` with the given code, and returns it.
  @discardableResult
  func assertStorageError<T>(
    _ code: StorageError.Code,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: () async throws -> T
  ) async -> StorageError? {
    do {
      _ = try await body()
      XCTFail("Expected a StorageError \(code), got no error", file: file, line: line)
    } catch let error as StorageError {
      XCTAssertEqual(error.code, code, "\(error)", file: file, line: line)
      return error
    } catch {
      XCTFail("Expected a StorageError \(code), got \(error)", file: file, line: line)
    }
    return nil
  }
}

extension JournalEntryDraft {
  /// A draft for a test action, encoding `state` with ``StateEncoding``.
  static func test<S: Encodable>(
    _ type: String,
    payload: String = "{}",
    version: Int = 1,
    state: S,
    at date: Date = Date()
  ) throws -> JournalEntryDraft {
    JournalEntryDraft(
      type: type, version: version, payload: Data(payload.utf8),
      state: try StateEncoding.encode(state), recordedAt: date)
  }
}

/// Statements a journal's trace (`Options.statementTrace`) reported, in order.
final class StatementTrace: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func add(_ sql: String) { lock.withLock { lines.append(sql) } }
  /// The statements since the last call.
  func take() -> [String] {
    lock.withLock {
      defer { lines = [] }
      return lines
    }
  }
}
