@testable import StackRestoration
import XCTest

final class StackLocatorTests: XCTestCase {
  func testUpdatingAStackInsideAnEnumPayloadAndAnElement() throws {
    let document: Any = [
      "path": [
        "elements": [["id": 3, "state": ["counter": ["_0": ["path": ["elements": [], "nextID": 0]]]]]],
        "nextID": 4,
      ] as [String: Any]
    ]
    let updated = try XCTUnwrap(
      StackLocator.updatingStack(at: "path[#3].counter.path", in: document) { $0["nextID"] = 7 })
    let data = try JSONSerialization.data(withJSONObject: updated, options: [.sortedKeys])
    XCTAssertEqual(
      String(decoding: data, as: UTF8.self),
      #"{"path":{"elements":[{"id":3,"state":{"counter":{"_0":{"path":{"elements":[],"nextID":7}}}}}],"nextID":4}}"#)
    XCTAssertNil(StackLocator.updatingStack(at: "path[#9].counter.path", in: document) { _ in })
  }
}
