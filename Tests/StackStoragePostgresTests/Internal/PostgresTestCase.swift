#if PostgreSQL
  import Foundation
  import Logging
  import PostgresNIO
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  /// A test that needs the PostgreSQL server of `STACKJOURNAL_TEST_POSTGRES_URL`; skipped, saying
  /// so, without it.
  class PostgresTestCase: XCTestCase {
    var url: String!
    var location: PostgresLocation!

    override func setUpWithError() throws {
      try super.setUpWithError()
      if let reason = Backends.postgresSkipReason {
        print("skipped: \(name): \(reason)")
        throw XCTSkip(reason)
      }
      url = Backends.postgresURL(schema: Backends.freshSchema())
      location = try PostgresLocation(url: url)
    }

    /// The path of `scripts/postgres.sh`, when `STACKJOURNAL_TEST_POSTGRES_RESTART=1` allows the
    /// test to restart the server it started; otherwise the test is skipped, saying why.
    func restartScript() throws -> String {
      guard ProcessInfo.processInfo.environment["STACKJOURNAL_TEST_POSTGRES_RESTART"] == "1" else {
        print(
          "skipped: \(name): set STACKJOURNAL_TEST_POSTGRES_RESTART=1 to let it restart the "
            + "server of scripts/postgres.sh")
        throw XCTSkip("STACKJOURNAL_TEST_POSTGRES_RESTART is not 1")
      }
      // Tests/StackStoragePostgresTests/Internal/ → the repository.
      let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("scripts/postgres.sh").path
      guard FileManager.default.isExecutableFile(atPath: script) else {
        throw StorageError(code: .fileNotFound, message: "No executable script at \(script).")
      }
      return script
    }

    /// The codes of a server that is restarting or went away.
    static let serverUnavailable: Set<StorageError.Code> = [
      .connectionLost, .connectionRefused, .timedOut,
    ]

    /// The session's head, retried while the server restarts (up to 60 seconds).
    func readHeadOnceTheServerAnswers(_ journal: PostgresJournal, session: SessionID)
      async throws -> Int64
    {
      let deadline = Date().addingTimeInterval(60)
      while true {
        do {
          return try await journal.headSequence(session: session)
        } catch let error as StorageError
          where Self.serverUnavailable.contains(error.code) && Date() < deadline
        {
          try await Task.sleep(for: .milliseconds(50))
        }
      }
    }

    /// Runs statements on the server with a connection of the test's own.
    func execute(_ statements: [String], database: String? = nil) async throws -> [[String]] {
      let configuration = PostgresConnection.Configuration(
        host: location.host, port: location.port, username: location.user,
        password: location.password, database: database ?? location.database, tls: .disable)
      let connection = try await PostgresConnection.connect(
        configuration: configuration, id: 1, logger: Logger(label: "test"))
      var results: [[String]] = []
      do {
        for statement in statements {
          let rows = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Logger(label: "test")).collect()
          results.append(try rows.map { row in try row.decode(String?.self) ?? "NULL" })
        }
      } catch {
        try? await connection.close()
        throw error
      }
      try await connection.close()
      return results
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
#endif
