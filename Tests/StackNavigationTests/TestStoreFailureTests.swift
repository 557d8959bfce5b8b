import StackJournalTestSupport
@testable import StackNavigation
import XCTest

// The Composable Architecture's TestStoreFailureTests, moved over: each misuse fails with the
// message TCA's test store prints, so `hasSuffix` matchers written for TCA match here too.

@MainActor
final class TestStoreFailureTests: XCTestCase {
  struct Count: Equatable, Sendable {
    var count = 0
  }

  func testStateChangeFailure() async {
    let store = TestStore(initialState: Count()) {
      Reduce<Count, Int> { state, _ in
        state.count += 1
        return .none
      }
    }
    let issues = await collectIssues {
      await store.send(1) { $0.count = 0 }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A state change does not match expectation.

            − TestStoreFailureTests.Count(count: 0)
            + TestStoreFailureTests.Count(count: 1)

        (Expected: −, Actual: +)
        """
      ])
  }

  func testUnexpectedStateChangeOnSendFailure() async {
    let store = TestStore(initialState: Count()) {
      Reduce<Count, Int> { state, _ in
        state.count += 1
        return .none
      }
    }
    let issues = await collectIssues {
      await store.send(1)
    }
    XCTAssertEqual(
      issues,
      [
        """
        State was not expected to change, but a change occurred.

            − TestStoreFailureTests.Count(count: 0)
            + TestStoreFailureTests.Count(count: 1)

        (Expected: −, Actual: +)
        """
      ])
  }

  func testStatesThatPrintTheSameShowBothSides() async {
    struct Opaque: Equatable, Sendable, CustomDumpStringConvertible {
      var value: Int
      var customDumpDescription: String { "opaque" }
    }
    let store = TestStore(initialState: Opaque(value: 0)) {
      Reduce<Opaque, Int> { state, action in
        state.value = action
        return .none
      }
    }
    let issues = await collectIssues {
      await store.send(1) { $0.value = 2 }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A state change does not match expectation.

            − opaque
            + opaque

        (Expected: −, Actual: +)
        """
      ])
  }

  func testReceiveUnexpectedActionFailure() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    await store.send(.first)
    let issues = await collectIssues {
      await store.receive(.first)
    }
    XCTAssertEqual(
      issues,
      [
        """
        Received unexpected action:

            − FirstSecond.Action.first
            + FirstSecond.Action.second

        (Expected: −, Received: +)
        """
      ])
    XCTAssertEqual(store.state.count, 1, "the store moved past the unexpected action")
  }

  func testReceiveUnexpectedActionByCaseFailure() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    await store.send(.first)
    let issues = await collectIssues {
      await store.receive(\.first)
    }
    XCTAssertEqual(
      issues,
      [
        """
        Received unexpected action:

          FirstSecond.Action.second
        """
      ])
  }

  func testReceiveCaseWithValue() async {
    // Each element action pops the top element.
    let store = TestStore(initialState: IntStack.State(path: [1, 2, 3])) {
      Reduce<IntStack.State, IntStack.Action> { state, action in
        guard case .path(.element) = action, let top = state.path.ids.last else { return .none }
        return .send(.path(.popFrom(id: top)))
      }
      .forEach(\.path, action: \.path) {}
    }
    await store.send(.path(.element(id: 0, action: ())))
    let issues = await collectIssues {
      await store.receive(\.path.popFrom, 0)
    }
    XCTAssertEqual(
      issues,
      [
        """
        Received unexpected action:

          \u{2007} IntStack.Action.path(
          −   .popFrom(id: #0)
          +   .popFrom(id: #2)
          \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
    await store.send(.path(.element(id: 0, action: ())))
    await store.receive(\.path.popFrom, 1) {
      $0.path.pop(from: 1)
    }
  }

  func testReceiveNonExistentActionFailure() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    let issues = await collectIssues {
      await store.receive(.first)
      await store.receive(\.second)
    }
    XCTAssertEqual(
      issues,
      [
        """
        Expected to receive the following action, but didn't:

          FirstSecond.Action.first
        """,
        "Expected to receive an action matching case path, but didn't get one.",
      ])
  }

  func testSendActionBeforeReceivingFailure() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    await store.send(.first)
    let issues = await collectIssues {
      await store.send(.first)
    }
    XCTAssertEqual(
      issues,
      [
        """
        Must handle 1 received action before sending an action.

        Unhandled actions: [
          [0]: .second
        ]
        """
      ])
    // The actions stay, as in the Composable Architecture: the test can still receive them.
    await store.receive(.second)
    await store.receive(.second) { $0.count = 2 }
  }

  func testReceivedActionAfterDeinit() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
      await store.send(.first)
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(
      issues,
      [
        """
        The store received 1 unexpected action.

          Unhandled actions:
            .second

        To fix, explicitly assert against these actions using "store.receive", skip these actions \
        by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
        store: "store.exhaustivity = .off".
        """
      ])
  }

  func testEffectInFlightAfterDeinit() async {
    var sendLine: UInt = 0
    let issues = await collectIssuesWithLocations {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { _, _ in
          .run { _ in try await Task.never() }
        }
      }
      sendLine = #line + 1
      await store.send(1)
      await store.send(2)
      store.reportUnfinishedWork()
    }
    let file = "StackNavigationTests/TestStoreFailureTests.swift"
    XCTAssertEqual(
      issues,
      [
        CollectedIssue(TestStore<Int, Int>.effectStillRunning, fileID: file, line: sendLine),
        CollectedIssue(TestStore<Int, Int>.effectStillRunning, fileID: file, line: sendLine + 1),
      ])
    XCTAssertTrue(
      issues[0].message.hasPrefix(
        """
        An effect returned for this action is still running. It must complete before the end of \
        the test.
        """))
  }

  func testEffectStartedByAReceivedActionIsReportedAtTheSendThatLedToIt() async {
    var sendLine: UInt = 0
    let issues = await collectIssuesWithLocations {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { state, action in
          if action { return .send(false) }
          state += 1
          return .run { _ in try await Task.never() }
        }
      }
      sendLine = #line + 1
      await store.send(true)
      await store.receive(false) { $0 = 1 }
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(
      issues,
      [
        CollectedIssue(
          TestStore<Int, Int>.effectStillRunning,
          fileID: "StackNavigationTests/TestStoreFailureTests.swift", line: sendLine)
      ])
  }

  func testFinishReportsEffectsStillInFlight() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Int> { _, _ in .run { _ in try await Task.never() } }
      }
      await store.send(1)
      await store.finish(timeout: .milliseconds(20))
      await store.skipInFlightEffects()
    }
    XCTAssertEqual(
      issues,
      [
        """
        Expected effects to finish, but there are still effects in-flight after 0.02 seconds.

        There are effects in-flight. If the effect that delivers this action uses a \
        clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
        enough time for it to perform the effect. If you are using a test \
        clock/scheduler, advance it so that the effects may complete, or consider using \
        an immediate clock/scheduler to immediately perform the effect instead.

        If you are not yet using a clock/scheduler, or can not use a clock/scheduler, \
        try increasing the duration of this assertion's "timeout".
        """
      ])
  }

  func testNoStateChangeFailure() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    let message = """
      Expected state to change, but no change occurred.

      The trailing closure made no observable modifications to state. If no change to state is \
      expected, omit the trailing closure.
      """
    var issues = await collectIssues {
      await store.send(.first) { _ = $0 }
    }
    XCTAssertEqual(issues, [message])
    issues = await collectIssues {
      await store.receive(.second) { $0.count = 1 }
      await store.send(.first) { $0.count = 1 }
      await store.receive(.second) { $0.count = 2 }
    }
    XCTAssertEqual(issues, [message], "only the closure that changed nothing")
  }

  func testModifyClosureThrowsErrorFailure() async {
    struct SomeError: Error {}
    let store = TestStore(initialState: 0) { Reduce<Int, Int> { _, _ in .none } }
    let issues = await collectIssues {
      await store.send(1) { _ in throw SomeError() }
    }
    XCTAssertEqual(issues, ["Threw error: SomeError()"])
  }
}
