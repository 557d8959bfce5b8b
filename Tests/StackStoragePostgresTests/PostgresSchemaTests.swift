#if PostgreSQL
  import Foundation
  #if canImport(Glibc)
    import Glibc
  #endif
  import StackJournalPostgresMigrations
  import StackJournalTestSupport
  import StackStorage
  import XCTest

  @testable import StackJournalCore
@testable import StackStoragePostgres

  final class PostgresSchemaTests: PostgresTestCase {
    func testAFreshSchemaIsMigratedAndRecordedWithChecksums() async throws {
      let journal = try await PostgresJournal(url: url)
      XCTAssertEqual(journal.schemaVersion, PostgresJournal.latestSchemaVersion)
      journal.close()
      let schema = location.schema
      let recorded = try await execute([
        "SELECT version || ' ' || name || ' ' || checksum FROM \(schema).schema_migrations",
        "SELECT obj_description('\(schema)'::regnamespace, 'pg_namespace')",
      ])
      XCTAssertEqual(
        recorded[0],
        PostgresMigration.all.map { "\($0.version) \($0.name) \($0.checksum)" })
      XCTAssertEqual(recorded[1], ["StackJournal journal"])
      // Opening again applies nothing and keeps the sessions.
      let again = try await PostgresJournal(url: url)
      let sessionsResult = try await again.sessions().count
      XCTAssertEqual(sessionsResult, 0)
      let count = try await execute(["SELECT count(*)::text FROM \(schema).schema_migrations"])
      XCTAssertEqual(count[0], ["\(PostgresMigration.latestVersion)"])
    }

    /// A journal of schema version 1, with a session in it, is refused read-only and migrated
    /// when opened to write: version 2's procedure appends after the session's entries.
    func testAVersion1JournalIsMigratedAndAppendsGoOn() async throws {
      let empty = EncodedState(json: Data("{}".utf8), stacks: [])
      let journal = try await PostgresJournal(url: url)
      _ = try await journal.createSession("old", initial: empty, version: 1)
      let appendResult1 = try await journal.append(
          session: "old", expectedSequence: 0,
          JournalEntryDraft(type: "tick", version: 1, payload: Data("1".utf8), state: empty))
      XCTAssertEqual(
        appendResult1, 1)
      journal.close()
      // Back to version 1: without the procedure, with version 1's apply_stack_change (which
      // version 3 replaced), and without the records of the versions after 1.
      let schema = location.schema
      let initial = String(decoding: EmbeddedPostgresMigrations.files[0].bytes, as: UTF8.self)
      let start = try XCTUnwrap(initial.range(of: "CREATE FUNCTION apply_stack_change"))
      let end = try XCTUnwrap(
        initial.range(of: "\n$$;", range: start.upperBound..<initial.endIndex))
      let createSession = try XCTUnwrap(initial.range(of: "CREATE FUNCTION create_session("))
      let createSessionEnd = try XCTUnwrap(
        initial.range(of: "\n$$;", range: createSession.upperBound..<initial.endIndex))
      let appendEntry = try XCTUnwrap(initial.range(of: "CREATE FUNCTION append_entry("))
      let appendEntryEnd = try XCTUnwrap(
        initial.range(of: "\n$$;", range: appendEntry.upperBound..<initial.endIndex))
      _ = try await execute([
        "DROP PROCEDURE \(schema).append_entry_committed",
        "DROP FUNCTION \(schema).append_entry",
        "SET search_path TO \(schema)",
        String(initial[appendEntry.lowerBound..<appendEntryEnd.upperBound]),
        "ALTER TABLE \(schema).journal DROP COLUMN draws",
        "ALTER TABLE \(schema).sessions DROP COLUMN draws_from",
        "CREATE OR REPLACE"
          + initial[initial.index(start.lowerBound, offsetBy: 6)..<end.upperBound],
        "CREATE OR REPLACE"
          + initial[
            initial.index(createSession.lowerBound, offsetBy: 6)..<createSessionEnd.upperBound],
        "ALTER TABLE \(schema).stacks DROP COLUMN presentation",
        "DELETE FROM \(schema).schema_migrations WHERE version >= 2",
      ])
      await assertStorageError(.olderSchema) {
        try await PostgresJournal(url: url, options: .init(readOnly: true))
      }
      let migrated = try await PostgresJournal(url: url)
      defer { migrated.close() }
      XCTAssertEqual(migrated.schemaVersion, PostgresJournal.latestSchemaVersion)
      let appendResult = try await migrated.append(
          session: "old", expectedSequence: 1,
          JournalEntryDraft(type: "tick", version: 1, payload: Data("2".utf8), state: empty))
      XCTAssertEqual(
        appendResult, 2)
      let headSequenceResult1 = try await migrated.headSequence(session: "old")
      XCTAssertEqual(headSequenceResult1, 2)
      let verifyStorageResult = try await migrated.verifyStorage(session: nil, maxProblemsPerSession: 5).isClean
      XCTAssertTrue(verifyStorageResult)
    }

    /// A journal of schema version 3, with stacks and entries, migrates to version 4 keeping
    /// every entry and row (each a stack), and then journals presentations (and, from version
    /// 5, draws).
    func testAVersion3JournalKeepsEveryEntryAndThenJournalsPresentations() async throws {
      let element = StoredElement(id: 0, caseName: "screen", state: #"{"screen":{"n":0}}"#)
      let stacks = [StackRecord(path: "path", nextID: 1, elements: [element])]
      let json = Data(#"{"path":{"elements":[{"id":0,"state":{"screen":{"n":0}}}],"nextID":1}}"#.utf8)
      let state = EncodedState(json: json, stacks: stacks)
      let journal = try await PostgresJournal(url: url)
      _ = try await journal.createSession("old", initial: state, version: 1)
      for number in 1...3 {
        _ = try await journal.append(
          session: "old", expectedSequence: Int64(number - 1),
          JournalEntryDraft(
            type: "tick", version: 1, payload: Data("\(number)".utf8), state: state))
      }
      journal.close()
      // Back to version 3: version 3's apply_stack_change, version 1's create_session and
      // append_entry, version 2's append_entry_committed, no `presentation` nor draws columns,
      // no record of versions 4 and 5.
      let schema = location.schema
      let committedAppend = String(
        decoding: EmbeddedPostgresMigrations.files[1].bytes, as: UTF8.self)
      func function(_ file: Int, _ name: String) throws -> String {
        let text = String(decoding: EmbeddedPostgresMigrations.files[file].bytes, as: UTF8.self)
        let start = try XCTUnwrap(text.range(of: "FUNCTION \(name)("))
        let end = try XCTUnwrap(text.range(of: "\n$$;", range: start.upperBound..<text.endIndex))
        return "CREATE OR REPLACE " + text[start.lowerBound..<end.upperBound]
      }
      _ = try await execute([
        "SET search_path TO \(schema)",
        "DROP PROCEDURE append_entry_committed",
        "DROP FUNCTION append_entry",
        try function(0, "append_entry"),
        committedAppend,
        try function(2, "apply_stack_change"),
        try function(0, "create_session"),
        "ALTER TABLE \(schema).stacks DROP COLUMN presentation",
        "ALTER TABLE \(schema).journal DROP COLUMN draws",
        "ALTER TABLE \(schema).sessions DROP COLUMN draws_from",
        "DELETE FROM \(schema).schema_migrations WHERE version >= 4",
      ])
      let entries = "SELECT sequence || ' ' || type || ' ' || payload || ' ' || delta "
        + "FROM \(schema).journal ORDER BY sequence"
      let before = try await execute([entries])[0]
      XCTAssertEqual(before.count, 3)
      await assertStorageError(.olderSchema) {
        try await PostgresJournal(url: url, options: .init(readOnly: true))
      }

      let migrated = try await PostgresJournal(url: url)
      defer { migrated.close() }
      XCTAssertEqual(migrated.schemaVersion, 5)
      XCTAssertEqual(migrated.schemaVersion, PostgresJournal.latestSchemaVersion)
      let after = try await execute([
        entries, "SELECT path || ' ' || presentation::text FROM \(schema).stacks",
      ])
      XCTAssertEqual(after[0], before)
      XCTAssertEqual(after[1], ["path false"])
      let headStacks = try await migrated.headStacks(session: "old")
      XCTAssertEqual(headStacks, stacks)

      // An alert presented over `#0`, then dismissed.
      let alert = StoredElement(id: 0, caseName: nil, state: #"{"title":"Sure?"}"#)
      let presented = stacks + [.presented(at: "path[#0].screen.alert", alert)]
      _ = try await migrated.append(
        session: "old", expectedSequence: 3,
        JournalEntryDraft(
          type: "alert", version: 1, payload: Data("4".utf8),
          state: EncodedState(json: json, stacks: presented)))
      let presentedStacks = try await migrated.headStacks(session: "old")
      XCTAssertEqual(presentedStacks, presented)
      let rows = try await execute([
        "SELECT path || ' ' || presentation::text FROM \(schema).stacks ORDER BY path"
      ])
      XCTAssertEqual(rows[0], ["path false", "path[#0].screen.alert true"])
      _ = try await migrated.append(
        session: "old", expectedSequence: 4,
        JournalEntryDraft(type: "dismiss", version: 1, payload: Data("5".utf8), state: state))
      let dismissedStacks = try await migrated.headStacks(session: "old")
      XCTAssertEqual(dismissedStacks, stacks)
      let atFour = try await migrated.stacks(session: "old", at: 4)
      XCTAssertEqual(atFour, presented)
      let verified = try await migrated.verifyStorage(session: nil, maxProblemsPerSession: 5)
      XCTAssertTrue(verified.isClean, "\(verified)")
    }

    func testASchemaThatIsNotOursIsRefusedAndLeftUnchanged() async throws {
      let schema = location.schema
      _ = try await execute([
        "CREATE SCHEMA \(schema)", "CREATE TABLE \(schema).sessions (id int)",
        "INSERT INTO \(schema).sessions VALUES (7)",
      ])
      let error = await assertStorageError(.notStackJournal) { try await PostgresJournal(url: url) }
      XCTAssertTrue(error?.message.contains("`\(schema)`") ?? false, "\(String(describing: error))")
      let tables = try await execute([
        "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class "
          + "WHERE relnamespace = '\(schema)'::regnamespace AND relkind = 'r'",
        "SELECT string_agg(id::text, ',') FROM \(schema).sessions",
      ])
      XCTAssertEqual(tables, [["sessions"], ["7"]], "nothing was created or changed")
    }

    func testANewerSchemaIsRefusedAndLeftUnchanged() async throws {
      let journal = try await PostgresJournal(url: url)
      journal.close()
      let schema = location.schema
      _ = try await execute([
        "INSERT INTO \(schema).schema_migrations VALUES "
          + "(\(PostgresMigration.latestVersion + 1), '9999_future.sql', 'abc', 'now')"
      ])
      let error = await assertStorageError(.newerSchema) { try await PostgresJournal(url: url) }
      XCTAssertTrue(error?.message.contains("9999_future.sql") ?? false)
      await assertStorageError(.newerSchema) {
        try await PostgresJournal(url: url, options: .init(readOnly: true))
      }
      let rows = try await execute(["SELECT count(*)::text FROM \(schema).schema_migrations"])
      XCTAssertEqual(rows[0], ["\(PostgresMigration.latestVersion + 1)"])
    }

    func testAnEditedMigrationIsRefused() async throws {
      try await PostgresJournal(url: url).close()
      _ = try await execute([
        "UPDATE \(location.schema).schema_migrations SET checksum = 'edited' WHERE version = 1"
      ])
      let error = await assertStorageError(.checksumMismatch) { try await PostgresJournal(url: url) }
      XCTAssertTrue(error?.message.contains("edited") ?? false, "\(String(describing: error))")
    }

    func testReadOnlyNeitherCreatesNorWrites() async throws {
      let missing = await assertStorageError(.olderSchema) {
        try await PostgresJournal(url: url, options: .init(readOnly: true))
      }
      XCTAssertTrue(missing?.message.contains("no schema") ?? false, "\(String(describing: missing))")
      let rows = try await execute([
        "SELECT count(*)::text FROM pg_namespace WHERE nspname = '\(location.schema)'"
      ])
      XCTAssertEqual(rows[0], ["0"])
      let writer = try await PostgresJournal(url: url)
      _ = try await writer.createSession(
        "s", initial: EncodedState(json: Data("{}".utf8), stacks: []), version: 1)
      let reader = try await PostgresJournal(url: url, options: .init(readOnly: true))
      let headSequenceResult = try await reader.headSequence(session: "s")
      XCTAssertEqual(headSequenceResult, 0)
      await assertStorageError(.readOnly) { try await reader.deleteSession("s") }
      let sessionResult = try await reader.session("s")
      XCTAssertNotNil(sessionResult)
    }

    func testConnectionFailuresAreOneLineErrorsThatNameTheServer() async throws {
      var refused = try XCTUnwrap(location)
      refused.port = try freePort()
      let noServer = await assertStorageError(.connectionRefused) {
        try await PostgresJournal(location: refused)
      }
      XCTAssertTrue(
        noServer?.message.contains("\(refused.host):\(refused.port)") ?? false,
        "\(String(describing: noServer))")
      XCTAssertTrue(noServer?.message.contains("connection refused") ?? false)

      var wrongPassword = try XCTUnwrap(location)
      wrongPassword.password = "not-the-password"
      let auth = await assertStorageError(.authenticationFailed) {
        try await PostgresJournal(location: wrongPassword)
      }
      XCTAssertTrue(auth?.message.contains("user \(location.user)") ?? false)
      XCTAssertFalse(auth?.message.contains("not-the-password") ?? true, "no password shown")

      var missing = try XCTUnwrap(location)
      missing.database = "no_such_database_\(UInt32.random(in: 0...UInt32.max))"
      let database = await assertStorageError(.databaseNotFound) {
        try await PostgresJournal(location: missing)
      }
      XCTAssertTrue(database?.message.contains(missing.database) ?? false)

      for error in [noServer, auth, database] {
        XCTAssertFalse(error?.message.contains("\n") ?? true, "one line: \(String(describing: error))")
      }
      let badURL = await assertStorageError(.invalidData) {
        try await PostgresJournal(url: "postgres://host-without-user/db")
      }
      XCTAssertTrue(badURL?.message.contains("names no user") ?? false)
    }

    private func freePort() throws -> Int {
      let socket = Socket()
      return socket.port
    }
  }

  /// A TCP port nothing listens on: bound, read and closed again.
  private struct Socket {
    let port: Int
    init() {
      let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      address.sin_port = 0
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
      }
      _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &length)
        }
      }
      port = Int(UInt16(bigEndian: address.sin_port))
      close(descriptor)
    }
  }
#endif
