import Foundation
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import StackRestoration
import StackStorage
import XCTest

final class ShowCommandTests: CLITestCase {
  /// Given the demo's journal, when shown at every sequence, expect the stacks the restoration
  /// module restores through the app's reducer.
  func testShowAtEverySequenceEqualsWhatTheReplayerRestores() async throws {
    let (path, session) = try makeDemo(snapshotInterval: 3)
    let journal = try SQLiteJournal(path: path, options: .init(readOnly: true))
    let replayer = Replayer(journal: journal) { RootFeature() }
    for sequence in Int64(0)...10 {
      let shown = try runCLI(["show", session, "--at", String(sequence), "--db", path, "--json"])
      XCTAssertEqual(shown.status, 0, shown.stderr)
      let document = try shown.jsonObject()
      XCTAssertEqual(document["session"] as? String, session)
      XCTAssertEqual(document["sequence"] as? Int, Int(sequence))
      let stacks = try XCTUnwrap(document["stacks"] as? [[String: Any]])

      let restored = try await replayer.restore(session: SessionID(session), at: .sequence(sequence))
      let expected = try StateEncoding.encode(restored.state).stacks
      XCTAssertEqual(stacks.count, expected.count, "at \(sequence)")
      for (stack, record) in zip(stacks, expected) {
        XCTAssertEqual(stack["path"] as? String, record.path)
        XCTAssertEqual(stack["nextID"] as? Int, record.nextID.generation, "at \(sequence)")
        let elements = try XCTUnwrap(stack["elements"] as? [[String: Any]])
        XCTAssertEqual(elements.map { $0["id"] as? Int }, record.elements.map(\.id.generation))
        XCTAssertEqual(elements.map { $0["case"] as? String }, record.elements.map(\.caseName))
        for (element, stored) in zip(elements, record.elements) {
          let full = try JSONSerialization.jsonObject(with: Data(stored.state.utf8))
          let inner = ((full as? [String: Any])?[stored.caseName ?? ""] as? [String: Any])?["_0"]
          XCTAssertEqual(
            element["state"] as? NSDictionary, inner as? NSDictionary,
            "element \(stored.id) at \(sequence)")
        }
      }
    }
  }

  func testShowDefaultsToTheHeadAndPrintsForPeople() throws {
    let (path, session) = try makeDemo()
    let result = try runCLI(["show", session, "--db", path])
    XCTAssertEqual(result.status, 0, result.stderr)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[0].hasPrefix("Session demo-1 at sequence 10 (head"), lines[0])
    XCTAssertEqual(lines[1], "path  2 elements, next ID #6")
    XCTAssertEqual(lines[2], "  #0  counter  {\"count\":42}")
    XCTAssertEqual(lines[3], "  #5  counter  {\"count\":7}")
  }

  func testShowAtATimePicksTheLastEntryRecordedBefore() throws {
    let (path, session) = try makeDemo()
    let entries = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    let time6 = try XCTUnwrap(entries[5]["time"] as? String)
    XCTAssertEqual(entries[5]["sequence"] as? Int, 6)
    let byTime = try runCLI(["show", session, "--at-time", time6, "--db", path, "--json"])
    XCTAssertEqual(byTime.status, 0, byTime.stderr)
    // Several entries may share a millisecond: the last one recorded at that time is shown.
    let sequence = try XCTUnwrap(try byTime.jsonObject()["sequence"] as? Int)
    let sameTime = entries.filter { $0["time"] as? String == time6 }.compactMap {
      $0["sequence"] as? Int
    }
    XCTAssertEqual(sequence, sameTime.max())
  }

  func testDiffShowsPushedPoppedAndChangedFields() throws {
    let (path, session) = try makeDemo()
    let json = try runCLI(["diff", session, "0", "8", "--db", path, "--json"]).jsonObject()
    let stack = try XCTUnwrap((json["stacks"] as? [[String: Any]])?.first)
    XCTAssertEqual((stack["pushed"] as? [[String: Any]])?.map { $0["id"] as? Int }, [4])
    XCTAssertEqual((stack["popped"] as? [[String: Any]])?.count, 0)
    let changed = try XCTUnwrap((stack["changed"] as? [[String: Any]])?.first)
    XCTAssertEqual(changed["id"] as? Int, 2)
    let field = try XCTUnwrap((changed["fields"] as? [[String: Any]])?.first)
    XCTAssertEqual(field["path"] as? String, "count")
    XCTAssertEqual(field["from"] as? Int, -999)
    XCTAssertEqual(field["to"] as? Int, -1000)

    let text = try runCLI(["diff", session, "5", "10", "--db", path])
    XCTAssertEqual(text.status, 0)
    XCTAssertEqual(
      text.stdout,
      """
      Session demo-1: sequence 5 → 10
      path  (next ID #4 → #6)
        + #5 counter  {"count":7}
        - #1 counter  {"count":1729}
        - #2 counter  {"count":-1000}

      """)
  }
}
