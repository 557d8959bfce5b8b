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
      let records = try StateEncoding.encode(restored.state).stacks
      let expected = records.filter { !$0.isPresentation }
      // What is presented is listed apart from the stacks, where the restored state presents it.
      let presentations = try XCTUnwrap(document["presentations"] as? [[String: Any]])
      XCTAssertEqual(
        presentations.map { $0["path"] as? String },
        records.filter(\.isPresentation).map(\.path), "at \(sequence)")
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

  /// Given the demo's journal, when `show` runs at a sequence, at a time and at the head with
  /// `STACKJOURNAL_TRACE_SQL=1`, expect the same output as without it, and in the trace on
  /// standard error one read transaction that reads the session's rows, in which the head is
  /// read once; the other transactions are the open's check of the schema version.
  func testShowReadsEverythingInOneReadTransaction() throws {
    let (path, session) = try makeDemo()
    let entries = try runCLI(["log", session, "--db", path, "--ndjson"]).jsonLines()
    let time6 = try XCTUnwrap(entries[5]["time"] as? String)
    let clock6 = String(time6.dropFirst(11).prefix(12))
    let moments = [
      ["--at", "5"], ["--at", "5", "--json"], [], ["--at-time", time6], ["--at-time", clock6],
    ]
    for moment in moments {
      let arguments = ["show", session, "--db", path] + moment
      let plain = try runCLI(arguments)
      XCTAssertEqual(plain.status, 0, plain.stderr)
      XCTAssertEqual(plain.stderr, "")
      let traced = try runCLI(arguments, environment: ["STACKJOURNAL_TRACE_SQL": "1"])
      XCTAssertEqual(traced.status, 0, traced.stderr)
      XCTAssertEqual(traced.stdout, plain.stdout, "\(moment)")

      let lines = traced.stderrLines
      XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("sql: ") }, traced.stderr)
      var transactions: [[String]] = []
      var current: [String]?
      var outside: [String] = []
      for line in lines.map({ String($0.dropFirst(5)) }) {
        if line.hasPrefix("BEGIN") {
          XCTAssertNil(current, traced.stderr)
          current = []
        } else if line.hasPrefix("COMMIT") {
          transactions.append(try XCTUnwrap(current, traced.stderr))
          current = nil
        } else if current != nil {
          current?.append(line)
        } else {
          outside.append(line)
        }
      }
      XCTAssertNil(current, traced.stderr)
      let readsRows = { (sql: String) in
        ["FROM sessions", "FROM journal", "FROM snapshots"].contains { sql.contains($0) }
      }
      XCTAssertFalse(outside.contains(where: readsRows), traced.stderr)
      let reading = transactions.filter { $0.contains(where: readsRows) }
      XCTAssertEqual(reading.count, 1, "\(moment): \(traced.stderr)")
      XCTAssertEqual(
        transactions.filter { !$0.contains(where: readsRows) },
        Array(repeating: ["PRAGMA user_version"], count: transactions.count - reading.count),
        traced.stderr)
      XCTAssertEqual(
        reading.first?.filter { $0.contains("max(s.head_sequence") }.count, 1, traced.stderr)
    }
  }

  /// Expect the trace to show statements, never the values bound to them: a session named
  /// with control codes reaches standard error only escaped, in the error line. A value of
  /// `STACKJOURNAL_TRACE_SQL` other than 1, 0 or nothing is refused in one line.
  func testTheSQLTraceNeverPrintsBoundValuesAndRefusesAnUnknownSetting() throws {
    let (path, _) = try makeDemo()
    let hostile = "demo\u{1B}]0;owned\u{07}"
    let traced = try runCLI(
      ["show", hostile, "--db", path], environment: ["STACKJOURNAL_TRACE_SQL": "1"])
    XCTAssertEqual(traced.status, 2, traced.stderr)
    XCTAssertFalse(traced.stderr.contains("\u{1B}"), traced.stderr)
    XCTAssertFalse(traced.stderr.contains("\u{07}"), traced.stderr)
    let trace = traced.stderrLines.filter { $0.hasPrefix("sql: ") }
    XCTAssertFalse(trace.isEmpty, traced.stderr)
    XCTAssertFalse(trace.contains { $0.contains("owned") }, traced.stderr)
    XCTAssertEqual(traced.stderrLines.filter { !$0.hasPrefix("sql: ") }.count, 1, traced.stderr)
    XCTAssertTrue(traced.stderr.contains("Error: There is no session demo\\u{1B}]0;owned"))

    for setting in ["yes", "\u{1B}[2J"] {
      let refused = try runCLI(
        ["show", "demo-1", "--db", path], environment: ["STACKJOURNAL_TRACE_SQL": setting])
      assertOneLineError(refused, contains: "STACKJOURNAL_TRACE_SQL is '")
      XCTAssertFalse(refused.stderr.contains("\u{1B}"), refused.stderr)
    }
    let off = try runCLI(
      ["show", "demo-1", "--db", path], environment: ["STACKJOURNAL_TRACE_SQL": "0"])
    XCTAssertEqual(off.status, 0, off.stderr)
    XCTAssertEqual(off.stderr, "")
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
