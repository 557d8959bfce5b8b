import StackJournalTestSupport
@testable import StackNavigation
import Testing

// The same behaviours as StackReducerTests and TestStoreFailureTests, written with Swift
// Testing, as a TCA user's `@Test` suites are.

@MainActor
@Suite struct StackReducerSwiftTests {
  @Test func equalityIgnoresTheNextID() async {
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    await store.send(.push) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    await store.send(.push) {
      $0.children[id: 1] = PushingParent.Child.State()
    }
    await store.send(.child(.popFrom(id: 0))) {
      $0.children = StackState()
    }
    #expect(store.state.children.nextID == 2)
  }

  @Test func caseSubscriptSetToNilRemoves() {
    var stack = StackState<IntOrText>([.int(42), .text("a")])
    stack[id: 0, case: \.int]? += 1
    #expect(stack[id: 0] == .int(43))
    stack[id: 0, case: \.int] = nil
    #expect(stack.ids == [1])
  }

  @Test func caseSubscriptOfAnUnrelatedCaseIsReportedAndChangesNothing() {
    var stack = StackState<IntOrText>([.int(42)])
    let issues = collectIssues {
      stack[id: 0, case: \.text]?.append("!")
      stack[id: 0, case: \.text] = nil
    }
    let unrelated = #"Can't modify unrelated case "int""#
    #expect(issues == [unrelated, unrelated])
    #expect(Array(stack) == [.int(42)])
  }

  @Test func explicitPushes() async {
    let store = TestStore(initialState: PushingParent.State()) { PushingParent() }
    await store.send(.push) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    let existing = await collectIssues {
      await store.send(.child(.push(id: 0, state: PushingParent.Child.State())))
    }
    let at = "StackNavigationTests/StackReducerFeatures.swift:\(PushingParent.forEachLine)"
    #expect(
      existing == [
        """
        A "forEach" at "\(at)" received a "push" action for an element it already contains.

          ID:
            #0
          Path IDs:
            [#0]
        """
      ])
    let ahead = await collectIssues {
      await store.send(.child(.push(id: 5, state: PushingParent.Child.State()))) {
        $0.children[id: 5] = PushingParent.Child.State()
      }
    }
    #expect(
      ahead == [
        """
        A "forEach" at "\(at)" received a "push" action with an unexpected generational ID.

          Received ID:
            #5
          Expected ID:
            #1
        """
      ])
    await store.send(.child(.popFrom(id: 0))) {
      $0.children = StackState()
    }
    await store.send(.child(.push(id: 0, state: PushingParent.Child.State()))) {
      $0.children[id: 0] = PushingParent.Child.State()
    }
    #expect(store.state.children.nextID == 6)
  }

  @Test func effectsOfElementsRemovedOutsideForEachAreCancelled() async {
    let store = TestStore(
      initialState: OuterCancellation.State(children: [NeverEnding.State(), NeverEnding.State()])
    ) {
      OuterCancellation()
    }
    await store.send(.children(.element(id: 0, action: .tap)))
    await store.send(.children(.element(id: 1, action: .tap)))
    await store.send(.tapAfter) {
      $0.children.removeAll()
    }
    #expect(store.runningEffectCount == 2)
    await store.send(.tapAfter)
    #expect(store.runningEffectCount == 0)
  }

  @Test func missingElementAndPopMessages() async {
    let store = TestStore(initialState: IntStack.State(path: [1])) { IntStack() }
    let issues = await collectIssues {
      await store.send(.path(.popFrom(id: 7))) {
        $0.log = ["parent saw popFrom(id: #7)"]
      }
      await store.send(.path(.element(id: 7, action: ()))) {
        $0.log.append("parent saw element(id: #7, action: ())")
      }
    }
    let at = "StackNavigationTests/StackReducerFeatures.swift:\(IntStack.forEachLine)"
    #expect(issues.count == 2)
    #expect(
      issues.first == """
        A "forEach" at "\(at)" received a "popFrom" action for a missing element.

          ID:
            #7
          Path IDs:
            [#0]
        """)
    #expect(
      issues.last?.hasPrefix(
        """
        A "forEach" at "\(at)" received an action for a missing element.

          Action:
            ()

        This is generally considered an application logic error
        """) == true)
  }

  @Test func receiveUnexpectedAction() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    await store.send(.first)
    let issues = await collectIssues {
      await store.receive(.first)
    }
    #expect(
      issues == [
        """
        Received unexpected action:

            − FirstSecond.Action.first
            + FirstSecond.Action.second

        (Expected: −, Received: +)
        """
      ])
  }

  @Test func stateMismatchHeader() async {
    let store = TestStore(initialState: FirstSecond.State()) { FirstSecond() }
    let issues = await collectIssues {
      await store.send(.second) { $0.count = 2 }
    }
    #expect(
      issues == [
        """
        A state change does not match expectation.

            − FirstSecond.State(count: 2)
            + FirstSecond.State(count: 1)

        (Expected: −, Actual: +)
        """
      ])
  }

  @Test func effectStillRunningIsReportedAtItsSend() async {
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
    #expect(
      issues == [
        CollectedIssue(
          TestStore<Int, Int>.effectStillRunning,
          fileID: "StackNavigationTests/StackReducerSwiftTests.swift", line: sendLine)
      ])
  }
}
