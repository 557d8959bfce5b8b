import Foundation
import StackJournalTestSupport
import StackStorage
import XCTest

final class VerifyCommandTests: CLITestCase {
  func testACleanFileVerifiesWithStatusZero() throws {
    let (path, session) = try makeDemo()
    let result = try runCLI(["verify", "--db", path])
    XCTAssertEqual(result.status, 0, result.stdout)
    XCTAssertTrue(result.stdout.contains("migration 0001_initial.sql: checksum ok"))
    XCTAssertTrue(
      result.stdout.contains("session \(session): 10 entries, 4 snapshots, head 10: ok"))
    XCTAssertTrue(result.stdout.hasSuffix("Clean: 1 session(s) verified.\n"))

    let json = try runCLI(["verify", session, "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(json["clean"] as? Bool, true)
    let checked = try XCTUnwrap((json["sessions"] as? [[String: Any]])?.first)
    XCTAssertEqual(checked["checkedEntries"] as? Int, 10)
    XCTAssertEqual(checked["checkedSnapshots"] as? Int, 4)
  }

  func testAGapInTheJournalIsReported() throws {
    let (path, session) = try makeDemo()
    try tamper(
      path,
      "DELETE FROM journal WHERE session_number = (SELECT number FROM sessions WHERE id = ?) "
        + "AND sequence = 7", arguments: [session])
    let result = try runCLI(["verify", "--db", path, "--json"])
    XCTAssertEqual(result.status, 1)
    let problems = try problems(result)
    XCTAssertEqual(problems.first?["kind"] as? String, "sequenceGap")
    XCTAssertEqual(problems.first?["sequence"] as? Int, 8)
  }

  func testAPushOfAnIDTheStackHoldsIsReported() throws {
    let (path, session) = try makeDemo()
    // Entry 10 pushes #5 onto [#0]; make it push #0, which the stack holds.
    try tamper(
      path,
      "UPDATE journal SET delta = replace(replace(delta, '\"id\":5', '\"id\":0'), "
        + "'[0,5]', '[0,0]') WHERE session_number = "
        + "(SELECT number FROM sessions WHERE id = ?) AND sequence = 10",
      arguments: [session])
    let result = try runCLI(["verify", session, "--db", path, "--json"])
    XCTAssertEqual(result.status, 1, result.stdout)
    let problem = try XCTUnwrap(try problems(result).first)
    XCTAssertEqual(problem["kind"] as? String, "inconsistentDelta")
    XCTAssertEqual(problem["sequence"] as? Int, 10)
    XCTAssertTrue(
      (problem["message"] as? String ?? "").contains("pushes #0, which the stack already holds"),
      "\(problem)")
  }

  func testStackRowsThatDisagreeWithTheJournalAreReported() throws {
    let (path, session) = try makeDemo()
    try tamper(
      path,
      "UPDATE stack_elements SET state = '{\"counter\":{\"_0\":{\"count\":8}}}' "
        + "WHERE session = ? AND id = 5", arguments: [session])
    let text = try runCLI(["verify", "--db", path])
    XCTAssertEqual(text.status, 1)
    XCTAssertTrue(text.stdout.contains("stackRowsMismatch"), text.stdout)
    XCTAssertTrue(text.stdout.hasSuffix("1 problem(s) found.\n"), text.stdout)
  }

  func testANextIDBelowAnElementIsReported() throws {
    let (path, session) = try makeDemo()
    try tamper(path, "UPDATE stacks SET next_id = 3 WHERE session = ?", arguments: [session])
    let result = try runCLI(["verify", "--db", path, "--json"])
    XCTAssertEqual(result.status, 1)
    XCTAssertTrue(try problems(result).contains { $0["kind"] as? String == "idNotBelowNextID" })
  }

  func testASnapshotThatDisagreesWithTheJournalIsReported() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    try tamper(
      path, "UPDATE snapshots SET stacks = '[]' WHERE session = ? AND sequence = 6",
      arguments: [session])
    let result = try runCLI(["verify", "--db", path, "--json"])
    XCTAssertEqual(result.status, 1)
    // The snapshot's stacks differ from the journal's, and from its own state too.
    let found = try problems(result).map { "\($0["kind"] ?? "") \($0["sequence"] ?? "")" }
    XCTAssertTrue(found.contains("snapshotMismatch 6"), "\(found)")
    XCTAssertTrue(found.contains("snapshotStateMismatch 6"), "\(found)")
  }

  func testAnEditedMigrationChecksumIsReported() throws {
    let (path, _) = try makeDemo()
    try tamper(path, "UPDATE schema_migrations SET checksum = 'abc' WHERE version = 1")
    let result = try runCLI(["verify", "--db", path])
    XCTAssertNotEqual(result.status, 0)
    XCTAssertTrue(
      (result.stdout + result.stderr).contains("checksum"), result.stdout + result.stderr)
  }

  func testReplayVerificationWithTheAppsReducer() throws {
    let (path, session) = try makeDemo()
    let clean = try runCLI(["demo-app", "verify", "--replay", "--db", path, "--json"])
    XCTAssertEqual(clean.status, 0, clean.stdout)
    let replay = try XCTUnwrap((try clean.jsonObject()["replay"] as? [[String: Any]])?.first)
    XCTAssertEqual(replay["checkedEntries"] as? Int, 10)
    XCTAssertTrue(replay["divergence"] is NSNull)

    // A recorded action the reducer no longer turns into the recorded stacks.
    try tamper(
      path,
      "UPDATE journal SET payload = '{\"pushCounterTapped\":{\"count\":4}}' "
        + "WHERE session_number = (SELECT number FROM sessions WHERE id = ?) AND sequence = 2",
      arguments: [session])
    let diverged = try runCLI(["demo-app", "verify", "--replay", "--db", path, "--json"])
    XCTAssertEqual(diverged.status, 1, diverged.stdout)
    let result = try XCTUnwrap((try diverged.jsonObject()["replay"] as? [[String: Any]])?.first)
    let divergence = try XCTUnwrap(result["divergence"] as? [String: Any])
    XCTAssertEqual(divergence["sequence"] as? Int, 2)
    XCTAssertEqual(divergence["kind"] as? String, "changedReducer")
    // Without --replay the storage alone is consistent.
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
  }

  private func problems(_ result: CLIResult) throws -> [[String: Any]] {
    let sessions = try XCTUnwrap(try result.jsonObject()["sessions"] as? [[String: Any]])
    return sessions.flatMap { $0["problems"] as? [[String: Any]] ?? [] }
  }
}
