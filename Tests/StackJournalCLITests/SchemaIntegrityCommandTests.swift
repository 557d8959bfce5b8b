import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// The schema the migrations made is the schema allowed: an object someone added to a journal
/// file, or a table changed or replaced, is reported by `verify` and refused by every command
/// that writes, before it writes anything; nothing hangs on it.
final class SchemaIntegrityCommandTests: CLITestCase {
  /// Every command that writes to an existing file, given an export to import.
  private func writeCommands(_ session: String, export: String) -> [[String]] {
    [
      ["demo", "--actions", "1"], ["import", export, "--as", "copy"],
      ["compact", session, "--keep-snapshots", "1"], ["prune", "--empty"],
      ["prune", "--session", session], ["migrate"],
    ]
  }

  private func makeExport(of session: String, from path: String) throws -> String {
    let export = try runCLI(["export", session, "--db", path])
    XCTAssertEqual(export.status, 0, export.stderr)
    let file = directory.path("session.ndjson")
    try export.stdout.write(toFile: file, atomically: true, encoding: .utf8)
    return file
  }

  func testAnExtraTriggerIsReportedByVerifyAndEveryWriteCommandRefusesBeforeWriting() throws {
    let (path, session) = try makeDemo(actions: 6)
    let export = try makeExport(of: session, from: path)
    try tamper(
      path,
      """
      CREATE TABLE fired (at TEXT);
      CREATE TRIGGER wipe_other_stacks AFTER INSERT ON journal
        BEGIN INSERT INTO fired VALUES ('journal'); DELETE FROM stack_elements; END;
      CREATE TRIGGER on_session AFTER INSERT ON sessions
        BEGIN INSERT INTO fired VALUES ('sessions'); END;
      CREATE TRIGGER on_delete AFTER DELETE ON journal
        BEGIN INSERT INTO fired VALUES ('delete'); END;
      """)
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("wipe_other_stacks"), verify.stdout)
    XCTAssertTrue(verify.stdout.contains("fired"), verify.stdout)
    let json = try runCLI(["verify", "--db", path, "--json"])
    XCTAssertEqual(json.status, 1, json.stderr)
    XCTAssertTrue(json.stdout.contains("on_delete"), json.stdout)

    let before = try fileBytes(path)
    for command in writeCommands(session, export: export) {
      let result = try runCLI(command + ["--db", path], timeout: 60)
      assertOneLineError(result, contains: "trigger wipe_other_stacks")
      XCTAssertEqual(try fileBytes(path), before, "\(command) changed the file")
    }
    let reads = try runCLI(["log", session, "--db", path, "--json"], timeout: 60)
    XCTAssertEqual(reads.status, 0, "an extra trigger does not stop reads: \(reads.stderr)")
  }

  func testAChangedTableIsReportedByVerifyAndRefusedByWriteCommands() throws {
    let (path, session) = try makeDemo(actions: 3)
    let export = try makeExport(of: session, from: path)
    try tamper(path, "ALTER TABLE sessions ADD COLUMN note TEXT")
    let verify = try runCLI(["verify", "--db", path], timeout: 60)
    XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("table sessions"), verify.stdout)
    let before = try fileBytes(path)
    for command in writeCommands(session, export: export) {
      let result = try runCLI(command + ["--db", path], timeout: 60)
      assertOneLineError(result, contains: "table sessions")
      XCTAssertEqual(try fileBytes(path), before, "\(command) changed the file")
    }
  }

  func testAViewInPlaceOfATableHangsNoCommandAndIsReported() throws {
    let (path, session) = try makeDemo(actions: 3)
    let export = try makeExport(of: session, from: path)
    // A view that never ends, standing where the migrations made the journal table.
    try tamper(
      path,
      """
      ALTER TABLE journal RENAME TO journal_kept;
      CREATE VIEW journal AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)
        SELECT 'demo-1' AS session, i AS sequence, '2025-01-01T00:00:00.000Z' AS recorded_at,
          '2025-01-01T00:00:00.000Z' AS latest_at, 'x' AS type, 1 AS version, '{}' AS payload,
          '{}' AS delta FROM n;
      """)
    let verify = try runCLI(["verify", "--db", path], timeout: 60)
    XCTAssertEqual(verify.status, 1, verify.stdout + verify.stderr)
    XCTAssertTrue(verify.stdout.contains("view journal"), verify.stdout)
    let before = try fileBytes(path)
    let reads: [[String]] = [
      ["sessions"], ["log", session], ["show", session], ["stats"], ["export", session],
      ["verify", "--json"],
    ]
    for command in reads + writeCommands(session, export: export) {
      let result = try runCLI(command + ["--db", path], timeout: 60)
      XCTAssertNotEqual(result.status, 0, "\(command) read a view as the journal")
      XCTAssertTrue(
        (result.stdout + result.stderr).contains("view journal"), "\(command): \(result.stderr)")
      XCTAssertEqual(try fileBytes(path), before, "\(command) changed the file")
    }
  }
}
