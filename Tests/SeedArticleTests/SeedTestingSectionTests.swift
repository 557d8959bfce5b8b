// The article's Testing section, as written (with its `Counter` spelled `CounterFeature`).
import StackNavigation
import Testing

@MainActor
@Suite struct SeedTestingSectionTests {
  @Test func dismissalWithXCTModify() async {
    let store = TestStore(
      initialState: Feature.State(
        path: StackState([
          .counter(CounterFeature.State(count: 3))
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
      XCTModify(&$0.path[id: 0], case: \.counter) {
        $0.count = 5
      }
    }
    await store.receive(\.path.popFrom) {
      $0.path[id: 0] = nil
    }
  }

  @Test func dismissalWithCaseSubscript() async {
    let store = TestStore(
      initialState: Feature.State(path: StackState([.counter(CounterFeature.State(count: 3))]))
    ) {
      Feature()
    }

    await store.send(\.path[id: 0].counter.incrementButtonTapped) {
      $0.path[id: 0, case: \.counter]?.count = 4
    }
    await store.send(\.path[id: 0].counter.incrementButtonTapped) {
      $0.path[id: 0, case: \.counter]?.count = 5
    }
    await store.receive(\.path.popFrom) {
      $0.path[id: 0] = nil
    }
  }

  @Test func dismissalNonExhaustive() async {
    let store = TestStore(
      initialState: Feature.State(path: StackState([.counter(CounterFeature.State(count: 3))]))
    ) {
      Feature()
    }
    store.exhaustivity = .off

    await store.send(\.path[id: 0].counter.incrementButtonTapped)
    await store.send(\.path[id: 0].counter.incrementButtonTapped)
    await store.receive(\.path.popFrom)
    #expect(store.state.path.isEmpty)
  }

  @Test func receiveAnElementActionByCaseKeyPath() async {
    let store = TestStore(
      initialState: Feature.State(path: StackState([.counter(CounterFeature.State(count: 7))]))
    ) {
      Feature()
    }

    await store.send(\.path[id: 0].counter.factButtonTapped)
    await store.receive(\.path[id: 0].counter.response)
  }
}
