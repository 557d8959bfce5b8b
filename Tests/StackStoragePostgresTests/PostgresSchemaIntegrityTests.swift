#if PostgreSQL
  import Foundation
  import StackJournalTestSupport
  import StackStorage
  import StackStoragePostgres
  import XCTest

  /// The schema the migrations made is the schema allowed, on PostgreSQL as in a file: a trigger
  /// or a view added by hand is listed by `verify`, a journal opened to write refuses it before
  /// writing, and a view standing where a table was is refused even to read.
  final class PostgresSchemaIntegrityTests: PostgresTestCase {
    private let empty = EncodedState(json: Data("{}".utf8), stacks: [])

    /// A journal with one session of one entry.
    private func recorded() async throws {
      let journal = try await PostgresJournal(url: url)
      defer { journal.close() }
      _ = try await journal.createSession("s", initial: empty, version: 1)
      _ = try await journal.append(
        session: "s", expectedSequence: 0,
        JournalEntryDraft(type: "tick", version: 1, payload: Data("1".utf8), state: empty))
    }

    private func readOnly() -> PostgresJournal.Options {
      var options = PostgresJournal.Options()
      options.readOnly = true
      return options
    }

    func testAJournalTheMigrationsMadeHasNoDeviation() async throws {
      try await recorded()
      let journal = try await PostgresJournal(url: url, options: readOnly())
      defer { journal.close() }
      let verification = try await journal.verifyStorage(session: nil, maxProblemsPerSession: 20)
      XCTAssertEqual(verification.fileProblems, [])
      XCTAssertTrue(verification.isClean)
    }

    func testATriggerAddedByHandIsListedAndRefusedBeforeWriting() async throws {
      try await recorded()
      let schema = location.schema
      _ = try await execute([
        """
        CREATE FUNCTION \(schema).evil() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN DELETE FROM \(schema).stack_elements; RETURN NULL; END $$
        """,
        "CREATE TRIGGER evil AFTER INSERT ON \(schema).journal EXECUTE FUNCTION \(schema).evil()",
      ])
      let refused = await assertStorageError(.alteredSchema) { try await PostgresJournal(url: url) }
      XCTAssertTrue("\(refused as Any)".contains("trigger evil on journal"), "\(refused as Any)")
      let reader = try await PostgresJournal(url: url, options: readOnly())
      defer { reader.close() }
      let problems = try await reader.verifyStorage(session: nil, maxProblemsPerSession: 20).fileProblems
      XCTAssertTrue(problems.contains { $0.contains("trigger evil on journal") }, "\(problems)")
      XCTAssertTrue(problems.contains { $0.contains("routine evil()") }, "\(problems)")
      let entries = try await execute(["SELECT count(*)::text FROM \(schema).journal"])
      XCTAssertEqual(entries, [["1"]], "nothing was written")
    }

    func testAViewInPlaceOfATableIsRefusedEvenToRead() async throws {
      try await recorded()
      let schema = location.schema
      _ = try await execute([
        "ALTER TABLE \(schema).snapshots RENAME TO snapshots_kept",
        "CREATE VIEW \(schema).snapshots AS SELECT * FROM \(schema).snapshots_kept",
      ])
      for options in [PostgresJournal.Options(), readOnly()] {
        let refused = await assertStorageError(.alteredSchema) {
          try await PostgresJournal(url: url, options: options)
        }
        XCTAssertTrue(
          "\(refused as Any)".contains("relation snapshots of kind v"), "\(refused as Any)")
      }
    }
  }
#endif
