// Each kind of TestStore failure fails an XCTest test. XCTest on Linux has no
// `XCTExpectFailure`, so `expectFailure` catches what reaches `recordFailure` — the method every
// XCTest failure goes through — and fails the test when the expected failure did not arrive.
import ConcurrencyExtras
import StackJournalTestSupport
import StackNavigation
import XCTest

class FailureExpectingTestCase: XCTestCase {
  /// Failures caught by the `expectFailure` calls in progress, innermost last.
  private let catching = LockIsolated<[[String]]>([])
  /// Every failure description caught so far in this test.
  private let recorded = LockIsolated<[String]>([])
  var recordedDescriptions: [String] { recorded.value }

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    let caught = catching.withValue { stack -> Bool in
      guard !stack.isEmpty else { return false }
      stack[stack.count - 1].append(description)
      return true
    }
    if caught {
      recorded.withValue { $0.append(description) }
    } else {
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
  func testSendingToADismissedStoreFails() async {
    await expectFailure(containing: FailureMessage.dismissedSend) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.dismissSelf)
      XCTAssertTrue(store.isDismissed)
      await store.send(.increment)
    }
  }

  @MainActor
  func testStrictSkipsWithNothingToSkipFail() async {
    await expectFailure(containing: FailureMessage.noActionsToSkip) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.skipReceivedActions(strict: true)
    }
    await expectFailure(containing: FailureMessage.noEffectsToSkip) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.skipInFlightEffects(strict: true)
    }
  }

  @MainActor
  func testATaskThatOutlivesItsTimeoutFails() async {
    await expectFailure(containing: FailureMessage.taskStillRunning) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      let task = await store.send(.startLongWork)
      await task.finish(timeout: .milliseconds(50))
      await task.cancel()
    }
  }

  @MainActor
  func testAPredicateNoActionMatchesFails() async {
    await expectFailure(containing: FailureMessage.noMatchingAction) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.receive { $0 == .increment }
    }
  }

  @MainActor
  func testAWrongAssertOfTheCurrentStateFails() async {
    await expectFailure(containing: FailureMessage.stateMismatch) {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      store.exhaustivity = .off
      await store.send(.increment)
      store.assert { $0.count = 2 }
    }
  }

  /// CasePaths' `XCTModify` reports through IssueReporting; inside an assertion its failure
  /// reaches XCTest as the store's own do, without IssueReporting's host-application paragraph.
  @MainActor
  func testXCTModifyInsideAnAssertionFailsWithItsOwnMessage() async {
    struct State: Equatable { var child: Int? = 0 }
    await expectFailure(containing: FailureMessage.unchangedModify) {
      let store = TestStore(initialState: State()) {
        Reduce<State, Bool> { _, _ in .none }
      }
      await store.send(true) {
        XCTModify(&$0.child) { _ in }
      }
    }
    XCTAssertFalse(recordedDescriptions.contains { $0.contains("host application") })
  }

  /// XCTest off Apple's platforms has no expected failures: a skipped assertion is a note on
  /// standard error, and the test passes.
  @MainActor
  func testSkippedAssertionsAreNotedOnStandardErrorWithoutFailing() async throws {
    let noted = try await capturingStandardError {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.startEcho)
      await store.send(.increment) { $0.count = 1 }
    }
    XCTAssertTrue(noted.contains("note: \(FailureMessage.skipped)"), noted)
    XCTAssertTrue(noted.contains("1 received action was skipped."), noted)
  }

  @MainActor
  func testExpectFailureFailsWhenNothingFails() async {
    await expectFailure(containing: "Expected a failure containing \"never\"") {
      await self.expectFailure(containing: "never") {}
    }
  }
}
