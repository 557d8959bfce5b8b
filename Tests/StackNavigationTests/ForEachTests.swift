import StackJournalTestSupport
@testable import StackNavigation
import XCTest

/// A feature whose elements run a long effect, to show it stops when the element is popped.
struct Ticker: Reducer, Sendable {
  enum CancelID: Hashable, Sendable { case timer }
  struct State: Equatable, Codable, Sendable {
    var ticks = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case startTapped
    case tick
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startTapped:
        return .run { send in
          while true {
            try await Task.sleep(for: .milliseconds(2))
            await send(.tick)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }
}

struct TickerRoot: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Ticker.State>()
    var log: [String] = []
    var closesOnStart = false
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case path(StackAction<Ticker.State, Ticker.Action>)
    case popAllTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .path(.element(id, .tick)):
        state.log.append("parent saw tick of \(id) at \(state.path[id: id]?.ticks ?? -1)")
        return .none
      case let .path(.push(id, _)):
        state.log.append("parent saw push of \(id), in stack: \(state.path[id: id] != nil)")
        return .none
      case let .path(.popFrom(id)):
        state.log.append("parent saw pop of \(id), in stack: \(state.path[id: id] != nil)")
        return .none
      case .popAllTapped:
        state.path.removeAll()
        return .none
      case let .path(.element(id, .startTapped)) where state.closesOnStart:
        state.path.pop(from: id)
        return .none
      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Ticker() }
  }
}

/// An element that holds a stack of its own.
struct Outer: Reducer {
  struct State: Equatable, Sendable {
    var inner = StackState<Ticker.State>()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case inner(StackAction<Ticker.State, Ticker.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.inner, action: \.inner) { Ticker() }
  }
}

struct NestedRoot: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Outer.State>()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case path(StackAction<Outer.State, Outer.Action>)
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.path, action: \.path) { Outer() }
  }
}

@MainActor
final class ForEachTests: XCTestCase {
  func testElementActionRunsChildThenParent_PushThenParent_ParentThenPop() async {
    let store = TestStore(initialState: TickerRoot.State()) { TickerRoot() }
    await store.send(.path(.push(id: 0, state: Ticker.State()))) {
      $0.path[id: 0] = Ticker.State()
      $0.log = ["parent saw push of #0, in stack: true"]
    }
    await store.send(.path(.element(id: 0, action: .tick))) {
      $0.path[id: 0]?.ticks = 1
      $0.log.append("parent saw tick of #0 at 1")
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
      $0.log.append("parent saw pop of #0, in stack: true")
    }
  }

  func testMisuseIsReportedLeavesTheStackAndRunsTheParent() async {
    let initial = TickerRoot.State(path: [Ticker.State(), Ticker.State()])
    let store = Store(initialState: initial) { TickerRoot() }
    var issues = await collectIssues {
      _ = try? await store.send(.path(.element(id: 7, action: .tick)))
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues[0].contains("received an action for a missing element."), issues[0])
    issues = await collectIssues {
      _ = try? await store.send(.path(.push(id: 1, state: Ticker.State(ticks: 9))))
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues[0].contains("for an element it already contains."), issues[0])
    issues = await collectIssues {
      _ = try? await store.send(.path(.popFrom(id: 5)))
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues[0].contains(#"received a "popFrom" action for a missing"#), issues[0])
    let after = await store.state
    XCTAssertEqual(after.path, initial.path)
    XCTAssertEqual(after.path.nextID, initial.path.nextID)
    // As in the Composable Architecture, the parent's reducer still runs.
    XCTAssertEqual(
      after.log,
      [
        "parent saw tick of #7 at -1", "parent saw push of #1, in stack: true",
        "parent saw pop of #5, in stack: false",
      ])
  }

  func testPushOfAnIDPoppedEarlierIsAccepted() async {
    var initial = TickerRoot.State(path: [Ticker.State(), Ticker.State()])
    initial.path.pop(from: 1)
    let store = Store(initialState: initial) { TickerRoot() }
    let issues = await collectIssues {
      _ = try? await store.send(.path(.push(id: 1, state: Ticker.State(ticks: 3))))
      _ = try? await store.send(.path(.push(id: 2, state: Ticker.State(ticks: 4))))
    }
    XCTAssertEqual(issues, [])
    let after = await store.state
    XCTAssertEqual(after.path.ids, [0, 1, 2])
    XCTAssertEqual(after.path.map(\.ticks), [0, 3, 4])
    XCTAssertEqual(after.path.nextID, 3)
  }

  func testEffectsOfAPoppedElementAreCancelled() async throws {
    let store = TestStore(initialState: TickerRoot.State(path: [Ticker.State()])) {
      TickerRoot()
    }
    store.exhaustivity = .off
    await store.send(.path(.element(id: 0, action: .startTapped)))
    await store.receive(\.path[id: 0].tick)
    await store.receive(\.path[id: 0].tick)
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    await store.skipReceivedActions(strict: false)
    let ticksSeen = store.state.log.count
    try await Task.sleep(for: .milliseconds(50))
    await store.skipReceivedActions(strict: false)
    XCTAssertEqual(store.state.log.count, ticksSeen, "no tick arrives after the pop")
    await store.finish(timeout: .seconds(1))
  }

  func testEffectsAreCancelledWhenTheParentRemovesElements() async throws {
    let issues = await collectIssues {
      let store = Store(initialState: TickerRoot.State(path: [Ticker.State(), Ticker.State()])) {
        TickerRoot()
      }
      try? await store.send(.path(.element(id: 0, action: .startTapped)))
      try? await store.send(.path(.element(id: 1, action: .startTapped)))
      try? await Task.sleep(for: .milliseconds(20))
      try? await store.send(.popAllTapped)
      let logCount = await store.state.log.count
      try? await Task.sleep(for: .milliseconds(40))
      let laterCount = await store.state.log.count
      XCTAssertEqual(logCount, laterCount)
      await store.waitForEffects()
    }
    XCTAssertEqual(issues, [], "no action reached a removed element")
  }

  func testAStoreCancelsEffectsOfElementsASiblingReducerRemovedAtTheNextAction() async throws {
    let store = Store(
      initialState: OuterCancellation.State(children: [NeverEnding.State(), NeverEnding.State()])
    ) {
      OuterCancellation()
    }
    let first = try await store.send(.children(.element(id: 0, action: .tap)))
    let second = try await store.send(.children(.element(id: 1, action: .tap)))
    try await store.send(.tapAfter)  // removes both after the forEach ran
    XCTAssertFalse(first.isCancelled)
    XCTAssertFalse(second.isCancelled)
    try await store.send(.tapBefore)  // the forEach sees the stack without them
    XCTAssertTrue(first.isCancelled)
    XCTAssertTrue(second.isCancelled)
    await store.waitForEffects()
  }

  func testWorkStartedForAnElementTheSameActionRemovesIsCancelled() async throws {
    let issues = await collectIssues {
      let store = Store(
        initialState: TickerRoot.State(path: [Ticker.State()], closesOnStart: true)
      ) {
        TickerRoot()
      }
      try? await store.send(.path(.element(id: 0, action: .startTapped)))
      try? await Task.sleep(for: .milliseconds(30))
      // Cancelled here too, so that a regression fails the test instead of ticking forever.
      await store.cancelEffects()
      let state = await store.state
      XCTAssertEqual(state.path.ids, [])
      XCTAssertEqual(state.log, [])
    }
    XCTAssertEqual(issues, [], "the element's timer never ticked into the parent")
  }

  func testTheSameCancellationIDInTwoElementsNamesTwoPiecesOfWork() async throws {
    let store = Store(initialState: TickerRoot.State(path: [Ticker.State(), Ticker.State()])) {
      TickerRoot()
    }
    try await store.send(.path(.element(id: 0, action: .startTapped)))
    try await store.send(.path(.element(id: 1, action: .startTapped)))  // cancels only its own
    try await Task.sleep(for: .milliseconds(40))
    let first = await store.state.path.map(\.ticks)
    try await Task.sleep(for: .milliseconds(40))
    let second = await store.state.path.map(\.ticks)
    await store.cancelEffects()
    XCTAssertGreaterThan(second[0], first[0], "element #0 still ticks")
    XCTAssertGreaterThan(second[1], first[1], "element #1 ticks")
  }

  func testPoppingANestedElementLeavesTheSameIDInAnotherElementRunning() async throws {
    let outer = Outer.State(inner: [Ticker.State()])
    let store = Store(initialState: NestedRoot.State(path: [outer, outer])) { NestedRoot() }
    for id: StackElementID in [0, 1] {
      try await store.send(.path(.element(id: id, action: .inner(.element(id: 0, action: .startTapped)))))
    }
    try await Task.sleep(for: .milliseconds(30))
    try await store.send(.path(.element(id: 0, action: .inner(.popFrom(id: 0)))))
    let before = await store.state.path[id: 1]?.inner[id: 0]?.ticks ?? 0
    try await Task.sleep(for: .milliseconds(40))
    let after = await store.state.path[id: 1]?.inner[id: 0]?.ticks ?? 0
    await store.cancelEffects()
    XCTAssertGreaterThan(after, before, "the sibling's inner #0 keeps ticking")
    let popped = await store.state.path[id: 0]?.inner.ids
    XCTAssertEqual(popped, [])
  }

  func testDismissOutsideAStackIsReported() async {
    let issues = await collectIssues {
      let store = Store(initialState: Counter.State(count: 4)) { Counter() }
      try? await store.send(.incrementButtonTapped).finish()
    }
    XCTAssertEqual(issues.count, 1)
    XCTAssertTrue(issues[0].contains("nothing to dismiss"), issues[0])
  }

  // Through a test store, what the Composable Architecture's StackReducerTests (in
  // Tests/ComposableArchitectureTests, as TCA writes them) leave unasserted: the next ID after
  // explicit pushes, and when the effects of removed elements end.

  func testAPushOfAnIDPoppedEarlierKeepsTheNextIDItReached() async {
    let store = TestStore(
      initialState: PushingParent.State(children: [.init(), .init(), .init()])
    ) {
      PushingParent()
    }
    await store.send(.child(.popFrom(id: 1))) {
      $0.children.removeLast(2)
    }
    await store.send(.child(.push(id: 1, state: PushingParent.Child.State()))) {
      $0.children[id: 1] = PushingParent.Child.State()
    }
    XCTAssertEqual(store.state.children.ids, [0, 1])
    XCTAssertEqual(store.state.children.nextID, 3, "the next ID never goes down")
    await store.send(.push) {
      $0.children[id: 3] = PushingParent.Child.State()
    }
  }

  func testAPushOfAnIDAboveTheNextIDIsReportedAndMovesTheNextIDPastIt() async {
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    let issues = await collectIssues {
      await store.send(.child(.push(id: 1, state: PushingParent.Child.State()))) {
        $0.children[id: 1] = PushingParent.Child.State()
      }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A "forEach" at "StackNavigationTests/StackReducerFeatures.swift:\
        \(PushingParent.forEachLine)" received a "push" action with an unexpected generational \
        ID.

          Received ID:
            #1
          Expected ID:
            #0
        """
      ])
    XCTAssertEqual(store.state.children.nextID, 2)
  }

  func testEffectsOfARemovedElementEndWithTheActionThatRemovedItOrTheNextOne() async {
    let store = TestStore(initialState: OuterCancellation.State()) { OuterCancellation() }

    await store.send(.children(.push(id: 0, state: NeverEnding.State()))) {
      $0.children[id: 0] = NeverEnding.State()
    }
    await store.send(.children(.element(id: 0, action: .tap)))
    await store.send(.tapBefore) {
      $0.children.removeAll()
    }
    XCTAssertEqual(runningEffects(store), 0, "cancelled by the action that removed #0")

    await store.send(.children(.push(id: 1, state: NeverEnding.State()))) {
      $0.children[id: 1] = NeverEnding.State()
    }
    await store.send(.children(.element(id: 1, action: .tap)))
    await store.send(.tapAfter) {
      $0.children.removeAll()
    }
    XCTAssertEqual(runningEffects(store), 1, "the forEach ran before #1 was removed")
    // Another action needs to come into the `forEach` to cancel the child's effect.
    await store.send(.tapAfter)
    XCTAssertEqual(runningEffects(store), 0)
  }

  func testEffectsOfAnAssignedNewStacksFormerElementsAreNotKnownToForEach() async {
    // As in the Composable Architecture, the IDs `forEach` saw travel in the stack's value; a new
    // stack assigned in their place does not carry them.
    let store = TestStore(
      initialState: OuterCancellation.State(children: [NeverEnding.State(), NeverEnding.State()])
    ) {
      OuterCancellation()
    }
    await store.send(.children(.element(id: 0, action: .tap)))
    await store.send(.replaceAfter) {
      $0.children = StackState()
    }
    await store.send(.tapBefore)
    XCTAssertEqual(runningEffects(store), 1)
    await store.skipInFlightEffects()
  }

  func testAnotherTabsActionsNeverCancelItsEffects() async {
    var state = Tabs.State()
    state.second.children = [NeverEnding.State(), NeverEnding.State()]
    let store = TestStore(initialState: state) { Tabs() }
    await store.send(.second(.children(.element(id: 1, action: .tap))))
    await store.send(.first(.children(.push(id: 0, state: NeverEnding.State())))) {
      $0.first.children[id: 0] = NeverEnding.State()
    }
    await store.send(.first(.tapBefore)) {
      $0.first.children.removeAll()
    }
    XCTAssertEqual(runningEffects(store), 1, "the second tab's #1 still runs")
    await store.send(.second(.tapBefore)) {
      $0.second.children.removeAll()
    }
    XCTAssertEqual(runningEffects(store), 0)
  }

  func testRemovedElementsEffectsStillRunWithoutAnotherAction() async {
    let issues = await collectIssues {
      let store = TestStore(initialState: OuterCancellation.State()) { OuterCancellation() }
      await store.send(.children(.push(id: 0, state: NeverEnding.State()))) {
        $0.children[id: 0] = NeverEnding.State()
      }
      await store.send(.children(.element(id: 0, action: .tap)))
      await store.send(.tapAfter) {
        $0.children.removeAll()
      }
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(issues, [TestStore<Int, Int>.effectStillRunning])
  }

  private func runningEffects<S, A>(_ store: TestStore<S, A>) -> Int {
    store.runningEffectCount
  }
}
