import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackStorage
import XCTest

final class DemoCommandTests: CLITestCase {
  func testDemoRecordsRestoresAndPrintsTheCommandsToRunNext() throws {
    let path = directory.path("demo.sqlite")
    let result = try runCLI(["demo", "--db", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stdout.contains("Recorded session demo-1 into \(path): 10 actions"))
    XCTAssertTrue(result.stdout.contains("#0 counter 42 · #1 counter 1729 · #2 counter -999"))
    XCTAssertTrue(result.stdout.contains("#3 reached 5 and dismissed itself"))
    XCTAssertTrue(result.stdout.contains("path.popFrom"))
    XCTAssertTrue(result.stdout.contains("path.element.numberFact.factResponse"))
    // The alert is spoken of as `show` and `log` speak of it, not as a stack of one element.
    XCTAssertTrue(
      result.stdout.contains(
        "presented alert \"42 is even, its digits sum to 6, and it has 8 positive divisors.\" "
          + "over #4 of path (path[#4].numberFact.alert)"), result.stdout)
    XCTAssertTrue(
      result.stdout.contains("· presented: alert \"42 is even"), result.stdout)
    XCTAssertTrue(
      result.stdout.contains("dismissed what was presented over #4 of path"), result.stdout)
    XCTAssertFalse(result.stdout.contains("push #0 title"), result.stdout)
    XCTAssertFalse(result.stdout.contains("#0 title {"), result.stdout)
    XCTAssertTrue(result.stdout.contains("stackjournal show demo-1 --at 0 --db \(path)"))
    XCTAssertTrue(result.stdout.contains("stackjournal demo-app replay demo-1 --to 8 --db \(path)"))
    XCTAssertTrue(result.stdout.contains("stackjournal report demo-1 --db \(path) -o demo-1.html"))
    XCTAssertFalse(result.stdout.contains("\u{1B}["), "no colour when not on a terminal")
  }

  func testDemoJSONListsTheRestoredMoments() throws {
    let path = directory.path("demo.sqlite")
    let summary = try runCLI(["demo", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(summary["session"] as? String, "demo-1")
    XCTAssertEqual(summary["headSequence"] as? Int, 10)
    let moments = try XCTUnwrap(summary["moments"] as? [[String: Any]])
    XCTAssertEqual(moments.map { $0["sequence"] as? Int }, [0, 2, 5, 8, 10])
    let head = try XCTUnwrap(moments.last?["stacks"] as? [[String: Any]])
    let ids = (head.first?["elements"] as? [[String: Any]])?.map { $0["id"] as? Int }
    XCTAssertEqual(ids, [0, 5], "IDs are never reused: the pushed counter after pops is #5")
  }

  func testRerunningOnAnExistingFileStartsANewSession() throws {
    let (path, first) = try makeDemo()
    let (_, second) = try makeDemo()
    XCTAssertEqual(first, "demo-1")
    XCTAssertEqual(second, "demo-2")
    let sessions = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(
      (sessions["sessions"] as? [[String: Any]])?.map { $0["id"] as? String }, ["demo-1", "demo-2"])
  }

  func testMoreActionsReportProgressAndVerify() throws {
    let path = directory.path("big.sqlite")
    let result = try runCLI([
      "demo", "--db", path, "--actions", "300", "--durability", "normal", "--json",
    ])
    XCTAssertEqual(result.status, 0, result.stderr)
    XCTAssertTrue(result.stderr.contains("recorded 300/300 random actions"), result.stderr)
    let head = try XCTUnwrap(try result.jsonObject()["headSequence"] as? Int)
    XCTAssertGreaterThanOrEqual(head, 310)
    let verify = try runCLI(["verify", "--db", path])
    XCTAssertEqual(verify.status, 0, verify.stdout)
    let replay = try runCLI(["demo-app", "verify", "--replay", "--db", path])
    XCTAssertEqual(replay.status, 0, replay.stdout)
  }
}
