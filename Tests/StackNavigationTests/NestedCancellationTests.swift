// A parent's `.cancel(id:)` reaches its children's effects; removing a stack element cancels that
// element's effects only — not those of an element with the same ID in a stack nested inside a
// sibling (the same stack, one level down, in a feature that holds a stack of itself).
import StackNavigation
import Testing

@Reducer
struct Node {
  struct State: Equatable {
    var path = StackState<Node.State>()
    var ticks = 0
  }
  indirect enum Action {
    case path(StackAction<Node.State, Node.Action>)
    case start
    case tick
  }
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path:
        return .none
      case .start:
        return .run { send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Node() }
  }
}

@MainActor
@Suite struct NestedCancellationTests {
  @Test func poppingAnElementLeavesTheNestedElementWithTheSameIDRunning() async {
    let clock = TestClock()
    let inner = Node.State(path: [Node.State(), Node.State(), Node.State(), Node.State()])
    let store = TestStore(
      initialState: Node.State(path: [Node.State(), inner, Node.State(), Node.State()])
    ) {
      Node()
    } withDependencies: {
      $0.continuousClock = clock
    }
    // The timer of element #3 of the stack inside element #1.
    await store.send(.path(.element(id: 1, action: .path(.element(id: 3, action: .start)))))
    // Element #3 of the outer stack goes: its effects, none, are cancelled, not the nested #3's.
    await store.send(.path(.popFrom(id: 3))) {
      $0.path.pop(from: 3)
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 1].path[id: 3].tick) {
      $0.path[id: 1]?.path[id: 3]?.ticks = 1
    }
    // Element #1 goes with its stack: the nested timer stops with it.
    await store.send(.path(.popFrom(id: 1))) {
      $0.path.pop(from: 1)
    }
    await clock.advance(by: .seconds(3))
  }
}
