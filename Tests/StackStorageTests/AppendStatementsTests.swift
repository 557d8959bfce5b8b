import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// A journal keeps the statements of its appends (`AppendStatements`) to find them without
/// their SQL, weakly: GRDB's cache owns them, a cleared cache prepares them again, and a
/// statement of another connection is never handed out.
final class AppendStatementsTests: StorageTestCase {
  /// Given a statement kept for a slot, expect the same statement without the SQL being built
  /// again; once GRDB's cache is cleared and nothing else holds it, expect a new one.
  func testAKeptStatementIsReusedUntilGRDBsCacheLetsItGo() throws {
    let statements = AppendStatements()
    let queue = try DatabaseQueue()
    try queue.inDatabase { db in
      var built = 0
      func sql() -> String {
        built += 1
        return "SELECT 1"
      }
      weak var first: Statement?
      do {
        let statement = try statements.statement(.head, sql, db)
        first = statement
        let again = try statements.statement(.head, sql, db)
        XCTAssertTrue(again === statement)
        XCTAssertEqual(built, 1, "the SQL of a kept statement is not built")
        XCTAssertEqual(try Int.fetchOne(again), 1)
      }
      XCTAssertNotNil(first, "GRDB's cache holds it")

      db.releaseMemory()
      XCTAssertNil(first, "the kept statement does not keep it alive")
      let prepared = try statements.statement(.head, sql, db)
      XCTAssertEqual(built, 2)
      XCTAssertEqual(try Int.fetchOne(prepared), 1)
    }
  }

  /// Given a statement kept from one connection, expect another connection to get its own.
  func testAStatementOfAnotherConnectionIsNotHandedOut() throws {
    let statements = AppendStatements()
    let one = try DatabaseQueue()
    let two = try DatabaseQueue()
    for (queue, rows) in [(one, 1), (two, 2)] {
      try queue.write { db in
        try db.execute(sql: "CREATE TABLE t (x)")
        for row in 0..<rows { try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [row]) }
      }
    }
    for (queue, rows) in [(one, 1), (two, 2), (one, 1)] {
      try queue.inDatabase { db in
        let statement = try statements.statement(.head, { "SELECT count(*) FROM t" }, db)
        XCTAssertEqual(try Int.fetchOne(statement), rows)
      }
    }
  }

  /// Given a journal whose writer's statement cache is cleared between appends, expect the
  /// appends to go on, their stacks to be stored, and the journal to close (no statement left
  /// unfinalized).
  func testAppendsGoOnWhenTheWritersStatementCacheIsCleared() async throws {
    for storage in Storage.allCases {
      let journal = try makeJournal(storage)
      var root = Root()
      root.tabA.append(.home)
      _ = try await journal.createSession(
        "s", initial: try StateEncoding.encode(root), version: 1)
      var ids: [StackElementID] = [0]
      for generation in 1...3 {
        let pushed = StackElementID(generation: generation)
        let change = StackChange(
          path: "tabA", nextID: StackElementID(generation: generation + 1), ids: ids + [pushed],
          pushed: [StoredElement(id: pushed, caseName: "home", state: #"{"home":{}}"#)])
        let entry = JournalEntryDelta(
          type: "push", version: 1, payload: Data("{}".utf8),
          delta: StackDelta(changes: [change]))
        let sequence = try await journal.append(
          session: "s", expectedSequence: Int64(generation - 1), entry)
        XCTAssertEqual(sequence, Int64(generation), "\(storage)")
        ids.append(pushed)
        try await journal.database.writeWithoutTransaction { $0.releaseMemory() }
      }
      let stacks = try journal.headStacks(session: "s")
      XCTAssertEqual(stacks.first { $0.path == "tabA" }?.ids, ids, "\(storage)")
      XCTAssertNoThrow(try journal.close(), "\(storage)")
    }
  }
}
