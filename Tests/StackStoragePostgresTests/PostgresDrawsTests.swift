#if PostgreSQL
  import Foundation
  import StackJournalPostgresMigrations
  import StackJournalTestSupport
  import StackNavigation
  import StackStorage
  import XCTest

  @testable import StackJournalCore
  @testable import StackStoragePostgres

  /// Schema 5 journals each entry's draws: a journal of schema 4 migrates keeping every entry,
  /// and draws forged behind the journal's back are reported and refused.
  final class PostgresDrawsTests: PostgresTestCase {
    private static let draws = EntryDraws(values: [
      .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
      .date(Date(timeIntervalSinceReferenceDate: 786_123_456.789)),
    ])

    private static let empty = EncodedState(json: Data("{}".utf8), stacks: [])

    private func append(
      _ journal: PostgresJournal, _ session: SessionID, after expected: Int64,
      draws: EntryDraws? = nil
    ) async throws {
      let entry = JournalEntryDelta(
        type: "tick", version: 1, payload: Data("\(expected + 1)".utf8),
        delta: StackDelta(changes: []), draws: draws)
      _ = try await journal.append(session: session, expectedSequence: expected, entry)
    }

    /// The text of `name`'s definition in migration file `file`, as a statement that creates it.
    private func function(_ file: Int, _ name: String) throws -> String {
      let text = String(decoding: EmbeddedPostgresMigrations.files[file].bytes, as: UTF8.self)
      let start = try XCTUnwrap(text.range(of: "FUNCTION \(name)("))
      let end = try XCTUnwrap(text.range(of: "\n$$;", range: start.upperBound..<text.endIndex))
      return "CREATE " + text[start.lowerBound..<end.upperBound]
    }

    func testASchema4JournalKeepsEveryEntryAndJournalsDrawsFromPastItsHead() async throws {
      let journal = try await PostgresJournal(url: url)
      _ = try await journal.createSession("old", initial: Self.empty, version: 1)
      _ = try await journal.createSession("none", initial: Self.empty, version: 1)
      for expected in Int64(0)..<3 { try await append(journal, "old", after: expected) }
      journal.close()
      // Back to schema 4: version 1's append_entry, version 2's append_entry_committed, no
      // draws columns, no record of version 5.
      let schema = location.schema
      _ = try await execute([
        "SET search_path TO \(schema)",
        "DROP PROCEDURE append_entry_committed",
        "DROP FUNCTION append_entry",
        try function(0, "append_entry"),
        String(decoding: EmbeddedPostgresMigrations.files[1].bytes, as: UTF8.self),
        "ALTER TABLE journal DROP COLUMN draws",
        "ALTER TABLE sessions DROP COLUMN draws_from",
        "DELETE FROM schema_migrations WHERE version >= 5",
      ])
      let entries = "SELECT sequence || ' ' || recorded_at || ' ' || type || ' ' || payload || ' ' "
        + "|| delta FROM \(schema).journal ORDER BY sequence"
      let before = try await execute([entries])[0]
      XCTAssertEqual(before.count, 3)
      await assertStorageError(.olderSchema) {
        try await PostgresJournal(url: url, options: .init(readOnly: true))
      }

      let migrated = try await PostgresJournal(url: url)
      defer { migrated.close() }
      XCTAssertEqual(migrated.schemaVersion, 5)
      let after = try await execute([
        entries, "SELECT count(*)::text FROM \(schema).journal WHERE draws IS NULL",
        "SELECT id || '=' || draws_from FROM \(schema).sessions ORDER BY id",
      ])
      XCTAssertEqual(after[0], before)
      XCTAssertEqual(after[1], ["3"])
      XCTAssertEqual(after[2], ["none=1", "old=4"])
      let old = try await migrated.session("old")
      XCTAssertEqual(old?.drawsJournaledFrom, 4)

      // The next entry journals its draws, through the new append_entry_committed.
      try await append(migrated, "old", after: 3, draws: Self.draws)
      var draws: [EntryDraws?] = []
      try await migrated.entries(session: "old") { entry in
        draws.append(entry.draws)
        return true
      }
      XCTAssertEqual(draws, [nil, nil, nil, Self.draws])
      _ = try await migrated.createSession("new", initial: Self.empty, version: 1)
      let new = try await migrated.session("new")
      XCTAssertEqual(new?.drawsJournaledFrom, 1)
      let report = try await migrated.verifyStorage(session: nil, maxProblemsPerSession: 5)
      XCTAssertTrue(report.isClean, "\(report.sessions.flatMap(\.problems)) \(report.fileProblems)")
    }

    func testDrawsForgedInARowAreReportedAndTheirEntryFailsToRead() async throws {
      let journal = try await PostgresJournal(url: url)
      defer { journal.close() }
      _ = try await journal.createSession("s", initial: Self.empty, version: 1)
      for expected in Int64(0)..<3 {
        try await append(journal, "s", after: expected, draws: Self.draws)
      }
      let clean = try await journal.verifyStorage(session: "s", maxProblemsPerSession: 5)
      XCTAssertTrue(clean.isClean, "\(clean.sessions.flatMap(\.problems))")
      _ = try await execute([
        "UPDATE \(location.schema).journal SET draws = '{\"values\":[{\"toss\":1}]}' "
          + "WHERE session = 's' AND sequence = 2"
      ])
      let report = try await journal.verifyStorage(session: "s", maxProblemsPerSession: 5)
      let problems = report.sessions.flatMap(\.problems)
      XCTAssertEqual(problems.map(\.sequence), [2])
      XCTAssertEqual(problems.first?.kind, .invalidData)
      XCTAssertTrue(
        problems.first?.message.contains("the entry's draws cannot be read") == true,
        "\(problems)")
      do {
        try await journal.entries(session: "s") { _ in true }
        XCTFail("an entry with forged draws was read")
      } catch let error as StorageError {
        XCTAssertEqual(error.code, .invalidData)
        XCTAssertTrue(error.message.contains("the draws of entry 2 cannot be read"), error.message)
      }
    }
  }
#endif
