import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// Bad input: each gives one clear line on standard error, a non-zero status, and leaves every
/// file as it was (creating none).
final class BadInputTests: CLITestCase {
  private let inspections: [[String]] = [
    ["sessions"], ["log", "demo-1"], ["show", "demo-1"], ["diff", "demo-1", "0", "1"],
    ["verify"], ["stats"], ["export", "demo-1"], ["compact", "demo-1", "--keep-snapshots", "1"],
    ["prune", "--empty"], ["migrate", "--dry-run"], ["migrate"],
  ]

  func testAMissingFileIsRefusedAndNotCreated() throws {
    let path = directory.path("missing.sqlite")
    for command in inspections {
      let result = try runCLI(command + ["--db", path])
      assertOneLineError(result, contains: "no journal at \(path)")
      XCTAssertEqual(try files(), [], "\(command) created a file")
    }
  }

  func testADirectoryIsRefused() throws {
    let path = directory.path("folder.sqlite")
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    for command in inspections {
      assertOneLineError(try runCLI(command + ["--db", path]), contains: "is a directory")
    }
    XCTAssertEqual(try files(), ["folder.sqlite"])
    XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path), [])
  }

  func testANonSQLiteFileIsRefusedAndLeftUnchanged() throws {
    let path = directory.path("notes.sqlite")
    try "these are notes, not a database\n".write(toFile: path, atomically: true, encoding: .utf8)
    let before = try fileBytes(path)
    for command in inspections {
      assertOneLineError(try runCLI(command + ["--db", path]), contains: "not an SQLite database")
    }
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try files(), ["notes.sqlite"])
  }

  func testADatabaseFromANewerSchemaIsRefusedAndLeftUnchanged() throws {
    let (path, _) = try makeDemo()
    try tamper(path, "PRAGMA user_version = 7")
    let before = try fileBytes(path)
    let listing = try files()
    for command in inspections {
      assertOneLineError(try runCLI(command + ["--db", path]), contains: "schema version 7")
    }
    XCTAssertEqual(try fileBytes(path), before)
    XCTAssertEqual(try files(), listing)
  }

  func testAnUnknownSessionIsRefused() throws {
    let (path, _) = try makeDemo()
    let before = try fileBytes(path)
    for command in [
      ["log", "nobody"], ["show", "nobody"], ["diff", "nobody", "0", "1"], ["verify", "nobody"],
      ["stats", "nobody"], ["export", "nobody"], ["compact", "nobody", "--keep-snapshots", "1"],
      ["prune", "--session", "nobody"], ["demo-app", "replay", "nobody"],
    ] {
      assertOneLineError(
        try runCLI(command + ["--db", path]), contains: "There is no session nobody")
    }
    XCTAssertEqual(try fileBytes(path), before)
  }

  func testASequencePastTheHeadIsRefused() throws {
    let (path, session) = try makeDemo()
    for command in [
      ["show", session, "--at", "11"], ["diff", session, "0", "99"],
      ["log", session, "--from", "12"],
      ["demo-app", "replay", session, "--to", "11"],
    ] {
      assertOneLineError(
        try runCLI(command + ["--db", path]), contains: "its journal runs from 0 to 10")
    }
  }

  func testAnUnparsableTimeIsRefusedWithTheAcceptedForms() throws {
    let (path, session) = try makeDemo()
    for command in [
      ["log", session, "--since", "yesterday"], ["log", session, "--until", "2026-13-01"],
      ["show", session, "--at-time", "25:00"], ["prune", "--idle-since", "soon"],
      ["demo-app", "replay", session, "--at-time", "2026-11-21T14:02:00+25:00"],
    ] {
      let result = try runCLI(command + ["--db", path])
      assertOneLineError(result, contains: "Cannot read the time")
      XCTAssertTrue(result.stderr.contains("2026-11-21T14:02:00Z"), result.stderr)
    }
    // A time before the session was created.
    assertOneLineError(
      try runCLI(["show", session, "--at-time", "2001-01-01T00:00Z", "--db", path]),
      contains: "was created at")
  }

  func testAMalformedImportLineIsRefusedWithItsNumber() throws {
    let file = directory.path("bad.ndjson")
    try "{\"kind\":\"header\",\"format\":\"stackjournal-session\"\nnot json\n"
      .write(toFile: file, atomically: true, encoding: .utf8)
    let target = directory.path("target.sqlite")
    assertOneLineError(try runCLI(["import", file, "--db", target]), contains: "Line 1 of")
    XCTAssertFalse(FileManager.default.fileExists(atPath: target))
  }

  func testNoDatabaseGivenIsAUsageError() throws {
    let result = try runCLI(["sessions"])
    XCTAssertEqual(result.status, 64)
    XCTAssertTrue(result.stderr.hasPrefix("Error: No journal given"), result.stderr)
  }
}
