import Foundation
import GRDB
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class LogCommandTests: CLITestCase {
  func testSessionsListsEntriesHeadActivityAndSize() throws {
    let (path, session) = try makeDemo()
    let json = try runCLI(["sessions", "--db", path, "--json"]).jsonObject()
    let listed = try XCTUnwrap((json["sessions"] as? [[String: Any]])?.first)
    XCTAssertEqual(listed["id"] as? String, session)
    XCTAssertEqual(listed["entries"] as? Int, 10)
    XCTAssertEqual(listed["headSequence"] as? Int, 10)
    XCTAssertNotNil(listed["firstActivity"] as? String)
    XCTAssertGreaterThan(listed["bytes"] as? Int ?? 0, 1000)

    let text = try runCLI(["sessions"], environment: ["STACKJOURNAL_DB": path])
    XCTAssertEqual(text.status, 0, text.stderr)
    let lines = text.stdout.split(separator: "\n")
    XCTAssertTrue(lines[0].hasPrefix("SESSION  ENTRIES  HEAD  FIRST ACTIVITY (UTC)"), "\(lines[0])")
    XCTAssertTrue(lines[1].hasPrefix("demo-1        10    10  "), "\(lines[1])")
  }

  func testLogPrintsEveryEntryNewestLast() throws {
    let (path, session) = try makeDemo()
    let result = try runCLI(["log", session, "--db", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n")
    XCTAssertEqual(lines.count, 11)
    XCTAssertTrue(lines[0].hasPrefix("SEQ  TIME (UTC)"))
    XCTAssertTrue(lines[2].contains("pushCounterTapped"))
    XCTAssertTrue(lines[2].contains("path: +#3 counter"))
    XCTAssertTrue(lines[5].contains("path.popFrom"), "the counter's dismissal, from its effect")
    XCTAssertTrue(lines[10].hasPrefix(" 10  "))
  }

  func testLogJSONAndNDJSONCarryTheEntries() throws {
    let (path, session) = try makeDemo()
    let document = try runCLI(["log", session, "--db", path, "--json"]).jsonObject()
    XCTAssertEqual(document["session"] as? String, session)
    let entries = try XCTUnwrap(document["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.map { $0["sequence"] as? Int }, Array(1...10))
    XCTAssertEqual(entries[1]["type"] as? String, "pushCounterTapped")
    XCTAssertEqual(
      (entries[1]["payload"] as? [String: Any])?["pushCounterTapped"] as? NSDictionary,
      ["count": 3])
    let changes = try XCTUnwrap(entries[1]["changes"] as? [[String: Any]])
    XCTAssertEqual((changes[0]["pushed"] as? [[String: Any]])?.first?["id"] as? Int, 3)

    let lines = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    XCTAssertEqual(lines.count, 10)
    XCTAssertEqual(lines[7]["type"] as? String, "path.element.numberFact.factResponse")
  }

  func testLogJSONStaysJSONWhenAStoredPayloadHoldsNumbersOutsideJSONsGrammar() throws {
    let (path, session) = try makeDemo()
    // Written by another tool, or before the journal checked payloads: numbers `Double()`
    // reads but JSON does not allow.
    let odd = ["+1", "01", "1.", #"{"count":-01}"#, "[.5]", "1e"]
    let queue = try DatabaseQueue(path: path)
    try queue.write { db in
      for (index, payload) in odd.enumerated() {
        try db.execute(
          sql: "UPDATE journal SET payload = ? WHERE session_number = "
            + "(SELECT number FROM sessions WHERE id = ?) AND sequence = ?",
          arguments: [payload, session, index + 1])
      }
    }
    try queue.close()

    let document = try runCLI(["log", session, "--db", path, "--json"]).jsonObject()
    let entries = try XCTUnwrap(document["entries"] as? [[String: Any]])
    XCTAssertEqual(entries.prefix(odd.count).map { $0["payload"] as? String }, odd)
    let lines = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    XCTAssertEqual(lines.prefix(odd.count).map { $0["payload"] as? String }, odd)
    XCTAssertEqual(
      (entries[odd.count]["payload"] as? [String: Any])?.isEmpty, false,
      "JSON payloads are still printed as JSON")
  }

  func testLogFiltersCombine() throws {
    let (path, session) = try makeDemo()
    func sequences(_ arguments: String...) throws -> [Int] {
      let result = try runCLI(["log", session, "--db", path, "--ndjson"] + arguments)
      XCTAssertEqual(result.status, 0, result.stderr)
      return try result.jsonLines().compactMap { $0["sequence"] as? Int }
    }
    XCTAssertEqual(try sequences("--from", "3", "--to", "5"), [3, 4, 5])
    XCTAssertEqual(try sequences("-n", "3"), [8, 9, 10])
    XCTAssertEqual(try sequences("-n", "3", "--reverse"), [10, 9, 8])
    XCTAssertEqual(try sequences("--reverse", "--to", "2"), [2, 1])
    XCTAssertEqual(try sequences("--type", "popFrom"), [5, 9])
    XCTAssertEqual(try sequences("--type", "path.element.counter.*"), [1, 3, 4])
    XCTAssertEqual(try sequences("--type", "push*", "-n", "1"), [10])
    XCTAssertEqual(try sequences("-n", "0"), [])

    let all = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    let time4 = try XCTUnwrap(all[3]["time"] as? String)
    func recorded(_ include: (String) -> Bool) -> [Int] {
      all.filter { include($0["time"] as? String ?? "") }.compactMap { $0["sequence"] as? Int }
    }
    XCTAssertEqual(try sequences("--since", time4), recorded { $0 >= time4 })
    XCTAssertEqual(try sequences("--until", time4), recorded { $0 <= time4 })
    XCTAssertEqual(
      try sequences("--since", time4, "--until", time4, "--type", "*counter*"),
      recorded { $0 == time4 }.filter { [1, 2, 3, 4, 10].contains($0) })
    // A clock time on the session's day, and ISO-8601 without seconds, are accepted.
    let minute = String(time4.dropFirst(11).prefix(5))
    XCTAssertEqual(try sequences("--until", "23:59:59").count, 10)
    XCTAssertFalse(try sequences("--since", minute).isEmpty)
    XCTAssertFalse(try sequences("--since", String(time4.prefix(16)) + "Z").isEmpty)
    XCTAssertFalse(try sequences("--since", String(time4.prefix(16)) + "+00:00").isEmpty)
  }

  func testFollowPrintsEntriesAppendedWhileItRuns() async throws {
    let (path, session) = try makeDemo()
    let follower = try CLIProcess([
      "log", session, "--db", path, "--ndjson", "--follow", "-n", "2", "--poll-interval", "20",
    ])
    defer { follower.stop() }
    try follower.waitForLines(2)
    // An app keeps recording into the session while the follower reads it.
    let journal = try SQLiteJournal(path: path)
    let store = try await RecordingStore<RootFeature.State, RootFeature.Action>.open(
      session: SessionID(session), journal: journal, initialState: RootFeature.State()
    ) { RootFeature() }
    try await store.send(.pushCounterTapped(count: 11))
    try await store.send(.pushNumberFactTapped(number: 12))
    let lines = try follower.waitForLines(4)
    let objects = try lines.map {
      try XCTUnwrap(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
    }
    XCTAssertEqual(objects.map { $0["sequence"] as? Int }, [9, 10, 11, 12])
    XCTAssertEqual(objects[3]["type"] as? String, "pushNumberFactTapped")
    XCTAssertTrue(follower.isRunning)
  }
}
