// Each kind of TestStore failure fails a Swift Testing test: `withKnownIssue` passes only when
// the failure was recorded in the test.
import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import Testing

@MainActor
@Suite struct TestStoreFailureSwiftTests {
  @Test func aWrongSendAssertionFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.increment) { $0.count = 99 }
    } matching: { $0.description.contains(FailureMessage.stateMismatch) }
  }

  @Test func aWrongReceiveAssertionFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startEcho)
      await store.receive(\.increment)
    } matching: { $0.description.contains(FailureMessage.unexpectedReceive) }
  }

  @Test func aStateChangeNobodyAssertedFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.increment)
    } matching: { $0.description.contains(FailureMessage.unassertedChange) }
  }

  @Test func anActionReceivedAndNeverAssertedFailsAtTheEnd() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startEcho)
    } matching: { $0.description.contains(FailureMessage.unreceivedAction) }
  }

  @Test func anEffectStillRunningAtTheEndFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.startLongWork)
    } matching: { $0.description.contains(FailureMessage.runningEffect) }
  }

  @Test func aCorrectTestRecordsNothing() async {
    let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.startEcho)
    await store.receive(\.echoed)
    let work = await store.send(.startLongWork)
    await work.cancel()
  }

  @Test func sendingToADismissedStoreFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.send(.dismissSelf)
      #expect(store.isDismissed)
      await store.send(.increment)
    } matching: { $0.description.contains(FailureMessage.dismissedSend) }
  }

  @Test func aStrictSkipOfNoActionsFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.skipReceivedActions(strict: true)
    } matching: { $0.description.contains(FailureMessage.noActionsToSkip) }
  }

  @Test func aStrictSkipOfNoEffectsFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.skipInFlightEffects(strict: true)
    } matching: { $0.description.contains(FailureMessage.noEffectsToSkip) }
  }

  @Test func aTaskThatOutlivesItsTimeoutFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      let task = await store.send(.startLongWork)
      await task.finish(timeout: .milliseconds(50))
      await task.cancel()
    } matching: { $0.description.contains(FailureMessage.taskStillRunning) }
  }

  @Test func aPredicateNoActionMatchesFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      await store.receive { $0 == .increment }
    } matching: { $0.description.contains(FailureMessage.noMatchingAction) }
  }

  @Test func aWrongAssertOfTheCurrentStateFails() async {
    await withKnownIssue {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      store.exhaustivity = .off
      await store.send(.increment)
      store.assert { $0.count = 2 }
    } matching: { $0.description.contains(FailureMessage.stateMismatch) }
  }

  @Test func xctModifyInsideAnAssertionFails() async {
    struct State: Equatable { var child: Int? = 0 }
    await withKnownIssue {
      let store = TestStore(initialState: State()) { Reduce<State, Bool> { _, _ in .none } }
      await store.send(true) { XCTModify(&$0.child) { _ in } }
    } matching: {
      // XCTModify's own failure, then the store's: the closure changed nothing.
      $0.description.contains(FailureMessage.unchangedModify)
        || $0.description.contains("Expected state to change, but no change occurred.")
    }
  }

  /// Skipped assertions are known issues: were they recorded as failures, this test would fail.
  @Test func skippedAssertionsAreKnownIssuesNotFailures() async {
    let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(.startEcho)
    await store.send(.increment) { $0.count = 1 }
  }

  @Test func skippedAssertionsSayWhatWasSkipped() async {
    let issues = await collectExpectedIssues {
      let store = TestStore(initialState: FailingFeature.State()) { FailingFeature() }
      store.exhaustivity = .off(showSkippedAssertions: true)
      await store.send(.startEcho)
      await store.send(.increment) { $0.count = 1 }
    }
    #expect(
      issues.contains { $0.hasPrefix("\(FailureMessage.skipped)\n\n1 received action was skipped.") },
      "\(issues)")
  }

  @Test func xctModifyOfAMissingElementFails() {
    withKnownIssue {
      var element: SeedPath.State? = nil
      XCTModify(&element, case: \.counter) { $0.count = 1 }
    } matching: { $0.description.contains("but it is missing") }
  }

  @Test func xctModifyOfAnotherCaseFails() {
    withKnownIssue {
      var element: SeedPath.State? = .text("hello")
      XCTModify(&element, case: \.counter) { $0.count = 1 }
      #expect(element == .text("hello"))
    } matching: { $0.description.contains("expected an element in case") }
  }

  @Test func xctModifyThatChangesNothingFails() {
    withKnownIssue {
      var element: SeedPath.State? = .counter(.init(count: 1))
      XCTModify(&element, case: \.counter) { $0.count = 1 }
    } matching: { $0.description.contains("did not") }
  }
}

/// A path of two cases for XCTModify.
@Reducer
enum SeedPath {
  case counter(CounterFeature)
  case text(TextFeature)
}
extension SeedPath.State: Equatable {}

/// A feature whose state is a string.
struct TextFeature: Reducer {
  typealias State = String
  enum Action: Sendable { case append(String) }
  func reduce(into state: inout String, action: Action) -> Effect<Action> {
    switch action {
    case let .append(text):
      state += text
      return .none
    }
  }
}
