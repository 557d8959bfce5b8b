import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackStorage
import XCTest

final class StatsAndMigrateTests: CLITestCase {
  func testStatsReportsTablesSessionsActivityAndSnapshotCoverage() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let json = try runCLI(["stats", "--db", path, "--json"]).jsonObject()
    let tables = try XCTUnwrap(json["tables"] as? [[String: Any]])
    let journal = try XCTUnwrap(tables.first { $0["name"] as? String == "journal" })
    XCTAssertEqual(journal["rows"] as? Int, 10)
    XCTAssertGreaterThan(journal["bytes"] as? Int ?? 0, 0)
    let stats = try XCTUnwrap((json["sessions"] as? [[String: Any]])?.first)
    XCTAssertEqual(stats["session"] as? String, session)
    XCTAssertEqual(stats["snapshots"] as? Int, 4)
    XCTAssertEqual(stats["latestSnapshot"] as? Int, 9)
    XCTAssertEqual(stats["largestSnapshotGap"] as? Int, 3)
    let activity = try XCTUnwrap(json["activity"] as? [[String: Any]])
    XCTAssertEqual(activity.reduce(0) { $0 + ($1["entries"] as? Int ?? 0) }, 10)

    let text = try runCLI(["stats", "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.contains("TABLE / INDEX"))
    XCTAssertTrue(text.stdout.contains("MAX REPLAY"))
    XCTAssertTrue(text.stdout.contains("Entries per "))
  }

  func testMigrateShowsVersionsAndOnlyItChangesTheSchema() throws {
    let (path, _) = try makeDemo()
    let current = try runCLI(["migrate", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(current["currentVersion"] as? Int, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(current["targetVersion"] as? Int, SQLiteJournal.latestSchemaVersion)
    XCTAssertEqual(current["pending"] as? [String], [])

    // An empty SQLite database needs every migration.
    let blank = directory.path("blank.sqlite")
    let queue = try DatabaseQueue(path: blank)
    try queue.write { db in
      try db.execute(sql: "CREATE TABLE scratch (x); DROP TABLE scratch;")
    }
    try queue.close()
    let before = try fileBytes(blank)
    let sessions = try runCLI(["sessions", "--db", blank])
    assertOneLineError(sessions, contains: "stackjournal migrate")
    let dryRun = try runCLI(["migrate", "--dry-run", "--db", blank])
    XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
    XCTAssertEqual(
      dryRun.stdout,
      """
      Schema of \(blank): version 0; this build: version 6.
      Would apply (dry run, nothing changed):
        0001_initial.sql
        0002_clustered_rows.sql
        0003_time_without_index.sql
        0004_journal_by_number.sql
        0005_presented_destinations.sql
        0006_journaled_draws.sql

      """)
    XCTAssertEqual(try fileBytes(blank), before)
    let migrated = try runCLI(["migrate", "--db", blank, "--json"]).jsonObject()
    XCTAssertEqual(
      migrated["applied"] as? [String],
      [
        "0001_initial.sql", "0002_clustered_rows.sql", "0003_time_without_index.sql",
        "0004_journal_by_number.sql", "0005_presented_destinations.sql",
        "0006_journaled_draws.sql",
      ])
    XCTAssertEqual(migrated["version"] as? Int, 6)
    XCTAssertEqual(try runCLI(["sessions", "--db", blank]).stdout, "No sessions in \(blank).\n")
  }

  func testReplayRestoresTheFullStateThroughTheAppsReducer() throws {
    let (path, session) = try makeDemo()
    let json = try runCLI(["demo-app", "replay", session, "--to", "8", "--db", path, "--json"])
      .jsonObject()
    XCTAssertEqual(json["sequence"] as? Int, 8)
    XCTAssertEqual(json["complete"] as? Bool, true)
    let state = try XCTUnwrap(json["state"] as? [String: Any])
    let path4 = try XCTUnwrap(state["path"] as? [String: Any])
    XCTAssertEqual(path4["nextID"] as? Int ?? path4["nextId"] as? Int, 5, "\(path4.keys)")
    let shown = try runCLI(["show", session, "--at", "8", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(json["stacks"] as? NSArray, shown["stacks"] as? NSArray)
    // The fact's alert is open at 8: the replayed state presents it where the journal says.
    XCTAssertEqual(json["presentations"] as? NSArray, shown["presentations"] as? NSArray)
    XCTAssertEqual((json["presentations"] as? [Any])?.count, 1)

    let text = try runCLI(["demo-app", "replay", session, "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(text.stdout.hasPrefix("Session demo-1 at sequence 10 (head 10)"), text.stdout)
    XCTAssertTrue(text.stdout.contains("RootFeature.State("), text.stdout)
  }
}
