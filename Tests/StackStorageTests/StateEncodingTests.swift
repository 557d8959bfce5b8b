import Foundation
import GRDB
import StackJournalTestSupport
import StackNavigation
import XCTest

@testable import StackJournalCore
@testable import StackStorage

final class StateEncodingTests: StorageTestCase {
  /// tabA: #0 counter, #2 detail (its own path: #0, #1 counters), #3 home; #1 was popped.
  /// tabB: #0 counter; #1 was popped, so it hands out #2 next.
  func makeRoot() -> Root {
    var root = Root()
    root.tabA.append(.counter(Counter(count: 1)))
    root.tabA.append(.home)
    root.tabA.popLast()
    var detail = Detail(title: "Settings")
    detail.path.append(.counter(Counter(count: 10)))
    detail.path.append(.counter(Counter(count: 11)))
    root.tabA.append(.detail(detail))
    root.tabA.append(.home)
    root.tabB.append(.counter(Counter(count: 7)))
    root.tabB.append(.home)
    root.tabB.popLast()
    return root
  }

  func testPathsIDsCaseNamesAndNextIDs() throws {
    let encoded = try StateEncoding.encode(makeRoot())

    XCTAssertEqual(encoded.stacks.map(\.path), ["tabA", "tabA[#2].detail.path", "tabB"])
    XCTAssertEqual(encoded.stacks.map(\.ids), [[0, 2, 3], [0, 1], [0]])
    XCTAssertEqual(encoded.stacks.map(\.nextID), [4, 2, 2])
    XCTAssertEqual(
      encoded.stacks[0].elements.map(\.caseName), ["counter", "detail", "home"])
    XCTAssertEqual(encoded.stacks[0].elements[0].state, #"{"counter":{"_0":{"count":1}}}"#)
    XCTAssertEqual(encoded.stacks[2].elements[0].state, #"{"counter":{"_0":{"count":7}}}"#)
    XCTAssertEqual(
      try JSONDecoder().decode(Root.self, from: encoded.json), makeRoot(),
      "The document decodes back to the same state, IDs and next IDs included")
  }

  func testARootThatIsAStackAndStacksInArrays() throws {
    var root = StackState<Screen>()
    var detail = Detail(title: "nested")
    detail.path.append(.home)
    root.append(.detail(detail))
    XCTAssertEqual(try StateEncoding.encode(root).stacks.map(\.path), ["", "[#0].detail.path"])

    struct Tabs: Encodable {
      var tabs: [StackState<Screen>]
    }
    let tabs = Tabs(tabs: [[.home], [.home, .counter(Counter())]])
    XCTAssertEqual(
      try StateEncoding.encode(tabs).stacks.map(\.path), ["tabs[0]", "tabs[1]"])
  }

  func testDictionaryKeysOfDigitsAreQuotedSoTheyDifferFromArrayPositions() throws {
    struct Sheets: Encodable {
      var byName: [String: StackState<Screen>]
      var byNumber: [Int: StackState<Screen>]
      var list: [StackState<Screen>]
    }
    var detail = Detail(title: "nested")
    detail.path.append(.home)
    let sheets = Sheets(
      byName: ["42": [.detail(detail)], "1": [.home], "a": [.home], "-1": [.home], #""q"#: []],
      byNumber: [7: [.home]],
      list: [[.home], [.home]])
    XCTAssertEqual(
      try StateEncoding.encode(sheets).stacks.map(\.path),
      [
        #"byName."q"#, "byName.-1", "byName.a", #"byName["1"]"#, #"byName["42"]"#,
        #"byName["42"][#0].detail.path"#, #"byNumber["7"]"#, "list[0]", "list[1]",
      ])
  }

  func testPathRenderingRules() {
    let parents: [[String]: [StackElementID]] = [["path"]: [0, 3]]
    XCTAssertEqual(StackPath.render(["path"], parents: parents), "path")
    XCTAssertEqual(StackPath.render(["tabs", "1", "path"], parents: parents), "tabs[1].path")
    XCTAssertEqual(
      StackPath.render(
        ["path", "elements", "1", "state", "counter", "_0", "path"], parents: parents),
      "path[#3].counter.path")
    XCTAssertEqual(StackPath.render([], parents: parents), "")
    XCTAssertEqual(
      StackPath.render(["sheets", #""42""#, "path"], parents: parents), #"sheets["42"].path"#)
    XCTAssertEqual(StackPath.render(["sheets", #""\"q""#], parents: parents), #"sheets."q"#)
  }

  func testCaseNames() {
    XCTAssertEqual(
      JSONText.caseName(of: Data(#"{"counter":{"_0":{"a":[1,{"b":"}"}]}}}"#.utf8)), "counter")
    XCTAssertEqual(JSONText.caseName(of: Data(#"{"home":{}}"#.utf8)), "home")
    XCTAssertEqual(JSONText.caseName(of: Data(#" { "a\"b" : 1 } "#.utf8)), "a\"b")
    XCTAssertNil(JSONText.caseName(of: Data(#"{"a":1,"b":2}"#.utf8)))
    XCTAssertNil(JSONText.caseName(of: Data(#"{}"#.utf8)))
    XCTAssertNil(JSONText.caseName(of: Data(#"[1]"#.utf8)))
    XCTAssertNil(JSONText.caseName(of: Data(#""text""#.utf8)))
    XCTAssertNil(JSONText.caseName(of: Data(#"{"a":{"#.utf8)))
  }

  func testRoundTripKeepsEveryIDAndNextIDAndReadsWithPlainSQL() async throws {
    try await forEachStorage { journal, _ in
      let root = makeRoot()
      let encoded = try StateEncoding.encode(root)
      _ = try journal.createSession("round-trip", initial: encoded, version: 1)

      XCTAssertEqual(try journal.headStacks(session: "round-trip"), encoded.stacks)
      XCTAssertEqual(try journal.stacks(session: "round-trip", at: 0), encoded.stacks)
      let snapshot = try XCTUnwrap(try journal.snapshot(session: "round-trip", atOrBelow: 0))
      XCTAssertEqual(snapshot.stacks, encoded.stacks)
      let decoded = try JSONDecoder().decode(Root.self, from: snapshot.state)
      XCTAssertEqual(decoded, root)
      XCTAssertEqual(try durableJSON(decoded), try durableJSON(root), "next IDs")
      XCTAssertEqual(decoded.tabA.ids, [0, 2, 3])
      XCTAssertEqual(decoded.tabB.nextID, 2)
      var tabB = decoded.tabB
      tabB.append(.home)
      XCTAssertEqual(tabB.ids, [0, 2], "The decoded stack never hands out #1 again")

      let rows = try journal.database.read { db in
        try Row.fetchAll(
          db,
          sql: """
            SELECT e.path, e.id, e.position, e.case_name, e.state, s.next_id
            FROM stack_elements e JOIN stacks s USING (session, path)
            WHERE e.session = 'round-trip' ORDER BY e.path, e.position
            """)
      }
      let table = rows.map { row -> String in
        let caseName: String = row[3]
        let state: String = row[4]
        return "\(row[0] as String) #\(row[1] as Int) @\(row[2] as Int) \(caseName) "
          + "next \(row[5] as Int) \(state)"
      }
      XCTAssertEqual(
        table,
        [
          #"tabA #0 @0 counter next 4 {"counter":{"_0":{"count":1}}}"#,
          #"tabA #2 @1 detail next 4 {"detail":{"_0":{"path":{"elements":[{"id":0,"state":{"counter":{"_0":{"count":10}}}},{"id":1,"state":{"counter":{"_0":{"count":11}}}}],"nextID":2},"title":"Settings"}}}"#,
          #"tabA #3 @2 home next 4 {"home":{}}"#,
          #"tabA[#2].detail.path #0 @0 counter next 2 {"counter":{"_0":{"count":10}}}"#,
          #"tabA[#2].detail.path #1 @1 counter next 2 {"counter":{"_0":{"count":11}}}"#,
          #"tabB #0 @0 counter next 2 {"counter":{"_0":{"count":7}}}"#,
        ]
      )
      let caseQuery = try journal.database.read { db in
        try Int.fetchAll(
          db,
          sql: "SELECT json_extract(state, '$.counter._0.count') FROM stack_elements "
            + "WHERE case_name = 'counter' ORDER BY path, position")
      }
      XCTAssertEqual(caseQuery, [1, 10, 11, 7])
    }
  }

  func testDuplicateStackPathsAreRefused() async {
    struct Clash: Encodable {
      var a = StackState<Screen>()
      var nested = ["a": StackState<Screen>()]

      enum CodingKeys: String, CodingKey {
        case a
        case nested = ""
      }
    }
    await assertStorageError(.duplicateStackPath) { try StateEncoding.encode(Clash()) }
  }
}
