import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// Schema 6 journals each entry's draws: a file of schema 5 migrates keeping every entry, and
/// marks the entries it held as written before draws were journaled.
final class DrawsMigrationTests: StorageTestCase {
  func testASchema5FileKeepsEveryEntryAndJournalsDrawsFromPastItsHead() async throws {
    // A journal recorded with this build: `a` with three entries (one of them past the head its
    // row keeps, as appends leave it), `b` with none.
    let recordedPath = directory.path("recorded.sqlite")
    do {
      let recorded = try SQLiteJournal(path: recordedPath)
      var root = Root()
      _ = try await recorded.createSession("a", initial: StateEncoding.encode(root), version: 1)
      _ = try await recorded.createSession("b", initial: StateEncoding.encode(root), version: 1)
      for sequence in 0..<3 {
        root.tabA.append(.counter(Counter(count: sequence)))
        _ = try await recorded.append(
          session: "a", expectedSequence: Int64(sequence), .test("tabA.push", state: root))
      }
      try recorded.close()
    }
    // Its rows, copied into a file the migrations 1 through 5 made.
    let path = directory.path("schema-5.sqlite")
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: 5, path: path)
    try await queue.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS recorded", arguments: [recordedPath])
      try db.inTransaction {
        try db.execute(
          sql: """
            INSERT INTO main.sessions (id, created_at, metadata, head_sequence, forked_from,
                forked_at, number)
              SELECT id, created_at, metadata, head_sequence, forked_from, forked_at, number
              FROM recorded.sessions;
            INSERT INTO main.journal (key, recorded_at, latest_at, type, version, payload, delta)
              SELECT key, recorded_at, latest_at, type, version, payload, delta
              FROM recorded.journal;
            INSERT INTO main.snapshots SELECT * FROM recorded.snapshots;
            INSERT INTO main.stacks SELECT * FROM recorded.stacks;
            INSERT INTO main.stack_elements SELECT * FROM recorded.stack_elements;
            """)
        return .commit
      }
      try db.execute(sql: "DETACH DATABASE recorded")
    }
    let entries =
      "SELECT key, recorded_at, latest_at, type, version, payload, delta FROM journal ORDER BY key"
    let before = try await queue.read { try Row.fetchAll($0, sql: entries) }
    XCTAssertEqual(before.count, 3)
    try queue.close()
    XCTAssertEqual(try SQLiteJournal.pendingMigrations(at: path).pending, ["0006_journaled_draws.sql"])

    let journal = try SQLiteJournal(path: path)
    XCTAssertEqual(journal.schemaVersion, 6)
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    let after = try await journal.database.read { try Row.fetchAll($0, sql: entries) }
    XCTAssertEqual(after, before)
    let (withoutDraws, marks) = try await journal.database.read { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM journal WHERE draws IS NULL"),
        try Row.fetchAll(db, sql: "SELECT id, draws_from FROM sessions ORDER BY id")
          .map { "\($0[0] as String)=\($0[1] as Int64)" }
      )
    }
    XCTAssertEqual(withoutDraws, 3)
    XCTAssertEqual(marks, ["a=4", "b=1"])
    XCTAssertEqual(try journal.session("a")?.drawsJournaledFrom, 4)
    XCTAssertEqual(try journal.session("b")?.drawsJournaledFrom, 1)
    XCTAssertTrue(try journal.verifyStorage().isClean)

    // The next entry journals its draws; the mark stays.
    var root = Root()
    for sequence in 0..<4 { root.tabA.append(.counter(Counter(count: sequence))) }
    var entry = try JournalEntryDelta(
      type: "tabA.push", version: 1, payload: Data("{}".utf8),
      from: try journal.headStacks(session: "a"), to: StateEncoding.encode(root))
    entry.draws = DrawJournalTests.draws
    _ = try await journal.append(session: "a", expectedSequence: 3, entry)
    var draws: [EntryDraws?] = []
    try await journal.entries(session: "a") { entry in
      draws.append(entry.draws)
      return true
    }
    XCTAssertEqual(draws, [nil, nil, nil, DrawJournalTests.draws])
    XCTAssertEqual(try journal.session("a")?.drawsJournaledFrom, 4)
    // A session created since journals draws from its first entry.
    _ = try await journal.createSession("c", initial: StateEncoding.encode(Root()), version: 1)
    XCTAssertEqual(try journal.session("c")?.drawsJournaledFrom, 1)
    XCTAssertTrue(try journal.verifyStorage().isClean)
    XCTAssertEqual(try journal.integrityProblems(), [])
  }
}
