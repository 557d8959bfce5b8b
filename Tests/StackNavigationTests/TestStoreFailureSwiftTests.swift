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
