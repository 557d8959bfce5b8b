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
    // this build writes but each entry's `latest_at`, presentations, and each session's head kept
    // in `sessions.head_sequence`. (This build writes the latest schema only, so it records into
    // a file of its own and the rows are copied.)
    let recordedPath = directory.path("recorded.sqlite")
    let recorded = try SQLiteJournal(path: recordedPath, options: .init(snapshotInterval: 8))
    let live = try await recordScriptedSession("old", into: recorded, count: 30)
    let oldHead = recorded.sequence
    try recorded.close()
    try Self.copy(recordedPath, intoFileOfSchema: 1, at: path)
    XCTAssertEqual(try SQLiteJournal.pendingMigrations(at: path).current, 1)
    let v1Tables = try await DatabaseQueue(path: path).read { db in
      try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'journal'")
    }
    XCTAssertFalse(v1Tables.joined().contains("WITHOUT ROWID"))

    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(try journal.headSequence(session: "old"), oldHead)
    XCTAssertTrue(try journal.verifyStorage().isClean)
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
    XCTAssertTrue(try journal.verifyStorage().isClean)
    let verifyResult = try await replayer(journal).verify(session: "old").isClean
    XCTAssertTrue(verifyResult)
  }

  /// A journal of schema 4, recorded before presentations were journaled, with an alert open at
  /// its head (inside a stack element's state only): it migrates to schema 5 keeping every entry
  /// byte for byte, verifies, restores the open alert, and the first action recorded after it
  /// journals the presentation.
  func testAFileOfSchemaFourWithAnOpenAlertMigratesKeepingEveryEntry() async throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("v4.sqlite")
    let recordedPath = directory.path("recorded.sqlite")
    let recorded = try SQLiteJournal(path: recordedPath, options: .init(snapshotInterval: 8))
    _ = try await recordScriptedSession("old", into: recorded, count: 20)
    let recorder = try await RecordingStore.open(
      session: "old", journal: recorded, initialState: DemoScript.deepLink
    ) {
      RootFeature()
    }
    try await recorder.send(.pushNumberFactTapped(number: 7)).finish()
    let ids = await recorder.state.path.ids
    let id = try XCTUnwrap(ids.last)
    try await recorder.send(.path(.element(id: id, action: .numberFact(.factButtonTapped))))
      .finish()
    await recorder.waitForEffects()
    let live = await recorder.state
    let title = try XCTUnwrap(Self.alerts(in: live)[id])
    let oldHead = recorded.sequence
    try recorded.close()
    try Self.copy(recordedPath, intoFileOfSchema: 4, at: path)
    XCTAssertEqual(try SQLiteJournal.pendingMigrations(at: path).current, 4)
    let entries = "SELECT key, recorded_at, latest_at, type, version, payload, delta FROM journal"
    let before = try await DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: entries) }
    XCTAssertEqual(before.count, Int(oldHead))

    let journal = try SQLiteJournal(path: path, options: .init(snapshotInterval: 8))
    XCTAssertEqual(journal.schemaVersion, 6)
    XCTAssertEqual(journal.schemaVersion, SQLiteJournal.latestSchemaVersion)
    let after = try await DatabaseQueue(path: path).read { try Row.fetchAll($0, sql: entries) }
    XCTAssertEqual(after, before)
    XCTAssertTrue(try journal.verifyStorage().isClean)
    XCTAssertEqual(try Self.alerts(in: journal.headStacks(session: "old")), [:])
    let verified = try await replayer(journal).verify(session: "old").isClean
    XCTAssertTrue(verified)
    let restored = try await replayer(journal).restore(session: "old").state
    XCTAssertEqual(restored, live)

    // The next action journals every alert still open; dismissing one removes its record.
    let store = try await RecordingStore.open(
      session: "old", journal: journal, initialState: RootFeature.State()
    ) {
      RootFeature()
    }
    try await store.send(.path(.element(id: id, action: .numberFact(.incrementButtonTapped))))
      .finish()
    let open = await Self.alerts(in: store.state)
    XCTAssertEqual(open[id], title)
    XCTAssertEqual(try Self.alerts(in: journal.headStacks(session: "old")), open)
    try await store.send(.path(.element(id: id, action: .numberFact(.alert(.dismiss)))))
      .finish()
    let left = await Self.alerts(in: store.state)
    XCTAssertNil(left[id])
    XCTAssertEqual(try Self.alerts(in: journal.headStacks(session: "old")), left)
    XCTAssertEqual(store.sequence, oldHead + 2)
    XCTAssertTrue(try journal.verifyStorage().isClean)
    let verifiedAfter = try await replayer(journal).verify(session: "old").isClean
    XCTAssertTrue(verifiedAfter)
    let restoredAfter = try await replayer(journal).restore(session: "old").state
    let stateAfter = await store.state
    XCTAssertEqual(restoredAfter, stateAfter)
  }

  /// The title of each alert open over a number-fact element of a state, by the element's ID.
  static func alerts(in state: RootFeature.State) -> [StackElementID: String] {
    var alerts: [StackElementID: String] = [:]
    for id in state.path.ids {
      if let alert = state.path[id: id, case: \.numberFact]?.alert {
        alerts[id] = String(describing: alert.title)
      }
    }
    return alerts
  }

  /// The same, read from the journal's records: `path[#N].numberFact.alert` holding an alert.
  static func alerts(in records: [StackRecord]) throws -> [StackElementID: String] {
    var alerts: [StackElementID: String] = [:]
    for record in records where record.isPresentation {
      let components = StackPath.components(of: record.path)
      guard components.count == 4, components[0] == .key("path"),
        case .element(let id) = components[1], components[2] == .key("numberFact"),
        components[3] == .key("alert")
      else { return [:] }
      let alert = try JSONDecoder().decode(
        AlertState<Never>.self, from: Data(record.elements[0].state.utf8))
      alerts[StackElementID(generation: id)] = String(describing: alert.title)
    }
    return alerts
  }

  /// Makes `path` a file of schema `version` (1 or 4) holding the rows of the journal at
  /// `recordedPath`, as a build of that version wrote them: without presentations, which the
  /// journal records since schema 5 (the changes and records marked `presentation` are left out
  /// of deltas, snapshots and stack rows).
  static func copy(_ recordedPath: String, intoFileOfSchema version: Int, at path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: version, path: path)
    let delta = """
      (SELECT json_object('changes', json_group_array(json(c.value)))
        FROM json_each(j.delta, '$.changes') c
        WHERE json_extract(c.value, '$.presentation') IS NULL)
      """
    let stacks = """
      (SELECT json_group_array(json(r.value)) FROM json_each(n.stacks) r
        WHERE json_extract(r.value, '$.presentation') IS NULL)
      """
    let copy =
      version == 1
      ? """
        INSERT INTO main.sessions (id, created_at, metadata, head_sequence, forked_from,
            forked_at)
          SELECT id, created_at, metadata,
            (SELECT max(j.sequence) FROM recorded.journal j
              WHERE j.session_number = s.number),
            forked_from, forked_at
          FROM recorded.sessions s;
        INSERT INTO main.journal (session, sequence, recorded_at, type, version, payload, delta)
          SELECT s.id, j.sequence, j.recorded_at, j.type, j.version, j.payload, \(delta)
          FROM recorded.journal j JOIN recorded.sessions s ON s.number = j.session_number;
        """
      : """
        INSERT INTO main.sessions (id, created_at, metadata, head_sequence, forked_from,
            forked_at, number)
          SELECT id, created_at, metadata, head_sequence, forked_from, forked_at, number
          FROM recorded.sessions;
        INSERT INTO main.journal (key, recorded_at, latest_at, type, version, payload, delta)
          SELECT key, recorded_at, latest_at, type, version, payload, \(delta)
          FROM recorded.journal j;
        """
    try queue.writeWithoutTransaction { db in
      try db.execute(sql: "ATTACH DATABASE ? AS recorded", arguments: [recordedPath])
      try db.inTransaction {
        try db.execute(
          sql: copy + """
            INSERT INTO main.snapshots (session, sequence, version, state, stacks, recorded_at)
              SELECT session, sequence, version, state, \(stacks), recorded_at
              FROM recorded.snapshots n;
            INSERT INTO main.stacks (session, path, next_id)
              SELECT session, path, next_id FROM recorded.stacks WHERE presentation = 0;
            INSERT INTO main.stack_elements (session, path, id, position, case_name, state)
              SELECT e.session, e.path, e.id, e.position, e.case_name, e.state
              FROM recorded.stack_elements e JOIN recorded.stacks s
                ON s.session = e.session AND s.path = e.path AND s.presentation = 0;
            """)
        return .commit
      }
      try db.execute(sql: "DETACH DATABASE recorded")
    }
    try queue.close()
  }
}

extension SQLiteJournal {
  /// The head of the session "old" as the recording store saw it.
  fileprivate var sequence: Int64 { (try? headSequence(session: "old")) ?? -1 }
}
