import StackNavigation
import XCTest

@testable import StackJournalCore

final class StackDeltaTests: XCTestCase {
  func element(_ id: StackElementID, _ count: Int) -> StoredElement {
    StoredElement(id: id, caseName: "counter", state: #"{"counter":{"_0":{"count":\#(count)}}}"#)
  }

  func testPushPopAndChangeAreRecordedAndReplayed() throws {
    let before = [
      StackRecord(path: "path", nextID: 3, elements: [element(0, 0), element(2, 0)]),
      StackRecord(path: "path[#2].counter.path", nextID: 1, elements: [element(0, 5)]),
    ]
    let after = [
      StackRecord(
        path: "path", nextID: 5, elements: [element(0, 1), element(3, 0), element(4, 0)]),
      StackRecord(path: "sheet", nextID: 1, elements: [element(0, 9)]),
    ]
    let delta = StackDelta.between(before, after)

    XCTAssertEqual(
      delta.changes,
      [
        StackChange(
          path: "path", nextID: 5, ids: [0, 3, 4], pushed: [element(3, 0), element(4, 0)],
          popped: [2], changed: [element(0, 1)]),
        StackChange(
          path: "path[#2].counter.path", nextID: 1, ids: [], popped: [0], removed: true),
        StackChange(path: "sheet", nextID: 1, ids: [0], pushed: [element(0, 9)]),
      ]
    )
    var stacks = before
    try delta.apply(to: &stacks)
    XCTAssertEqual(stacks, after)
    XCTAssertTrue(StackDelta.between(after, after).isEmpty)
  }

  func testReorderingAndNextIDAloneAreChanges() throws {
    let before = [StackRecord(path: "p", nextID: 2, elements: [element(0, 0), element(1, 0)])]
    let after = [StackRecord(path: "p", nextID: 2, elements: [element(1, 0), element(0, 0)])]
    var stacks = before
    try StackDelta.between(before, after).apply(to: &stacks)
    XCTAssertEqual(stacks, after)

    let bumped = [StackRecord(path: "p", nextID: 7, elements: before[0].elements)]
    stacks = before
    try StackDelta.between(before, bumped).apply(to: &stacks)
    XCTAssertEqual(stacks, bumped)
  }

  func testAStackReplacedAtTheSamePathIsRemovedThenCreated() throws {
    let before = [StackRecord(path: "p", nextID: 4, elements: [element(3, 0)])]
    let after = [StackRecord(path: "p", nextID: 1, elements: [element(0, 0)])]
    let delta = StackDelta.between(before, after)
    XCTAssertEqual(delta.changes.map(\.removed), [true, false])
    var stacks = before
    try delta.apply(to: &stacks)
    XCTAssertEqual(stacks, after)
  }

  func testAPushOfAnIDPoppedEarlierIsAChangeOfTheSameStack() throws {
    // #1 was popped; an explicit push brings it back, below the next ID, which stays.
    let before = [StackRecord(path: "p", nextID: 3, elements: [element(0, 0), element(2, 0)])]
    let after = [
      StackRecord(path: "p", nextID: 3, elements: [element(0, 0), element(2, 0), element(1, 7)])
    ]
    let delta = StackDelta.between(before, after)
    XCTAssertEqual(
      delta.changes,
      [StackChange(path: "p", nextID: 3, ids: [0, 2, 1], pushed: [element(1, 7)])])
    var stacks = before
    try delta.apply(to: &stacks)
    XCTAssertEqual(stacks, after)
  }

  func testInconsistentDeltasThrowAndLeaveTheStacksUnchanged() {
    let stacks = [StackRecord(path: "p", nextID: 3, elements: [element(0, 0), element(2, 0)])]
    let cases: [(String, StackChange)] = [
      ("pop of an absent ID", StackChange(path: "p", nextID: 3, ids: [0, 2], popped: [1])),
      (
        "change of an absent ID",
        StackChange(path: "p", nextID: 3, ids: [0, 2], changed: [element(1, 1)])
      ),
      (
        "push of a present ID",
        StackChange(path: "p", nextID: 3, ids: [0, 2, 2], pushed: [element(2, 1)])
      ),
      (
        "push of an unused ID with IDs not below the next ID",
        StackChange(path: "p", nextID: 3, ids: [0, 2, 5], pushed: [element(5, 1)])
      ),
      ("next ID going back", StackChange(path: "p", nextID: 2, ids: [0, 2])),
      ("IDs that do not match", StackChange(path: "p", nextID: 3, ids: [0])),
      ("removal of a missing stack", StackChange(path: "q", nextID: 0, ids: [], removed: true)),
      (
        "creation with pops",
        StackChange(path: "q", nextID: 1, ids: [], popped: [0])
      ),
    ]
    for (name, change) in cases {
      var copy = stacks
      XCTAssertThrowsError(try StackDelta(changes: [change]).apply(to: &copy), name) { error in
        XCTAssertEqual((error as? StorageError)?.code, .inconsistentDelta, name)
      }
      XCTAssertEqual(copy, stacks, name)
    }
  }

  func testDeltaIsCodableAsPlainJSON() throws {
    let delta = StackDelta(changes: [
      StackChange(path: "path", nextID: 1, ids: [0], pushed: [element(0, 1)])
    ])
    let json = try StorageJSON.text(delta)
    XCTAssertEqual(
      json,
      #"{"changes":[{"changed":[],"ids":[0],"nextID":1,"path":"path","popped":[],"pushed":[{"caseName":"counter","id":0,"state":"{\"counter\":{\"_0\":{\"count\":1}}}"}],"removed":false}]}"#
    )
    XCTAssertEqual(try JSONDecoder().decode(StackDelta.self, from: Data(json.utf8)), delta)
  }
}
