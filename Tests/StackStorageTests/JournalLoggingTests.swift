// What an SQLite journal logs through the `Logger` of its options: opening (and creating or
// migrating) a file, a sequence conflict, a failed group-commit batch and closing, each with the
// metadata an operator needs, session identifiers escaped. Without a logger, nothing is logged.
import Foundation
import GRDB
import Logging
import StackJournalTestSupport
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class JournalLoggingTests: StorageTestCase {
  func testCreatingOpeningAConflictAndClosingAreLogged() async throws {
    let logs = CapturedLogs()
    let path = directory.path("logged.sqlite")
    let journal = try SQLiteJournal(
      path: path, options: .init(durability: .groupCommit(), logger: logs.logger))
    XCTAssertEqual(logs.records.map(\.message), ["created a journal file", "opened the journal"])
    XCTAssertEqual(logs.records("created a journal file").first?.level, .info)
    let opened = try XCTUnwrap(logs.records("opened the journal").first)
    XCTAssertEqual(opened.level, .info)
    XCTAssertEqual(opened.metadata["journal"], path)
    XCTAssertEqual(opened.metadata["schema.version"], "\(SQLiteJournal.latestSchemaVersion)")
    XCTAssertEqual(opened.metadata["durability"], "groupCommit(maxBatch: 512)")

    // An identifier with a backslash and markup: the record shows it as `escaped` does.
    let session = SessionID(#"user\<b>42</b>"#)
    _ = try await journal.createSession(session, initial: StateEncoding.encode(Root()), version: 1)
    logs.removeAll()
    var root = Root()
    root.tabA.append(.counter(Counter(count: 1)))
    let entry = try JournalEntryDraft.test("push", state: root)
    let sequence = try await journal.append(session: session, expectedSequence: 0, entry)
    XCTAssertEqual(sequence, 1)
    XCTAssertEqual(logs.records, [], "a successful append logs nothing")
    await assertStorageError(.sequenceConflict) {
      try await journal.append(session: session, expectedSequence: 0, entry)
    }
    let conflict = try XCTUnwrap(logs.records.first)
    XCTAssertEqual(logs.records.count, 1, "\(logs.records)")
    XCTAssertEqual(conflict.message, "sequence conflict: another writer appended first")
    XCTAssertEqual(conflict.level, .info)
    XCTAssertEqual(conflict.metadata["session"], #"user\\<b>42</b>"#)
    XCTAssertEqual(conflict.metadata["sequence"], "1")
    XCTAssertEqual(conflict.metadata["expected_sequence"], "0")
    XCTAssertEqual(conflict.metadata["journal"], path)

    logs.removeAll()
    try await journal.close()
    XCTAssertEqual(logs.records.map(\.message), ["closed the journal"])
    XCTAssertEqual(logs.records.first?.metadata["journal"], path)
  }

  func testMigratingAnOlderFileLogsEachMigration() throws {
    let path = directory.path("older.sqlite")
    let queue = try DatabaseQueue(path: path)
    try SchemaMigrator.migrate(queue, through: 1, path: path)
    try queue.close()
    let logs = CapturedLogs()
    let journal = try SQLiteJournal(path: path, options: .init(logger: logs.logger))
    let migrations = logs.records("applied a journal migration")
    XCTAssertEqual(
      migrations.compactMap { $0.metadata["migration.version"] },
      (2...SQLiteJournal.latestSchemaVersion).map { "\($0)" })
    XCTAssertEqual(Set(migrations.map(\.level)), [.notice])
    XCTAssertEqual(migrations.first?.metadata["migration.name"], Migration.all[1].name)
    XCTAssertEqual(logs.records.last?.message, "opened the journal")
    try journal.close()

    // Opened again: nothing is pending, nothing is migrated.
    logs.removeAll()
    let again = try SQLiteJournal(path: path, options: .init(logger: logs.logger))
    XCTAssertEqual(logs.records.map(\.message), ["opened the journal"])
    try again.close()
  }

  func testAFailedGroupCommitBatchIsLoggedAsAnError() async throws {
    let logs = CapturedLogs()
    let path = directory.path("batch.sqlite")
    let journal = try SQLiteJournal(path: path, options: .init(logger: logs.logger))
    let batcher = GroupCommitBatcher(
      database: journal.database, maxBatch: 8, path: path, logger: logs.logger)
    logs.removeAll()
    // A request that ends the batch's transaction under it: the batch cannot commit.
    do {
      _ = try await batcher.submit { db in
        try db.execute(sql: "ROLLBACK")
        return HeadShapes.Head(
          number: 1, sequence: 1, latestAt: "", dataVersion: 0, ticket: 0, shapes: [:])
      }
      XCTFail("the batch committed")
    } catch {}
    let failure = try XCTUnwrap(logs.records.first, "\(logs.records)")
    XCTAssertEqual(failure.level, .error)
    XCTAssertEqual(failure.message, "a group-commit batch failed; none of its appends was written")
    XCTAssertEqual(failure.metadata["batch.size"], "1")
    XCTAssertEqual(failure.metadata["journal"], path)
    XCTAssertNotNil(failure.metadata["error"])
    try journal.close()
  }

  func testAJournalOpenedWithoutALoggerDiscardsItsRecords() throws {
    // The default logger's handler drops every record, whatever the process bootstrapped.
    XCTAssertTrue(SQLiteJournal.Options().logger.handler is SwiftLogNoOpLogHandler)
    XCTAssertTrue(SQLiteJournal.discardingLogger.handler is SwiftLogNoOpLogHandler)
  }
}
