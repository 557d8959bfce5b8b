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
    let report = try JournalVerifier().verify(reader)
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
    XCTAssertEqual(try JournalVerifier().verify(reader).fileProblems, [])
    XCTAssertNoThrow(try SQLiteJournal(path: path).close())
  }
}
