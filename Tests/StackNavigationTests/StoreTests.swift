import StackJournalDemo
import StackJournalTestSupport
import StackNavigation
import XCTest

final class StoreTests: XCTestCase {
  func testSendProcessesEffectsAndFeedsActionsBack() async throws {
    let store = Store(initialState: RootFeature.State()) { RootFeature() }
    try await store.send(.pushNumberFactTapped(number: 42))
    try await store.send(.path(.element(id: 0, action: .numberFact(.factButtonTapped)))).finish()
    let state = await store.state
    XCTAssertEqual(
      state.path[id: 0, case: \.numberFact]?.fact,
      NumberFactClient.fact(about: 42)
    )
    XCTAssertEqual(state.path[id: 0, case: \.numberFact]?.isLoading, false)
  }

  func testCounterDismissesItselfThroughTheStore() async throws {
    let store = Store(initialState: RootFeature.State(path: [.counter(.init(count: 4))])) {
      RootFeature()
    }
    try await store.send(.path(.element(id: 0, action: .counter(.incrementButtonTapped))))
    await store.waitForEffects()
    let state = await store.state
    XCTAssertEqual(state.path.ids, [])
    XCTAssertEqual(state.path.nextID, 1)
  }

  func testObserverSeesEveryActionWithStatesBeforeAndAfter() async throws {
    let seen = LockIsolated<[(RootFeature.Action, Int, Int)]>([])
    let store = Store(
      initialState: RootFeature.State(path: [.counter(.init(count: 4))]),
      reducer: { RootFeature() },
      observer: { transition in
        seen.withValue {
          $0.append(
            (transition.action, transition.stateBefore.path.count, transition.stateAfter.path.count)
          )
        }
      }
    )
    try await store.send(.path(.element(id: 0, action: .counter(.incrementButtonTapped))))
    await store.waitForEffects()
    XCTAssertEqual(seen.value.map(\.0), [
      .path(.element(id: 0, action: .counter(.incrementButtonTapped))),
      .path(.popFrom(id: 0)),
    ])
    XCTAssertEqual(seen.value.map(\.1), [1, 1])
    XCTAssertEqual(seen.value.map(\.2), [1, 0])
  }

  struct Rejected: Error {}

  func testAnObserverThatThrowsRejectsTheAction() async {
    let store = Store(
      initialState: RootFeature.State(),
      reducer: { RootFeature() },
      observer: { transition in
        if case .pushCounterTapped(count: 13) = transition.action { throw Rejected() }
      }
    )
    do {
      try await store.send(.pushCounterTapped(count: 13))
      XCTFail("expected the observer's error")
    } catch {
      XCTAssertTrue(error is Rejected)
    }
    let state = await store.state
    XCTAssertEqual(state, RootFeature.State())
  }

  func testARejectedFollowUpActionKeepsTheSentActionAndSaysSo() async throws {
    let store = Store(
      initialState: [String](),
      reducer: {
        Reduce<[String], String> { state, action in
          state.append(action)
          return action == "a" ? .send("b") : .none
        }
      },
      observer: { transition in
        if transition.action == "b" { throw Rejected() }
      }
    )
    do {
      try await store.send("a")
      XCTFail("expected the follow-up's rejection")
    } catch let error as FollowUpActionRejected {
      XCTAssertTrue(error.underlying is Rejected)
      XCTAssertEqual(error.action, #""b""#)
    }
    let state = await store.state
    XCTAssertEqual(state, ["a"], "the sent action was kept, the rejected one dropped")
  }

  func testManyTasksSendToOneStoreWithoutLosingActions() async throws {
    let store = Store(initialState: RootFeature.State(path: [.counter(.init(count: -10_000))])) {
      RootFeature()
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<250 {
            try await store.send(.path(.element(id: 0, action: .counter(.decrementButtonTapped))))
          }
        }
      }
      try await group.waitForAll()
    }
    let count = await store.state.path[id: 0, case: \.counter]?.count
    XCTAssertEqual(count, -12_000)
  }

  func testScopedStoreDrivesOneElement() async throws {
    let store = Store(
      initialState: RootFeature.State(path: [.counter(.init(count: 1)), .numberFact(.init())])
    ) {
      RootFeature()
    }
    let counter = store.scope(\.path, action: \.path, id: 0, state: \.counter, action: \.counter)
    try await counter.send(.incrementButtonTapped)
    let count = await counter.state?.count
    XCTAssertEqual(count, 2)

    let wrongCase = store.scope(
      \.path, action: \.path, id: 1, state: \.counter, action: \.counter)
    let missing = await wrongCase.state
    XCTAssertNil(missing)
    do {
      try await wrongCase.send(.incrementButtonTapped)
      XCTFail("expected an error for an element in another case")
    } catch {
      XCTAssertTrue(error is ScopedStoreError)
    }
  }
}
