import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// A journal recorded with schema version 1 opens with this build: it is migrated, verifies,
/// restores and goes on recording.
final class SchemaUpgradeTests: XCTestCase {
  func testAFileRecordedWithSchemaOneOpensVerifiesAndRecords() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("v1.sqlite")

    // A file in the schema of version 1 holding what a recording of that version wrote: the rows
    // this build writes but each entry's `latest_at`, and each session's head kept in
    // `sessions.head_sequence`. (This build writes schema 3 only, so it records into a file of
    // its own and the rows are copied.)
    let recordedPath = directory.path("recorded.sqlite")
    let recorded = try SQLiteJournal(path: recordedPath, options: .init(snapshotInterval: 8))
    let live = try await recordScriptedSession("old", into: recorded, count: 30)
    let oldHead = recorded.sequence
    try recorded.close()
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: 1, path: path)
    try await queue.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS recorded", arguments: [recordedPath])
      try db.inTransaction {
        try db.execute(
          sql: """
            INSERT INTO main.sessions (id, created_at, metadata, head_sequence, forked_from,
                forked_at)
              SELECT id, created_at, metadata,
                (SELECT max(j.sequence) FROM recorded.journal j
                  WHERE j.session_number = s.number),
                forked_from, forked_at
              FROM recorded.sessions s;
            INSERT INTO main.journal (session, sequence, recorded_at, type, version, payload, delta)
              SELECT s.id, j.sequence, j.recorded_at, j.type, j.version, j.payload, j.delta
              FROM recorded.journal j JOIN recorded.sessions s ON s.number = j.session_number;
            INSERT INTO main.snapshots (session, sequence, version, state, stacks, recorded_at)
              SELECT session, sequence, version, state, stacks, recorded_at
              FROM recorded.snapshots;
            INSERT INTO main.stacks (session, path, next_id)
              SELECT session, path, next_id FROM recorded.stacks;
            INSERT INTO main.stack_elements (session, path, id, position, case_name, state)
              SELECT session, path, id, position, case_name, state FROM recorded.stack_elements;
            """)
        return .commit
      }
      try db.execute(sql: "DETACH DATABASE recorded")
    }
    try queue.close()
    XCTAssertEqual(try SQLiteJournal.pendingMigrations(at: path).current, 1)
    let v1Tables = try await DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'journal'")
    }
    XCTAssertFalse(v1Tables.joined().contains("WITHOUT ROWID"))

    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(try journal.headSequence(session: "old"), oldHead)
    XCTAssertTrue(try JournalVerifier().verify(journal).isClean)
    let verifyResult1 = try await replayer(journal).verify(session: "old").isClean
    XCTAssertTrue(verifyResult1)
    let restoreResult1 = try await replayer(journal).restore(session: "old").state
    XCTAssertEqual(restoreResult1, live[oldHead])

    let store = try await RecordingStore.open(
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
    let restoreResult = try await replayer(journal).restore(session: "old").state
    XCTAssertEqual(restoreResult, state)
    XCTAssertTrue(try JournalVerifier().verify(journal).isClean)
    let verifyResult = try await replayer(journal).verify(session: "old").isClean
    XCTAssertTrue(verifyResult)
  }
}

extension SQLiteJournal {
  /// The head of the session "old" as the recording store saw it.
  fileprivate var sequence: Int64 { (try? headSequence(session: "old")) ?? -1 }
}
