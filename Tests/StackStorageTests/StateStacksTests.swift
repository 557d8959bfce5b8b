import Foundation
import StackNavigation
import Testing

@testable import StackJournalCore

/// The finder of stacks in stored JSON, as restoration uses it: recorded stacks written into an
/// encoded state, and a stack cut at an element that does not decode.
struct StateStacksTests {
  static let state = #"""
    {"path":{"elements":[{"id":3,"state":{"counter":{"_0":{"path":{"elements":[],"nextID":0}}}}}],"nextID":4},"routes":[{"push":{"screen":{"home":{}}}}],"tabs":[{"path":{"elements":[{"id":0,"state":{"count":1}},{"id":1,"state":{"count":2}}],"nextID":2}}]}
    """#

  @Test func recordedStacksAreWrittenAtTheirPaths() throws {
    let recorded = [
      StackRecord(
        path: "tabs[0].path", nextID: 6,
        elements: [StoredElement(id: 5, caseName: nil, state: #"{"count":9}"#)]),
      StackRecord(path: "path", nextID: 7, elements: []),
    ]
    let (json, unplaced) = try #require(
      StateStacks.overlaying(recorded, on: Data(Self.state.utf8)))
    #expect(unplaced.isEmpty)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"path":{"elements":[],"nextID":7},"routes":[{"push":{"screen":{"home":{}}}}],"#
        + #""tabs":[{"path":{"elements":[{"id":5,"state":{"count":9}}],"nextID":6}}]}"#)
  }

  /// A stack the state has no place for, routes (which are not an encoded stack) and a stack
  /// nested in an element, which comes along with that element's state.
  @Test func stacksWithoutAPlaceAreReturnedAndNestedOnesLeftOut() throws {
    let recorded = [
      StackRecord(path: "sheets.path", nextID: 1, elements: []),
      StackRecord(path: "routes", nextID: .routesNextID, elements: []),
      StackRecord(path: "path[#3].counter.path", nextID: 9, elements: []),
    ]
    let (json, unplaced) = try #require(
      StateStacks.overlaying(recorded, on: Data(Self.state.utf8)))
    #expect(unplaced.map(\.path) == ["sheets.path", "routes"])
    #expect(String(decoding: json, as: UTF8.self) == Self.state)
  }

  @Test func aStackIsCutAtTheElementACodingPathLeadsInto() throws {
    let codingPath: [StackPath.Component] = [
      .key("tabs"), .index(0), .key("path"), .key("elements"), .index(1), .key("state"),
      .key("count"),
    ]
    let (json, cut) = try #require(
      StateStacks.cuttingStack(in: Data(Self.state.utf8), at: codingPath))
    #expect(cut.stackCodingPath == [.key("tabs"), .index(0), .key("path")])
    #expect(cut.keptIDs == [0])
    #expect(cut.firstSkippedID == 1)
    #expect(
      String(decoding: json, as: UTF8.self)
        == Self.state.replacingOccurrences(of: #",{"id":1,"state":{"count":2}}"#, with: ""))
  }

  /// The deepest stack on the path is cut; cut at its first element, it is left empty.
  @Test func theDeepestStackIsCutAndMayBeLeftEmpty() throws {
    let nested = #"{"path":{"elements":[{"id":0,"state":{"path":{"elements":[{"id":4,"state":1}],"nextID":5}}}],"nextID":1}}"#
    let codingPath: [StackPath.Component] = [
      .key("path"), .key("elements"), .index(0), .key("state"), .key("path"), .key("elements"),
      .index(0), .key("state"),
    ]
    let (json, cut) = try #require(
      StateStacks.cuttingStack(in: Data(nested.utf8), at: codingPath))
    #expect(
      cut.stackCodingPath == [
        .key("path"), .key("elements"), .index(0), .key("state"), .key("path"),
      ])
    #expect(cut.keptIDs.isEmpty)
    #expect(cut.firstSkippedID == 4)
    #expect(
      String(decoding: json, as: UTF8.self)
        == #"{"path":{"elements":[{"id":0,"state":{"path":{"elements":[],"nextID":5}}}],"nextID":1}}"#)
  }

  @Test func aPathOutsideEveryStackElementIsNotCut() {
    #expect(
      StateStacks.cuttingStack(
        in: Data(Self.state.utf8), at: [.key("routes"), .index(0), .key("push")]) == nil)
    #expect(StateStacks.cuttingStack(in: Data("not JSON".utf8), at: [.key("path")]) == nil)
  }
}
