import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

/// Times are stored as text that orders as time only for years 0000–9999 in UTC. A time an
/// offset moves out of that range (`9999-12-31T23:00-01:00` is `+10000-01-01T00:00Z`) would
/// compare below 2026; every option that takes a time refuses it with the range instead.
final class StoredTimeRangeTests: CLITestCase {
  func testEveryTimeOptionRefusesATimeAfterYear9999() throws {
    let (path, session) = try makeDemo()
    let before = try fileBytes(path)
    let late = "9999-12-31T23:00-01:00"
    let commands: [(arguments: [String], option: String)] = [
      (["show", session, "--at-time", late], "--at-time"),
      (["log", session, "--since", late], "--since"),
      (["log", session, "--until", late], "--until"),
      (["report", session, "--since", late, "-o", "-"], "--since"),
      (["report", session, "--until", late, "-o", "-"], "--until"),
      (["prune", "--idle-since", late], "--idle-since"),
      (["prune", "--idle-since", late, "--dry-run"], "--idle-since"),
      (["demo-app", "replay", session, "--at-time", late], "--at-time"),
    ]
    for (arguments, option) in commands {
      let result = try runCLI(arguments + ["--db", path])
      assertOneLineError(result, contains: "after the times a journal holds")
      XCTAssertTrue(
        result.stderr.contains("'\(late)' of \(option) is +10000-01-01T00:00:00.000Z"),
        "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("0000-01-01T00:00:00.000Z through 9999-12-31T23:59:59.999Z"),
        "\(arguments): \(result.stderr)")
    }
    XCTAssertEqual(try fileBytes(path), before, "nothing was pruned")
    let sessions = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual((sessions["sessions"] as? [Any])?.count, 1)
  }

  func testEveryTimeOptionRefusesATimeBeforeYear0() throws {
    let (path, session) = try makeDemo()
    let early = "0000-01-01T00:30+01:00"
    for command in [
      ["show", session, "--at-time", early], ["log", session, "--until", early],
      ["prune", "--idle-since", early, "--dry-run"],
    ] {
      assertOneLineError(
        try runCLI(command + ["--db", path]), contains: "before the times a journal holds")
    }
  }

  /// The last millisecond of year 9999 is a time like any other: after every entry.
  func testTheLastMillisecondOfYear9999IsTaken() throws {
    let (path, session) = try makeDemo()
    let last = "9999-12-31T23:59:59.999Z"
    let head = try runCLI(["show", session, "--at-time", last, "--db", path, "--json"])
    XCTAssertEqual(head.status, 0, head.stderr)
    XCTAssertEqual(try head.jsonObject()["sequence"] as? Int, 10)
    let log = try runCLI(["log", session, "--since", last, "--db", path, "--json"])
    XCTAssertEqual(log.status, 0, log.stderr)
    XCTAssertEqual((try log.jsonObject()["entries"] as? [Any])?.count, 0)
  }
}
