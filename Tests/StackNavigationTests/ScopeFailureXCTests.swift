// The body `@Reducer` generates for an enum of features reports an action for another case as
// an XCTest failure too, naming the case by its case key path.
import StackNavigation
import XCTest

final class GeneratedCaseScopeFailureXCTests: FailureExpectingTestCase {
  @MainActor
  func testAnActionForAnotherCaseFailsTheTestNamingTheCase() async {
    var state = ScopeFailureScreens.State.other(ScopeFailureCounter.State())
    let expected = "State case expected: \(\ScopeFailureScreens.State.Cases.counter)"
    await expectFailure(containing: expected) {
      _ = ScopeFailureScreens.body.reduce(into: &state, action: .counter(.tapped))
    }
    XCTAssertEqual(state, .other(ScopeFailureCounter.State()))
  }
}
