// Each kind of TestStore failure fails an XCTest test. XCTest on Linux has no
// `XCTExpectFailure`, so `expectFailure` catches what reaches `recordFailure` — the method every
// XCTest failure goes through — and fails the test when the expected failure did not arrive.
import ConcurrencyExtras
import StackNavigation
import XCTest

class FailureExpectingTestCase: XCTestCase {
  /// Failures caught by the `expectFailure` calls in progress, innermost last.
  private let catching = LockIsolated<[[String]]>([])

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    let caught = catching.withValue { stack -> Bool in
      guard !stack.isEmpty else { return false }
      stack[stack.count - 1].append(description)
      return true
    }
    if !caught {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
    }
  }

  /// Runs `body`, which must record a failure containing `text`; fails the test otherwise.
  @MainActor
  func expectFailure(
    containing text: String,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ body: @MainActor () async -> Void
  ) async {
    catching.withValue { $0.append([]) }
    await body()
    let caught = catching.withValue { $0.removeLast() }
    if !caught.contains(where: { $0.contains(text) }) {
      XCTFail(
        "Expected a failure containing \"\(text)\"; recorded: \(caught)", file: file, line: line)
    }
  }
}

final class TestStoreFailureXCTests: FailureExpectingTestCase {
  @MainActor
  func testAWrongSendAssertionFails() async {
    await expectFailure(containing: FailureMessage.stateMismatch) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.increment) { $0.count = 99 }
    }
  }

  @MainActor
  func testAWrongReceiveAssertionFails() async {
    await expectFailure(containing: FailureMessage.unexpectedReceive) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startEcho)
      await store.receive(\.increment)
    }
  }

  @MainActor
  func testAStateChangeNobodyAssertedFails() async {
    await expectFailure(containing: FailureMessage.unassertedChange) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.increment)
    }
  }

  @MainActor
  func testAnActionReceivedAndNeverAssertedFailsAtTheEnd() async {
    await expectFailure(containing: FailureMessage.unreceivedAction) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startEcho)
    }
  }

  @MainActor
  func testAnEffectStillRunningAtTheEndFails() async {
    await expectFailure(containing: FailureMessage.runningEffect) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startLongWork)
    }
  }

  @MainActor
  func testExpectFailureFailsWhenNothingFails() async {
    await expectFailure(containing: "Expected a failure containing \"never\"") {
      await self.expectFailure(containing: "never") {}
    }
  }
}
