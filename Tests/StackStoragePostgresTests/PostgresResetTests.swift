#if PostgreSQL
  import Foundation
  @testable import StackJournalCore
@testable import StackStoragePostgres
  import NIOCore
  import NIOPosix
  import StackStorage
  import XCTest

  /// A write whose connection breaks after it was sent has an unknown outcome: it is reported as
  /// `connectionLost` ("read the head"), never as `connectionRefused` ("cannot connect"), which
  /// would tell the caller nothing happened.
  final class PostgresResetTests: PostgresTestCase {
    func testAnAppendWhoseConnectionIsResetIsLostNotRefused() async throws {
      var components = try XCTUnwrap(URLComponents(string: url))
      let proxy = try ResettingProxy(
        to: try XCTUnwrap(components.host).replacingOccurrences(of: "localhost", with: "127.0.0.1"),
        port: UInt16(try XCTUnwrap(components.port)))
      defer { proxy.stop() }
      components.host = "127.0.0.1"
      components.port = Int(proxy.port)
      let journal = try await PostgresJournal(url: try XCTUnwrap(components.string))
      defer { journal.close() }
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      _ = try await journal.createSession("reset", initial: empty, version: 1)

      // The append's commit waits in a deferred trigger, so it is in flight when the reset comes.
      let schema = location.schema
      _ = try await execute([
        """
        CREATE OR REPLACE FUNCTION \(schema).slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(2); RETURN NULL; END $$
        """,
        """
        CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON \(schema).journal
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION \(schema).slow_commit()
        """,
      ])
      let appending = Task {
        try await journal.append(
          session: "reset", expectedSequence: 0,
          JournalEntryDelta(type: "tick", version: 1, payload: Data("1".utf8), delta: StackDelta()))
      }
      var sleeping = false
      for _ in 0..<200 where !sleeping {
        sleeping = try await !execute([
          "SELECT pid::text FROM pg_stat_activity WHERE wait_event = 'PgSleep' "
            + "AND datname = current_database()"
        ])[0].isEmpty
        if !sleeping { try await Task.sleep(for: .milliseconds(50)) }
      }
      XCTAssertTrue(sleeping, "the append was found committing")
      proxy.resetConnections()
      do {
        let sequence = try await appending.value
        XCTFail("acknowledged \(sequence) over a connection that was reset")
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .connectionLost, error.message)
        XCTAssertTrue(error.message.contains("unknown"), error.message)
      }
      // The server went on and committed: "cannot connect" would have been wrong.
      _ = try await execute(["DROP TRIGGER slow_commit ON \(schema).journal"])
      try await Task.sleep(for: .seconds(3))
      let readHeadOnceTheServerAnswersResult = try await readHeadOnceTheServerAnswers(journal, session: "reset")
      XCTAssertEqual(readHeadOnceTheServerAnswersResult, 1)
    }

    /// What tells a failure to connect (nothing sent) from a connection that broke in use.
    func testConnectionFailuresAreToldFromBrokenConnections() {
      XCTAssertTrue(StorageError.failedToConnect(IOError(errnoCode: ECONNREFUSED, reason: "connect")))
      XCTAssertTrue(StorageError.failedToConnect(ChannelError.connectTimeout(.seconds(1))))
      XCTAssertTrue(StorageError.failedToConnect(nil))
      XCTAssertFalse(StorageError.failedToConnect(IOError(errnoCode: ECONNRESET, reason: "read")))
      XCTAssertFalse(StorageError.failedToConnect(IOError(errnoCode: EPIPE, reason: "write")))
      XCTAssertFalse(StorageError.failedToConnect(ChannelError.eof))
    }
  }
#endif
