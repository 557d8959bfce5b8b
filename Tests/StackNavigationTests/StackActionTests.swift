import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import XCTest

final class StackActionTests: XCTestCase {
  typealias Action = RootFeature.Action

  func testRoundTripsThroughJSON() throws {
    let actions: [Action] = [
      .path(.push(id: 3, state: .counter(.init(count: 42)))),
      .path(.element(id: 3, action: .counter(.incrementButtonTapped))),
      .path(.element(id: 4, action: .numberFact(.factResponse("4 is even")))),
      .path(.popFrom(id: 3)),
      .pushCounterTapped(count: 1),
    ]
    for action in actions {
      let data = try JSONEncoder().encode(action)
      XCTAssertEqual(try JSONDecoder().decode(Action.self, from: data), action)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    XCTAssertEqual(
      String(decoding: try encoder.encode(Action.path(.popFrom(id: 7))), as: UTF8.self),
      #"{"path":{"_0":{"popFrom":{"id":7}}}}"#
    )
  }

  func testCaseKeyPathsReachIntoElements() {
    let action = Action.path(.element(id: 2, action: .counter(.incrementButtonTapped)))
    XCTAssertNotNil(action[case: \.path[id: 2].counter.incrementButtonTapped])
    XCTAssertNil(action[case: \.path[id: 1].counter.incrementButtonTapped])
    XCTAssertNil(action[case: \.path.popFrom])
    XCTAssertEqual(Action.path(.popFrom(id: 5))[case: \.path.popFrom], 5)

    let embedded: Action = (\Action.Cases.path[id: 0].counter.incrementButtonTapped)()
    XCTAssertEqual(embedded, .path(.element(id: 0, action: .counter(.incrementButtonTapped))))
  }
}
