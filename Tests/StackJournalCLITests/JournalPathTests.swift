import Foundation
import GRDB
import StackJournalTestSupport
import XCTest

/// A `--db` path is resolved once, to the real file, before any check or open: a symbolic link
/// reaches the file and the write-ahead log SQLite names after it, and a name that starts with
/// `file:` is a file of that name, never an SQLite URI (issue 39, defects 1 and 8).
final class JournalPathTests: CLITestCase {
  /// The real path of `path`, symbolic links followed.
  private func real(_ path: String) -> String {
    URL(fileURLWithPath: path).resolvingSymlinksInPath().path
  }

  /// Opens `path` and keeps the connection while `body` runs: a connection held open keeps the
  /// write-ahead log, so what other processes write meanwhile stays in it, never folded into the
  /// file by the close of its writer.
  private func holdingOpen<T>(_ path: String, _ body: () throws -> T) throws -> T {
    let holder = try DatabaseQueue(path: path)
    defer { try? holder.close() }
    try holder.read { db in _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") }
    return try body()
  }

  /// Adds a trigger by hand, which every command that writes refuses.
  private func addTrigger(_ path: String) throws {
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      try db.execute(
        sql: "CREATE TRIGGER by_hand AFTER INSERT ON sessions BEGIN DELETE FROM snapshots; END")
    }
    try queue.close()
  }

  // MARK: Symbolic links

  /// Defect 1: through a symbolic link, readers looked for `-wal` beside the link, found none
  /// and read the file without its log: a session still in the log was invisible, `export`
  /// said it did not exist and `verify` said "Clean" without it.
  func testReadersThroughASymbolicLinkSeeWritesStillInTheLog() throws {
    let (path, _) = try makeDemo(snapshotInterval: 3)
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    try holdingOpen(path) {
      let demo = try runCLI(["demo", "--db", link, "--session", "in-log", "--json"])
      XCTAssertEqual(demo.status, 0, demo.stderr)
      XCTAssertFalse(FileManager.default.fileExists(atPath: link + "-wal"))
      let sessions = try runCLI(["sessions", "--db", link, "--json"])
      XCTAssertEqual(sessions.status, 0, sessions.stderr)
      XCTAssertTrue(sessions.stdout.contains("\"in-log\""), sessions.stdout)
      let verify = try runCLI(["verify", "--db", link])
      XCTAssertEqual(verify.status, 0, verify.stderr)
      XCTAssertTrue(verify.stdout.contains("session in-log:"), verify.stdout)
      let log = try runCLI(["log", "in-log", "--ndjson", "--db", link])
      XCTAssertEqual(log.status, 0, log.stderr)
      XCTAssertEqual(log.stdout.split(separator: "\n").count, 10, log.stdout)
      let export = try runCLI(["export", "in-log", "--db", link])
      XCTAssertEqual(export.status, 0, export.stderr)
      XCTAssertEqual(export.stdout.split(separator: "\n").count, 1 + 10 + 1, export.stdout)
    }
  }

  /// Siblings of defect 1: every other command through the link meets the session in the log;
  /// `compact` and `prune` planned on the file without its log and refused the session.
  func testEveryOtherCommandThroughASymbolicLinkSeesWritesStillInTheLog() throws {
    let (path, _) = try makeDemo(snapshotInterval: 3)
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    try holdingOpen(path) {
      XCTAssertEqual(
        try runCLI(["demo", "--db", link, "--session", "in-log", "--json"]).status, 0)
      let html = directory.path("in-log.html")
      let commands: [[String]] = [
        ["show", "in-log", "--at", "5"], ["diff", "in-log", "0", "9"], ["stats", "in-log"],
        ["report", "in-log", "-o", html], ["verify", "in-log"],
        ["compact", "in-log", "--keep-snapshots", "1"], ["prune", "--session", "in-log"],
      ]
      for command in commands {
        let result = try runCLI(command + ["--db", link])
        XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      }
      let sessions = try runCLI(["sessions", "--db", path, "--json"])
      XCTAssertFalse(sessions.stdout.contains("\"in-log\""), "prune through the link")
    }
  }

  /// Messages and `demo`'s summary name the file written, not the link.
  func testCommandsNameTheFileALinkPointsTo() throws {
    let (path, _) = try makeDemo()
    let link = directory.path("link.sqlite")
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    let demo = try runCLI(["demo", "--db", link, "--json"])
    XCTAssertEqual(demo.status, 0, demo.stderr)
    XCTAssertEqual(try demo.jsonObject()["database"] as? String, real(path))
  }

  // MARK: `file:` paths

  /// Defect 8: `--db file:j.sqlite` was checked as the file `file:j.sqlite` and written as the
  /// SQLite URI of `j.sqlite`: `demo` and `import` said they wrote `file:j.sqlite` but wrote
  /// `j.sqlite`, past a trigger that `--db j.sqlite` refuses. It is a file of that name now.
  func testAFilePrefixedPathIsAFileOfThatNameForTheWriters() throws {
    let (plain, _) = try makeDemo("j.sqlite")
    try addTrigger(plain)
    let before = try fileBytes(plain)
    let literal = real(directory.path("file:j.sqlite"))

    let demo = try runCLI(
      ["demo", "--db", "file:j.sqlite", "--session", "literal", "--json"],
      directory: directory.url)
    XCTAssertEqual(demo.status, 0, demo.stderr)
    XCTAssertEqual(try demo.jsonObject()["database"] as? String, literal)
    XCTAssertEqual(try fileBytes(plain), before, "demo wrote j.sqlite")

    let export = directory.path("literal.ndjson")
    XCTAssertEqual(try runCLI(["export", "literal", "--db", literal, "-o", export]).status, 0)
    let imported = try runCLI(
      ["import", export, "--as", "imported", "--db", "file:j.sqlite"], directory: directory.url)
    XCTAssertEqual(imported.status, 0, imported.stderr)
    XCTAssertTrue(imported.stdout.contains(literal), imported.stdout)
    XCTAssertEqual(try fileBytes(plain), before, "import wrote j.sqlite")
    let sessions = try runCLI(["sessions", "--db", literal, "--json"])
    XCTAssertTrue(sessions.stdout.contains("\"imported\""), sessions.stdout)
  }

  /// Siblings of defect 8: `compact` and `prune` planned on the file `file:j.sqlite` and wrote
  /// `j.sqlite`; a reader that took part in the log of `file:j.sqlite` (a writer had it open)
  /// read `j.sqlite`.
  func testAFilePrefixedPathIsAFileOfThatNameForEveryCommand() throws {
    let (plain, _) = try makeDemo("j.sqlite", snapshotInterval: 3)
    XCTAssertEqual(
      try runCLI(["demo", "--db", plain, "--session", "plain-only", "--json"]).status, 0)
    try addTrigger(plain)
    let before = try fileBytes(plain)
    let literal = real(directory.path("file:j.sqlite"))
    try FileManager.default.moveItem(
      atPath: try makeDemo("other.sqlite", snapshotInterval: 3).path, toPath: literal)
    func run(_ arguments: [String]) throws -> CLIResult {
      try runCLI(arguments + ["--db", "file:j.sqlite"], directory: directory.url)
    }
    try holdingOpen(literal) {
      let sessions = try run(["sessions", "--json"])
      XCTAssertEqual(sessions.status, 0, sessions.stderr)
      XCTAssertTrue(sessions.stdout.contains("\"demo-1\""), sessions.stdout)
      XCTAssertFalse(
        sessions.stdout.contains("\"plain-only\""), "read j.sqlite: \(sessions.stdout)")
      XCTAssertEqual(
        try run(["demo", "--session", "second", "--json"]).status, 0, "demo beside a reader")
      for command in [["log", "second"], ["show", "second", "--at", "3"], ["stats", "second"]] {
        let result = try run(command)
        XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      }
    }
    for command in [
      ["compact", "second", "--keep-snapshots", "1"], ["prune", "--session", "second"],
      ["migrate"],
    ] {
      let result = try run(command)
      XCTAssertEqual(result.status, 0, "\(command): \(result.stderr)")
      XCTAssertEqual(try fileBytes(plain), before, "\(command) wrote j.sqlite")
    }
    let sessions = try runCLI(["sessions", "--db", literal, "--json"])
    XCTAssertFalse(sessions.stdout.contains("\"second\""), sessions.stdout)
  }
}
