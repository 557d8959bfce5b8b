import StackJournalTestSupport
@testable import StackNavigation
import XCTest

// The Composable Architecture's StackReducerTests, as a TCA user moves them over: the same
// features and assertions, `collectIssues` where TCA writes `XCTExpectFailure`, case key paths
// where its older tests write `/Action.path`.

@MainActor
final class StackReducerTests: XCTestCase {
  // MARK: - 1. Equality compares IDs and elements, not the next ID

  func testPush() async {
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    await store.send(.child(.push(id: 0, state: PushingParent.Child.State()))) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    await store.send(.push) {
      $0.children[id: 1] = PushingParent.Child.State()
    }
    await store.send(.child(.push(id: 2, state: PushingParent.Child.State()))) {
      $0.children[id: 2] = PushingParent.Child.State()
    }
    await store.send(.push) {
      $0.children[id: 3] = PushingParent.Child.State()
    }
    await store.send(.child(.popFrom(id: 0))) {
      $0.children = StackState()
    }
    // An ID popped earlier may be pushed again; the next ID stays where it was.
    await store.send(.child(.push(id: 0, state: PushingParent.Child.State()))) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    XCTAssertEqual(store.state.children.nextID, 4)
    await store.send(.push) {
      $0.children[id: 4] = PushingParent.Child.State()
    }
  }

  func testEmptyStacksAreEqualWhateverTheirNextIDs() {
    var popped = StackState<Int>([1, 2, 3])
    popped.removeAll()
    XCTAssertEqual(popped.nextID, 3)
    XCTAssertEqual(popped, StackState())
    XCTAssertEqual(popped.hashValue, StackState<Int>().hashValue)
    var other = StackState<Int>([1])
    other.pop(from: 0)
    XCTAssertEqual(Set([popped, other, StackState()]).count, 1)
    XCTAssertNotEqual(StackState<Int>([1]), StackState<Int>([2]))
    var moved = StackState<Int>([1, 1])
    moved.pop(from: 0)
    moved.append(1)
    XCTAssertNotEqual(moved, StackState<Int>([1]), "#2 is not #0")
  }

  // MARK: - 2 and 3. The case subscript

  func testStackStateSubscriptCase() {
    var stack = StackState<IntOrText>([.int(42)])
    stack[id: 0, case: \.int]? += 1
    XCTAssertEqual(stack[id: 0], .int(43))

    stack[id: 0, case: \.int] = nil
    XCTAssertTrue(stack.isEmpty)
    XCTAssertEqual(stack.nextID, 1)
  }

  func testStackStateSubscriptCase_Unexpected() {
    var stack = StackState<IntOrText>([.int(42)])

    var issues = collectIssues {
      stack[id: 0, case: \.text]?.append("!")
    }
    XCTAssertEqual(issues, [#"Can't modify unrelated case "int""#])

    issues = collectIssues {
      stack[id: 0, case: \.text] = nil
    }
    XCTAssertEqual(issues, [#"Can't modify unrelated case "int""#])

    XCTAssertEqual(Array(stack), [.int(42)])
    XCTAssertEqual(stack.ids, [0])
  }

  func testUnrelatedCaseIsReportedWhereTheSubscriptIsWritten() {
    var stack = StackState<IntOrText>([.text("a")])
    let line = #line + 2
    let issues = collectIssuesWithLocations {
      stack[id: 0, case: \.int] = 7
    }
    XCTAssertEqual(
      issues,
      [
        CollectedIssue(
          #"Can't modify unrelated case "text""#,
          fileID: "StackNavigationTests/StackReducerTests.swift", line: UInt(line))
      ])
    XCTAssertEqual(stack[id: 0], .text("a"))
  }

  // MARK: - 4. Explicit pushes

  func testPushReusedID() async {
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    await store.send(.child(.push(id: 0, state: PushingParent.Child.State()))) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    let issues = await collectIssues {
      await store.send(.child(.push(id: 0, state: PushingParent.Child.State())))
    }
    XCTAssertEqual(
      issues,
      [
        """
        A "forEach" at "StackNavigationTests/StackReducerFeatures.swift:\
        \(PushingParent.forEachLine)" received a "push" action for an element it already \
        contains.

          ID:
            #0
          Path IDs:
            [#0]
        """
      ])
  }

  func testPushIDGreaterThanNextGeneration() async {
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

  func testPushOfAnIDPoppedEarlierIsAccepted() async {
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

  func testMismatchedIDFailure() async {
    // Unchanged lines of the diff start with a figure space (U+2007), as custom-dump writes them.
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    let issues = await collectIssues {
      await store.send(.child(.push(id: 0, state: PushingParent.Child.State()))) {
        $0.children[id: 1] = PushingParent.Child.State()
      }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A state change does not match expectation.

            \u{2007} PushingParent.State(
            \u{2007}   children: [
            −     #1: PushingParent.Child.State()
            +     #0: PushingParent.Child.State()
            \u{2007}   ]
            \u{2007} )

        (Expected: −, Actual: +)
        """
      ])
  }

  // MARK: - 5. Effects of elements removed outside `forEach`

  func testParentDismiss() async {
    let store = TestStore(initialState: OuterCancellation.State()) { OuterCancellation() }
    await store.send(.children(.push(id: 0, state: NeverEnding.State()))) {
      $0.children[id: 0] = NeverEnding.State()
    }
    await store.send(.children(.element(id: 0, action: .tap)))
    await store.send(.children(.push(id: 1, state: NeverEnding.State()))) {
      $0.children[id: 1] = NeverEnding.State()
    }
    await store.send(.children(.element(id: 1, action: .tap)))
    await store.send(.popToRoot) {
      $0.children.removeAll()
    }
    XCTAssertEqual(runningEffects(store), 0)
  }

  func testOuterCancellation() async {
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

  // MARK: - 6. Failure messages

  func testSendActionWithIDThatDoesNotExist() async {
    let store = TestStore(initialState: IntStack.State(path: [1])) { IntStack() }
    let issues = await collectIssues {
      await store.send(.path(.element(id: 999, action: ()))) {
        $0.log = ["parent saw element(id: #999, action: ())"]
      }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A "forEach" at "StackNavigationTests/StackReducerFeatures.swift:\(IntStack.forEachLine)" \
        received an action for a missing element.

          Action:
            ()

        This is generally considered an application logic error, and can happen for a few reasons:

        A parent reducer removed an element with this ID before this reducer ran. This reducer \
        must run before any other reducer removes an element, which ensures that element \
        reducers can handle their actions while their state is still available.

        An in-flight effect emitted this action when state contained no element at this ID. \
        While it may be perfectly reasonable to ignore this action, consider canceling the \
        associated effect before an element is removed, especially if it is a long-living effect.

        This action was sent to the store while its state contained no element at this ID. To \
        fix this make sure that actions for this reducer can only be sent from a store when \
        its state contains an element at this id. In SwiftUI applications, use \
        "NavigationStack.init(path:)" with a binding to a store.
        """
      ])
  }

  func testPopIDThatDoesNotExist() async {
    let store = TestStore(initialState: IntStack.State(path: [1])) { IntStack() }
    let issues = await collectIssues {
      await store.send(.path(.popFrom(id: 999))) {
        $0.log = ["parent saw popFrom(id: #999)"]
      }
    }
    XCTAssertEqual(
      issues,
      [
        """
        A "forEach" at "StackNavigationTests/StackReducerFeatures.swift:\(IntStack.forEachLine)" \
        received a "popFrom" action for a missing element.

          ID:
            #999
          Path IDs:
            [#0]
        """
      ])
    XCTAssertEqual(store.state.path.ids, [0])
  }

  func testChildWithInFlightEffect() async {
    var sendLine: UInt = 0
    let issues = await collectIssuesWithLocations {
      let store = TestStore(
        initialState: OuterCancellation.State(children: [NeverEnding.State()])
      ) {
        OuterCancellation()
      }
      sendLine = #line + 1
      await store.send(.children(.element(id: 0, action: .tap)))
      store.reportUnfinishedWork()
    }
    XCTAssertEqual(
      issues,
      [
        CollectedIssue(
          TestStore<Int, Int>.effectStillRunning,
          fileID: "StackNavigationTests/StackReducerTests.swift", line: sendLine)
      ])
  }

  private func runningEffects<S, A>(_ store: TestStore<S, A>) -> Int {
    store.runningEffectCount
  }
}
