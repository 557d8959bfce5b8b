import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

@testable import StackJournalCore
@testable import StackStorage

/// The schema the migrations made is the schema allowed, for the library as for the CLI: a
/// journal file someone added a trigger to is refused for writing and reported by the verifier;
/// a view in place of a table is refused for reading too.
final class SchemaIntegrityTests: StorageTestCase {
  private func journalFile(_ sql: String) throws -> String {
    let path = directory.path("altered-\(UUID().uuidString).sqlite")
    let journal = try SQLiteJournal(path: path)
    _ = try journal.createSession("s", initial: StateEncoding.encode(Root()), version: 1)
    try journal.close()
    let queue = try DatabaseQueue(path: path)
    try queue.write { try $0.execute(sql: sql) }
    try queue.close()
    return path
  }

  func testAJournalWithAnAddedTriggerIsRefusedForWritingAndReportedByTheVerifier() async throws {
    let path = try journalFile(
      "CREATE TRIGGER forget AFTER INSERT ON journal BEGIN DELETE FROM stack_elements; END")
    let before = try fileBytes(path)
    let refused = await assertStorageError(.alteredSchema) { try SQLiteJournal(path: path) }
    XCTAssertEqual(refused?.message.contains("trigger forget on journal"), true)
    XCTAssertEqual(try fileBytes(path), before)

    let reader = try SQLiteJournal(path: path, options: .init(readOnly: true))
    let report = try reader.verifyStorage()
    XCTAssertFalse(report.isClean)
    XCTAssertEqual(
      report.fileProblems,
      ["the trigger forget on journal is not part of the schema the migrations made"])
  }

  func testAViewInPlaceOfATableIsRefusedForReading() async throws {
    let path = try journalFile(
      "ALTER TABLE stacks RENAME TO stacks_kept; CREATE VIEW stacks AS SELECT * FROM stacks_kept")
    let refused = await assertStorageError(.alteredSchema) {
      try SQLiteJournal(path: path, options: .init(readOnly: true))
    }
    XCTAssertEqual(
      refused?.message.contains("the view stacks stands where the migrations made the table"),
      true, refused?.message ?? "")
  }

  func testAnUnalteredJournalMatchesTheSchemaItsMigrationsMake() throws {
    let path = try journalFile("SELECT 1")
    let reader = try SQLiteJournal(path: path, options: .init(readOnly: true))
    XCTAssertEqual(try reader.verifyStorage().fileProblems, [])
    XCTAssertNoThrow(try SQLiteJournal(path: path).close())
  }
  /// Schema 4 changes the journal, its index of late entries and the sessions, and adds one
  /// index: the journal is a rowid table keyed by one integer, with no index an append writes.
  func testSchema4KeysTheJournalByOneInteger() throws {
    let three = try SchemaShape.expected(atVersion: 3)
    let four = try SchemaShape.expected(atVersion: 4)
    let before = Dictionary(uniqueKeysWithValues: three.objects.map { ($0.name, $0) })
    let after = Dictionary(uniqueKeysWithValues: four.objects.map { ($0.name, $0) })
    XCTAssertEqual(
      Set(after.keys).subtracting(before.keys), ["sessions_by_number"], "objects added")
    XCTAssertEqual(Set(before.keys).subtracting(after.keys), [], "objects removed")
    let changed = Set(after.keys.filter { before[$0] != nil && before[$0] != after[$0] })
    XCTAssertEqual(changed, ["journal", "journal_recorded_late", "sessions"])

    let journal = try XCTUnwrap(after["journal"]?.sql)
    XCTAssertTrue(journal.contains("key INTEGER PRIMARY KEY"), journal)
    XCTAssertFalse(journal.contains("WITHOUT ROWID"), journal)
    XCTAssertTrue(
      journal.contains("session_number INTEGER NOT NULL GENERATED ALWAYS AS (key >> 32) VIRTUAL"),
      journal)
    XCTAssertTrue(
      journal.contains("sequence INTEGER NOT NULL GENERATED ALWAYS AS (key & 4294967295) VIRTUAL"),
      journal)
    XCTAssertEqual(
      four.objects.filter { $0.type == "index" && $0.table == "journal" && $0.sql != nil }
        .map(\.sql),
      [
        "CREATE INDEX journal_recorded_late ON journal (session_number, recorded_at, key) "
          + "WHERE recorded_at < latest_at"
      ])
    XCTAssertEqual(
      after["sessions_by_number"]?.sql, "CREATE UNIQUE INDEX sessions_by_number ON sessions (number)")
    XCTAssertTrue(
      after["sessions"]?.sql?.contains("number INTEGER NOT NULL DEFAULT 0") ?? false,
      after["sessions"]?.sql ?? "")
  }
}
