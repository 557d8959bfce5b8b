import Foundation
import StackJournalTestSupport
import XCTest

/// A `postgres://` journal given to the CLI: one line that says what this build can do.
final class PostgresURLTests: CLITestCase {
  func testAPostgresURLGetsOneLineSayingWhatThisBuildSupports() throws {
    for command in [["sessions"], ["log", "s"], ["show", "s"], ["verify"], ["demo"]] {
      for db in [
        "postgres://app:secret@127.0.0.1:1/app", "postgresql://app:secret@127.0.0.1:1/app",
      ] {
        let result = try runCLI(command + ["--db", db])
        #if PostgreSQL
          // With PostgreSQL support, the commands connect; nothing listens on port 1.
          assertOneLineError(result, contains: "Cannot connect to PostgreSQL at 127.0.0.1:1")
        #else
          assertOneLineError(
            result,
            contains: "swift build --traits PostgreSQL")
        #endif
      }
    }
    XCTAssertEqual(try files(), [])
    let result = try runCLI(["show", "s", "--db", "postgres://app:secret@127.0.0.1:1/app"])
    XCTAssertFalse(result.stderr.contains("secret"), "no password is shown")
  }
}
