import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class RetentionCommandTests: CLITestCase {
  func testCompactDryRunReportsAndCompactDropsHistoryBelowTheOldestKeptSnapshot() throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let headBefore = try runCLI(["show", session, "--db", path, "--json"]).jsonObject()
    let before = try fileBytes(path)
    let dryRun = try runCLI([
      "compact", session, "--keep-snapshots", "2", "--dry-run", "--db", path, "--json",
    ])
    XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
    let plan = try dryRun.jsonObject()
    XCTAssertEqual(plan["keptSnapshots"] as? [Int], [6, 9])
    XCTAssertEqual(plan["droppedSnapshots"] as? [Int], [0, 3])
    XCTAssertEqual(plan["droppedEntries"] as? Int, 6)
    XCTAssertEqual(plan["applied"] as? Bool, false)
    XCTAssertEqual(try fileBytes(path), before, "a dry run changes nothing")

    let text = try runCLI(["compact", session, "--keep-snapshots", "2", "--db", path])
    XCTAssertEqual(text.status, 0, text.stderr)
    XCTAssertTrue(
      text.stdout.hasPrefix("Dropped from session demo-1: 6 entries (1…6) and 2 snapshot(s)"),
      text.stdout)
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
    let headAfter = try runCLI(["show", session, "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(headAfter["stacks"] as? NSArray, headBefore["stacks"] as? NSArray)
    let log = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    XCTAssertEqual(log.compactMap { $0["sequence"] as? Int }, [7, 8, 9, 10])
    let gone = try runCLI(["show", session, "--at", "2", "--db", path])
    assertOneLineError(gone, contains: "compacted")
    XCTAssertEqual(try runCLI(["show", session, "--at", "6", "--db", path]).status, 0)
  }

  func testShowAtATimeBetweenTheKeptSnapshotAndTheNextEntryShowsTheSnapshot() async throws {
    let path = directory.path("timed.sqlite")
    let t0 = Date(timeIntervalSince1970: 1_700_000_000)
    try await recordPushes(
      "timed", at: path, start: t0, offsets: (1...5).map { Double($0) * 10 }, snapshotInterval: 2)
    let compacted = try runCLI(["compact", "timed", "--keep-snapshots", "2", "--db", path])
    XCTAssertEqual(compacted.status, 0, compacted.stderr)

    // Snapshot 2 was recorded at t0 + 20 s, entry 3 at t0 + 30 s.
    let between = try runCLI([
      "show", "timed", "--at-time", "2023-11-14T22:13:45Z", "--db", path, "--json",
    ])
    XCTAssertEqual(between.status, 0, between.stderr)
    let shown = try between.jsonObject()
    XCTAssertEqual(shown["sequence"] as? Int, 2)
    let stacks = try XCTUnwrap(shown["stacks"] as? [[String: Any]])
    XCTAssertEqual((stacks.first?["elements"] as? [Any])?.count, 2)

    let before = try runCLI(["show", "timed", "--at-time", "2023-11-14T22:13:35Z", "--db", path])
    assertOneLineError(before, contains: "compacted: its history now starts at sequence 2")
  }

  func testPruneDeletesMatchingSessionsOnlyWhenAsked() throws {
    let (path, _) = try makeDemo()
    try makeDemo()
    let none = try runCLI(["prune", "--db", path])
    XCTAssertEqual(none.status, 64, "a criterion is required")
    let future = "2999-01-01"
    let dryRun = try runCLI(["prune", "--idle-since", future, "--dry-run", "--db", path, "--json"])
    XCTAssertEqual(dryRun.status, 0, dryRun.stderr)
    XCTAssertEqual(
      (try dryRun.jsonObject()["sessions"] as? [[String: Any]])?.map { $0["id"] as? String },
      ["demo-1", "demo-2"])
    let past = try runCLI(["prune", "--idle-since", "2000-01-01T00:00Z", "--db", path])
    XCTAssertEqual(past.stdout, "No session matches; nothing was deleted.\n")
    let one = try runCLI(["prune", "--session", "demo-2", "--db", path])
    XCTAssertEqual(one.status, 0, one.stderr)
    XCTAssertTrue(one.stdout.hasPrefix("Deleted 1 session(s)"), one.stdout)
    let left = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual((left["sessions"] as? [[String: Any]])?.map { $0["id"] as? String }, ["demo-1"])
    XCTAssertEqual(try runCLI(["verify", "--db", path]).status, 0)
  }

  func testPruneForksKeepsTheirSource() async throws {
    let (path, session) = try makeDemo()
    do {
      let journal = try SQLiteJournal(path: path)
      _ = try await RecordingStore<RootFeature.State, RootFeature.Action>.fork(
        SessionID(session), at: .sequence(5), into: "what-if", journal: journal
      ) { RootFeature() }
    }
    let listed = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    let fork = try XCTUnwrap(
      (listed["sessions"] as? [[String: Any]])?.first { $0["id"] as? String == "what-if" })
    XCTAssertEqual(fork["forkedFrom"] as? String, session)
    XCTAssertEqual(fork["forkedAt"] as? Int, 5)

    let dryRun = try runCLI(["prune", "--forks", "--dry-run", "--db", path, "--json"])
    XCTAssertEqual(
      (try dryRun.jsonObject()["sessions"] as? [[String: Any]])?.map { $0["id"] as? String },
      ["what-if"])
    let pruned = try runCLI(["prune", "--forks-of", session, "--db", path])
    XCTAssertEqual(pruned.status, 0, pruned.stderr)
    XCTAssertTrue(pruned.stdout.hasPrefix("Deleted 1 session(s)"), pruned.stdout)
    let left = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual((left["sessions"] as? [[String: Any]])?.map { $0["id"] as? String }, [session])
  }
}
