#if PostgreSQL
  import Foundation
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  /// What a PostgreSQL journal logs through the `Logger` it was opened with: opening and each
  /// migration, a sequence conflict, an operation that timed out and the first call that
  /// succeeds after it, and closing.
  final class PostgresLoggingTests: PostgresTestCase {
    func testOpeningMigratingAConflictAndClosingAreLogged() async throws {
      let logs = CapturedLogs()
      let journal = try await PostgresJournal(url: url, logger: logs.logger)
      let migrations = logs.records.filter {
        $0.message == "applied a journal migration"
      }
      XCTAssertEqual(
        migrations.compactMap { $0.metadata["migration.version"] },
        (1...PostgresJournal.latestSchemaVersion).map { "\($0)" })
      XCTAssertEqual(Set(migrations.map(\.level)), [.notice])
      let opened = try XCTUnwrap(logs.records("opened the journal").first, "\(logs.records)")
      XCTAssertEqual(opened.level, .info)
      XCTAssertEqual(opened.metadata["journal"], location.description)
      XCTAssertEqual(opened.metadata["schema.version"], "\(PostgresJournal.latestSchemaVersion)")

      let session = SessionID(#"user\<b>42</b>"#)
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession(session, initial: empty, version: 1)
      let entry = JournalEntryDraft(type: "tick", version: 1, payload: Data("1".utf8), state: empty)
      _ = try await journal.append(session: session, expectedSequence: 0, entry)
      let mine = logs.records.filter { $0.message.contains("sequence conflict") }
      XCTAssertEqual(mine, [])
      await assertStorageError(.sequenceConflict) {
        try await journal.append(session: session, expectedSequence: 0, entry)
      }
      let conflict = try XCTUnwrap(
        logs.records("sequence conflict: another writer appended first").first, "\(logs.records)")
      XCTAssertEqual(conflict.level, .info)
      XCTAssertEqual(conflict.metadata["session"], #"user\\<b>42</b>"#)
      XCTAssertEqual(conflict.metadata["sequence"], "1")
      XCTAssertEqual(conflict.metadata["expected_sequence"], "0")

      logs.removeAll()
      journal.close()
      XCTAssertEqual(logs.records("closed the journal").count, 1, "\(logs.records)")
    }

    func testATimeoutAndTheServerAnsweringAgainAreLogged() async throws {
      let logs = CapturedLogs()
      let journal = try await PostgresJournal(
        url: url, options: .init(operationTimeout: .seconds(1)), logger: logs.logger)
      defer { journal.close() }
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession("held", initial: empty, version: 1)
      // Another connection holds the journal's tables for three seconds: reads wait for it.
      let schema = location.schema
      // The test case itself is not Sendable; the task only runs its `execute`.
      nonisolated(unsafe) let test = self
      let holder = Task {
        try await test.execute([
          "BEGIN",
          "LOCK TABLE \(schema).sessions, \(schema).journal IN ACCESS EXCLUSIVE MODE",
          "SELECT pg_sleep(3)::text", "COMMIT",
        ])
      }
      try await Task.sleep(for: .milliseconds(500))
      logs.removeAll()
      await assertStorageError(.timedOut) { try await journal.headSequence(session: "held") }
      await assertStorageError(.timedOut) { try await journal.headSequence(session: "held") }
      _ = try await holder.value
      let head = try await journal.headSequence(session: "held")
      XCTAssertEqual(head, 0)
      // The journal's own records (postgres-nio's, logged to the same logger, name no journal).
      let journalRecords = logs.records.filter { $0.metadata["journal"] != nil }
      XCTAssertEqual(
        journalRecords.map { "\($0.level) \($0.message)" },
        [
          // The first failure is a warning, the next one until the server answers is debug.
          "warning PostgreSQL did not answer in time", "debug PostgreSQL did not answer in time",
          "notice PostgreSQL answers again",
        ])
      XCTAssertEqual(journalRecords.first?.metadata["error.code"], "timedOut")
      XCTAssertEqual(journalRecords.first?.metadata["journal"], location.description)
    }
  }
#endif
