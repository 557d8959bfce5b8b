import Foundation
import StackJournalTestSupport
import XCTest

/// `diff`'s sequences are positional: a negative one is refused with the sentence options give
/// a negative number (`--from -1: sequences start at 0, …`), naming FROM or TO, never read as an
/// option and skipped ("Missing expected argument '<to>'").
final class PositionalSequenceTests: CLITestCase {
  func testDiffRefusesANegativeSequenceClearly() throws {
    let db = ["--db", directory.path("none.sqlite")]
    for (arguments, name) in [
      (["diff", "s", "-1", "3"], "FROM"), (["diff", "s", "3", "-1"], "TO"),
      (["diff", "s", "-1", "-2"], "FROM"),
    ] {
      let result = try runCLI(arguments + db, timeout: 30)
      XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
      XCTAssertFalse(result.stderr.contains("Missing expected"), "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains("Error: \(name) -"), "\(arguments): \(result.stderr)")
      XCTAssertTrue(
        result.stderr.contains(": sequences start at 0, the initial state."),
        "\(arguments): \(result.stderr)")
    }
  }

  /// The sequences are read wherever the options sit, and the usage line is unchanged.
  func testDiffReadsItsSequencesAroundOptions() throws {
    let (path, session) = try makeDemo()
    for arguments in [
      ["diff", session, "0", "10", "--db", path, "--json"],
      ["diff", "--db", path, session, "0", "--json", "10"],
    ] {
      let result = try runCLI(arguments)
      XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
      let report = try result.jsonObject()
      XCTAssertEqual(report["from"] as? Int, 0)
      XCTAssertEqual(report["to"] as? Int, 10)
    }
    let help = try runCLI(["diff", "--help"])
    XCTAssertTrue(
      help.stdout.contains("stackjournal diff [--db <path>] <session> <from> <to> [--json]"),
      help.stdout)
    let unknown = try runCLI(["diff", session, "0", "10", "--bogus", "--db", path])
    XCTAssertEqual(unknown.status, 64, unknown.stderr)
    XCTAssertTrue(unknown.stderr.contains("Unknown option '--bogus'"), unknown.stderr)
  }
}
