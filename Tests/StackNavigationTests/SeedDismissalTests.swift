import StackJournalTestSupport
@testable import StackNavigation
import XCTest

// The seed article's "Testing" section, as written there; only the spelling a Linux test needs
// changed (`@MainActor … async`, a conformance instead of the `@Reducer` macro, and the
// counter wrapped in the `.counter` case of `Path.State`).

struct Counter: Reducer, Sendable {
  struct State: Equatable, Codable, Sendable {
    var count = 0
  }
  @CasePathable
  enum Action: Equatable, Codable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none

      case .incrementButtonTapped:
        state.count += 1
        return state.count >= 5
          ? .run { _ in await self.dismiss() }
          : .none
      }
    }
  }
}

struct Feature: Reducer {
  struct State: Equatable, Codable, Sendable {
    var path = StackState<Path.State>()
  }
  @CasePathable
  enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Path>)
  }

  struct Path: Reducer {
    @CasePathable
    enum State: Equatable, Codable, Sendable { case counter(Counter.State) }
    @CasePathable
    enum Action: Equatable, Codable, Sendable { case counter(Counter.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { Counter() }
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      // Logic and behavior for core feature.
      .none
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}

@MainActor
final class SeedDismissalTests: XCTestCase {
  func testDismissal() async {
    let store = TestStore(
      initialState: Feature.State(
        path: StackState([
          .counter(Counter.State(count: 3))
        ])
      )
    ) {
      Feature()
    }

    await store.send(\.path[id: 0].counter.incrementButtonTapped) {
      XCTModify(&$0.path[id: 0], case: \.counter) {
        $0.count = 4
      }
    }
    await store.send(\.path[id: 0].counter.incrementButtonTapped) {
      $0.path[id: 0, case: \.counter]?.count = 5
    }
    await store.receive(\.path.popFrom) {
      $0.path[id: 0] = nil
    }
  }

  func testDismissalNonExhaustive() async {
    let store = TestStore(
      initialState: Feature.State(
        path: StackState([
          .counter(Counter.State(count: 3))
        ])
      )
    ) {
      Feature()
    }
    store.exhaustivity = .off

    await store.send(\.path[id: 0].counter.incrementButtonTapped)
    await store.send(\.path[id: 0].counter.incrementButtonTapped)
    await store.receive(\.path.popFrom)
    XCTAssertEqual(store.state.path.ids, [])
    XCTAssertEqual(store.state.path.nextID, 1)
  }

  func testWrongAssertionFails() async {
    let issues = await collectIssues {
      let store = TestStore(
        initialState: Feature.State(path: [.counter(Counter.State(count: 0))])
      ) {
        Feature()
      }
      await store.send(\.path[id: 0].counter.incrementButtonTapped) {
        $0.path[id: 0, case: \.counter]?.count = 2
      }
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues[0].contains("does not match"), issues[0])
  }

  func testUnassertedChangeFails() async {
    let issues = await collectIssues {
      let store = TestStore(
        initialState: Feature.State(path: [.counter(Counter.State(count: 0))])
      ) {
        Feature()
      }
      await store.send(\.path[id: 0].counter.incrementButtonTapped)
    }
    XCTAssertEqual(issues.count, 1)
  }

  func testUnreceivedActionFails() async {
    let issues = await collectIssues {
      let store = TestStore(
        initialState: Feature.State(path: [.counter(Counter.State(count: 4))])
      ) {
        Feature()
      }
      await store.send(\.path[id: 0].counter.incrementButtonTapped) {
        $0.path[id: 0, case: \.counter]?.count = 5
      }
      // The dismissal's effect sends `popFrom`; wait for it without asserting anything.
      while store.runningEffectCount > 0 { try? await Task.sleep(for: .milliseconds(1)) }
      // What the store's deinit reports at the end of a test; called here, where the issues
      // are collected (a deinit runs without the test's task-local reporters).
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(issues.count, 1, "\(issues)")
    XCTAssertTrue(
      issues[0].hasPrefix(
        """
        The store received 1 unexpected action.

          Unhandled actions:
            .path(.popFrom(id:))
        """), "\(issues)")
  }

  func testRunningEffectAtTheEndFails() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: 0) {
        Reduce<Int, Bool> { state, _ in
          state += 1
          return .run { _ in try await Task.sleep(for: .seconds(60)) }
        }
      }
      await store.send(true) { $0 = 1 }
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(issues.count, 1, "\(issues)")
    XCTAssertTrue(issues.first?.contains("is still running") ?? false, "\(issues)")
  }
}
