import Foundation
import StackJournalTestSupport
import XCTest

/// `compact --vacuum` and `prune --vacuum` whose deletion was committed and whose `VACUUM`
/// then failed (issue 39, defect 9): they report the deletion, and say that only the `VACUUM`
/// failed, instead of an error that reads as if nothing was changed.
///
/// The disk is "full" for the `VACUUM` only: a file size limit (`ulimit -f`, with SIGXFSZ
/// ignored so a write past it fails with EFBIG) of half the journal leaves room for the delete,
/// written to the log, but not for `VACUUM`'s copy of the journal.
final class VacuumFailureTests: CLITestCase {
  /// A journal with a long session and a short one, and the limit that lets a delete through
  /// but not a `VACUUM`, in the 512-byte blocks of `ulimit -f`.
  private func makeJournal() throws -> (path: String, long: String, limit: Int) {
    let (path, long) = try makeDemo(snapshotInterval: 100, actions: 1500)
    XCTAssertEqual(
      try runCLI(["demo", "--db", path, "--session", "short", "--json"]).status, 0)
    let size = try XCTUnwrap(
      try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)
    return (path, long, size.intValue / 512 / 2)
  }

  private func runWithLimit(_ arguments: [String], blocks: Int) throws -> CLIResult {
    try runCLIThroughShell(arguments, setup: "trap '' XFSZ; ulimit -f \(blocks)")
  }

  /// Defect 9, `prune --vacuum`: the session was deleted, and the command printed only the
  /// `VACUUM`'s error.
  func testAPruneWhoseVacuumFailsSaysTheSessionWasDeleted() throws {
    let (path, _, limit) = try makeJournal()
    let result = try runWithLimit(
      ["prune", "--session", "short", "--vacuum", "--db", path], blocks: limit)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(result.stdout.contains("Deleted 1 session(s)"), result.stdout)
    let expected =
      "The deletion was committed and stays: 1 session(s), short. Only the VACUUM after it failed"
    XCTAssertTrue(result.stderr.contains(expected), result.stderr)
    XCTAssertFalse(result.stderr.contains("nothing of this write was kept"), result.stderr)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    let sessions = try runCLI(["sessions", "--db", path, "--json"])
    XCTAssertFalse(sessions.stdout.contains("\"short\""), sessions.stdout)
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
  }

  /// Defect 9, `compact --vacuum`: the history was dropped, and the command printed only the
  /// `VACUUM`'s error.
  func testACompactionWhoseVacuumFailsSaysWhatWasDropped() throws {
    let (path, long, limit) = try makeJournal()
    let result = try runWithLimit(
      ["compact", long, "--keep-snapshots", "16", "--vacuum", "--db", path], blocks: limit)
    XCTAssertEqual(result.status, 2, result.stderr)
    XCTAssertTrue(
      result.stdout.contains("Dropped from session \(long): 100 entries"), result.stdout)
    let expected =
      "The deletion was committed and stays: 100 entries (1…100) and 1 snapshot(s) of session "
      + "\(long). Only the VACUUM after it failed"
    XCTAssertTrue(result.stderr.contains(expected), result.stderr)
    XCTAssertEqual(result.stderrLines.count, 1, result.stderr)
    let show = try runCLI(["show", long, "--at", "50", "--db", path])
    XCTAssertTrue(show.stderr.contains("was compacted"), show.stderr)
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
  }
}
