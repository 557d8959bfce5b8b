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

  /// `log --follow` takes part in the write-ahead log, which needs its `-shm` beside the
  /// journal: in a directory this user may not write, with no writer holding the file, it says
  /// so instead of SQLite's "attempt to write a readonly database" (issue 39).
  func testFollowingAJournalInADirectoryThatIsNotWritableSaysWhy() throws {
    let (path, session) = try makeDemo()
    let folder = directory.path("read-only")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    defer {
      try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder)
    }
    let journal = folder + "/j.sqlite"
    try FileManager.default.copyItem(atPath: path, toPath: journal)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: journal)
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder)
    let arguments = ["log", session, "-n", "2", "--follow", "--db", journal]
    // Root may write anywhere: the command runs as `nobody` then.
    let result =
      geteuid() == 0
      ? try runCLIThroughShell(
        arguments, wrapper: "setpriv --reuid=65534 --regid=65534 --clear-groups", timeout: 60)
      : try runCLI(arguments, timeout: 60)
    assertOneLineError(result, contains: "the directory \(folder) is not writable by this user")
    XCTAssertTrue(result.stderr.contains("without --follow"), result.stderr)
    XCTAssertFalse(result.stderr.contains("attempt to write a readonly database"), result.stderr)
    XCTAssertEqual(try runCLI(["log", session, "-n", "2", "--db", journal]).status, 0)
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
