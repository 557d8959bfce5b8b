#if PostgreSQL
  import Foundation
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  /// A write is acknowledged only once the server has committed it. A statement's result comes
  /// back before its transaction commits; a server that dies at that moment (an immediate
  /// shutdown, a terminated backend) still sends the result it had written, then closes the
  /// connection without committing.
  final class PostgresCommitTests: PostgresTestCase {
    private let empty = EncodedState(json: Data("{}".utf8), stacks: [])

    /// Makes every commit that inserts a row of `session` into `table` wait three seconds in a
    /// deferred trigger, after the statement's result is written; replaces the one before.
    private func slowCommits(
      of session: SessionID, into table: String = "journal", column: String = "session"
    ) async throws {
      let schema = location.schema
      _ = try await execute([
        """
        CREATE OR REPLACE FUNCTION \(schema).slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(3); RETURN NULL; END $$
        """,
        "DROP TRIGGER IF EXISTS slow_commit ON \(schema).journal",
        "DROP TRIGGER IF EXISTS slow_commit ON \(schema).sessions",
        """
        CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON \(schema).\(table)
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
          WHEN (NEW.\(column) = '\(session.rawValue)') EXECUTE FUNCTION \(schema).slow_commit()
        """,
      ])
    }

    /// Terminates the backend that sleeps in the deferred trigger, once there is one; whether
    /// there was one within ten seconds.
    private func terminateTheCommittingBackend() async throws -> Bool {
      for _ in 0..<200 {
        let pids = try await execute([
          "SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'PgSleep' "
            + "AND datname = current_database()"
        ])[0]
        if let pid = pids.first {
          _ = try await execute(["SELECT pg_terminate_backend(\(pid))::text"])
          return true
        }
        try await Task.sleep(for: .milliseconds(50))
      }
      return false
    }

    /// Asserts that a write whose backend is terminated while it commits fails as a lost
    /// connection, whose outcome is unknown, rather than answering `acknowledged`.
    private func assertLostAtCommit<T: Sendable>(
      _ write: @escaping @Sendable () async throws -> T,
      file: StaticString = #filePath, line: UInt = #line
    ) async throws {
      let writing = Task { try await write() }
      let terminated = try await terminateTheCommittingBackend()
      XCTAssertTrue(terminated, "the write's backend was found committing", file: file, line: line)
      do {
        let acknowledged = try await writing.value
        XCTFail("acknowledged \(acknowledged), never committed", file: file, line: line)
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .connectionLost, error.message, file: file, line: line)
        XCTAssertTrue(error.message.contains("unknown"), error.message, file: file, line: line)
      }
    }

    /// Asserts that an append whose backend is terminated while it commits fails as a lost
    /// connection, whose outcome is unknown, and that the session's head did not move.
    private func assertNotAcknowledged(
      _ session: SessionID, in journal: PostgresJournal,
      _ append: @escaping @Sendable () async throws -> Int64,
      file: StaticString = #filePath, line: UInt = #line
    ) async throws {
      try await assertLostAtCommit(append, file: file, line: line)
      // The pool may hand out the broken connection once more before it notices.
      let readHeadOnceTheServerAnswersResult = try await readHeadOnceTheServerAnswers(journal, session: session)
      XCTAssertEqual(
        readHeadOnceTheServerAnswersResult, 0, "nothing was committed",
        file: file, line: line)
    }

    /// Each case has a journal of its own, so no connection broken by the case before is in its
    /// pool.
    func testAnAppendWhoseCommitDiesIsNotAcknowledged() async throws {
      let empty = self.empty
      // Both opened before the test's trigger is added: a journal whose schema has a trigger
      // nobody's migration made is refused when it is opened to write.
      let suspending = try await PostgresJournal(url: url)
      defer { suspending.close() }
      let blocking = try await PostgresJournal(url: url)
      defer { blocking.close() }
      _ = try await suspending.createSession("suspending", initial: empty, version: 1)
      try await slowCommits(of: "suspending")
      try await assertNotAcknowledged("suspending", in: suspending) {
        try await suspending.append(
          session: "suspending", expectedSequence: 0,
          JournalEntryDelta(type: "tick", version: 1, payload: Data("1".utf8), delta: StackDelta()))
      }

      _ = try await blocking.createSession("blocking", initial: empty, version: 1)
      try await slowCommits(of: "blocking")
      try await assertNotAcknowledged("blocking", in: blocking) {
        try await blocking.append(
          session: "blocking", expectedSequence: 0,
          JournalEntryDraft(type: "tick", version: 1, payload: Data("1".utf8), state: empty))
      }

      // Once the pool has let the broken connection go, appends go through.
      _ = try await execute(["DROP TRIGGER slow_commit ON \(location.schema).journal"])
      let appendResult = try await blocking.append(
          session: "blocking", expectedSequence: 0,
          JournalEntryDraft(type: "tick", version: 1, payload: Data("1".utf8), state: empty))
      XCTAssertEqual(
        appendResult, 1)
    }

    /// Creating a session (a transaction waiting for `COMMIT`'s answer) whose backend is
    /// terminated while it commits fails as a lost connection, and there is no session.
    func testASessionWhoseCommitDiesIsNotAcknowledged() async throws {
      let empty = self.empty
      let journal = try await PostgresJournal(url: url)
      defer { journal.close() }
      try await slowCommits(of: "doomed", into: "sessions", column: "id")
      try await assertLostAtCommit {
        try await journal.createSession("doomed", initial: empty, version: 1).id
      }
      let found = try await execute([
        "SELECT count(*)::text FROM \(location.schema).sessions WHERE id = 'doomed'"
      ])
      XCTAssertEqual(found, [["0"]], "nothing was committed")
    }
  }
#endif
