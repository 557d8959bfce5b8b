import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

final class ReadOnlyTests: CLITestCase {
  /// Inspection commands never change the journal file, and dry runs write nothing.
  func testInspectionCommandsLeaveTheFileUnchanged() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let before = try fileBytes(path)
    let commands: [[String]] = [
      ["sessions"], ["sessions", "--json"], ["log", session], ["log", session, "--ndjson"],
      ["show", session, "--at", "4"], ["show", session, "--json"], ["diff", session, "1", "9"],
      ["verify"], ["verify", session, "--json"], ["stats"], ["stats", session, "--json"],
      ["export", session], ["migrate", "--dry-run"], ["migrate"],
      ["compact", session, "--keep-snapshots", "1", "--dry-run"],
      ["prune", "--idle-since", "2999-01-01", "--dry-run"],
      ["demo-app", "replay", session, "--to", "7"], ["demo-app", "verify", "--replay"],
    ]
    let neighbours = Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))
    for command in commands {
      let result = try runCLI(command + ["--db", path])
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertEqual(try fileBytes(path), before, "\(command) changed the file")
      XCTAssertEqual(
        Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)), neighbours,
        "\(command) created a file next to the journal")
    }
  }

  /// The journal's own read-only open refuses a file that needs migrations: inspection never
  /// migrates.
  func testInspectionNeverMigrates() throws {
    let path = directory.path("blank.sqlite")
    try Data("SQLite format 3\u{0}".utf8).write(to: URL(fileURLWithPath: path))
    let before = try fileBytes(path)
    for command in [["sessions"], ["verify"], ["stats"]] {
      let result = try runCLI(command + ["--db", path])
      XCTAssertNotEqual(result.status, 0)
      XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    }
    XCTAssertEqual(try fileBytes(path), before)
  }
}
