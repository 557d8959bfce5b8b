import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import XCTest

@testable import StackStorage

/// A journal recorded with schema version 1 opens with this build: it is migrated, verifies,
/// restores and goes on recording.
final class SchemaUpgradeTests: XCTestCase {
  func testAFileRecordedWithSchemaOneOpensVerifiesAndRecords() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("v1.sqlite")

    // A file in the schema of version 1, recorded as that version did: it also kept each
    // session's head in `sessions.head_sequence`.
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: 1, path: path)
    let old = try SQLiteJournal(database: queue, path: path, options: .init(snapshotInterval: 8))
    XCTAssertEqual(old.schemaVersion, 1)
    let live = try await recordScriptedSession("old", into: old, count: 30)
    try await queue.write { db in
      try db.execute(
        sql: "UPDATE sessions SET head_sequence = "
          + "(SELECT max(sequence) FROM journal WHERE session = sessions.id)")
    }
    let oldHead = old.sequence
    try queue.close()
    let v1Tables = try await DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'journal'")
    }
    XCTAssertFalse(v1Tables.joined().contains("WITHOUT ROWID"))

    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(try journal.headSequence(session: "old"), oldHead)
    XCTAssertTrue(try JournalVerifier().verify(journal).isClean)
    XCTAssertTrue(try replayer(journal).verify(session: "old").isClean)
    XCTAssertEqual(try replayer(journal).restore(session: "old").state, live[oldHead])

    let store = try RecordingStore.open(
      session: "old", journal: journal, initialState: RootFeature.State()
    ) {
      RootFeature()
    }
    XCTAssertEqual(store.sequence, oldHead)
    try await store.send(.pushCounterTapped(count: 41))
    try await store.send(.goBackToRootTapped)
    try await store.send(.pushNumberFactTapped(number: 7))
    XCTAssertEqual(store.sequence, oldHead + 3)
    XCTAssertEqual(try journal.headSequence(session: "old"), oldHead + 3)
    let state = await store.state
    XCTAssertEqual(try replayer(journal).restore(session: "old").state, state)
    XCTAssertTrue(try JournalVerifier().verify(journal).isClean)
    XCTAssertTrue(try replayer(journal).verify(session: "old").isClean)
  }
}

extension SQLiteJournal {
  /// The head of the session "old" as the recording store saw it.
  fileprivate var sequence: Int64 { (try? headSequence(session: "old")) ?? -1 }
}
