import StackJournalTestSupport
import StackNavigation
import XCTest

/// A feature whose effects are cancelled by ID.
struct TimerFeature: Reducer, Sendable {
  enum CancelID: Hashable, Sendable { case timer }
  struct State: Equatable, Sendable {
    var ticks = 0
    var log: [String] = []
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case start
    case stop
    case tick
    case both
    case echo(String)
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { send in
          while true {
            try await Task.sleep(for: .milliseconds(2))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .stop:
        return .cancel(id: CancelID.timer)
      case .tick:
        state.ticks += 1
        return .none
      case .both:
        return .merge(.send(.echo("first")), .send(.echo("second")))
      case let .echo(text):
        state.log.append(text)
        return .none
      }
    }
  }
}

final class EffectTests: XCTestCase {
  func testCancellationByID() async throws {
    let store = Store(initialState: TimerFeature.State()) { TimerFeature() }
    try await store.send(.start)
    try await store.send(.start)  // cancels the first timer: one timer runs
    try await Task.sleep(for: .milliseconds(30))
    try await store.send(.stop)
    await store.waitForEffects()
    let stopped = await store.state.ticks
    XCTAssertGreaterThan(stopped, 0)
    try await Task.sleep(for: .milliseconds(20))
    let later = await store.state.ticks
    XCTAssertEqual(later, stopped, "no tick after the timer was cancelled")
  }

  func testSendAndMergeAreProcessedBeforeSendReturns() async throws {
    let store = Store(initialState: TimerFeature.State()) { TimerFeature() }
    try await store.send(.both)
    let log = await store.state.log
    XCTAssertEqual(log, ["first", "second"])
  }

  @MainActor
  func testTestStoreReceivesSentActionsInOrder() async {
    let store = TestStore(initialState: TimerFeature.State()) { TimerFeature() }
    await store.send(.both)
    await store.receive(.echo("first")) { $0.log = ["first"] }
    await store.receive(.echo("second")) { $0.log = ["first", "second"] }
  }
}
