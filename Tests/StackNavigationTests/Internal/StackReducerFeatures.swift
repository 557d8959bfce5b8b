import StackNavigation

// Features for the stack tests that go beyond the Composable Architecture's StackReducerTests
// (ForEachTests, StackStateTests) and for TestStoreFailureTests. Declared at file scope because
// `@CasePathable` cannot extend types declared inside a function.

/// An element whose one action starts an effect that never ends.
struct NeverEnding: Reducer {
  struct State: Equatable, Sendable {}
  @CasePathable
  enum Action: Equatable, Sendable {
    case tap
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in
      .run { _ in try await Task.never() }
    }
  }
}

/// A parent whose children run effects that never end, and that removes them in reducers of its
/// own: `tapBefore` in a `Reduce` before the `forEach`, `tapAfter` in one after it, `replaceAfter`
/// by assigning a new stack after it, and `popToRoot` in the `forEach`'s own base reducer.
struct OuterCancellation: Reducer {
  struct State: Equatable, Sendable {
    var children = StackState<NeverEnding.State>()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case children(StackActionOf<NeverEnding>)
    case popToRoot
    case replaceAfter
    case tapAfter
    case tapBefore
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .tapBefore = action { state.children.removeAll() }
      return .none
    }
    Reduce { state, action in
      if case .popToRoot = action { state.children.removeAll() }
      return .none
    }
    .forEach(\.children, action: \.children) {
      NeverEnding()
    }
    Reduce { state, action in
      switch action {
      case .tapAfter: state.children.removeAll()
      case .replaceAfter: state.children = StackState()
      default: break
      }
      return .none
    }
  }
}

/// A stack of integers whose elements have no actions of their own, and whose parent logs what
/// it sees.
struct IntStack: Reducer {
  struct State: Equatable, Sendable {
    var path = StackState<Int>()
    var log: [String] = []
  }
  @CasePathable
  enum Action: Sendable {
    case path(StackAction<Int, Void>)
  }
  static let forEachLine: UInt = #line + 8
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case let .path(stackAction) = action {
        state.log.append("parent saw \(stackAction)")
      }
      return .none
    }
    .forEach(\.path, action: \.path) {}
  }
}

/// A parent that pushes children by appending and by explicit `push` actions.
struct PushingParent: Reducer {
  struct Child: Reducer {
    struct State: Equatable, Sendable {}
    @CasePathable
    enum Action: Equatable, Sendable {}
    var body: some ReducerOf<Self> { EmptyReducer() }
  }
  struct State: Equatable, Sendable {
    var children = StackState<Child.State>()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case child(StackActionOf<Child>)
    case push
  }
  static let forEachLine: UInt = #line + 11
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .child:
        return .none
      case .push:
        state.children.append(Child.State())
        return .none
      }
    }
    .forEach(\.children, action: \.child) { Child() }
  }
}

/// Elements in two cases, for the case subscript.
@CasePathable
enum IntOrText: Equatable, Sendable {
  case int(Int)
  case text(String)
}

/// `first` sends `second` at once; `second` counts.
struct FirstSecond: Reducer {
  struct State: Equatable, Sendable {
    var count = 0
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case first
    case second
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .first:
        return .send(.second)
      case .second:
        state.count += 1
        return .none
      }
    }
  }
}

/// Two tabs holding the same feature, whose stacks sit at the same key path of that feature.
struct Tabs: Reducer {
  struct State: Equatable, Sendable {
    var first = OuterCancellation.State()
    var second = OuterCancellation.State()
  }
  @CasePathable
  enum Action: Equatable, Sendable {
    case first(OuterCancellation.Action)
    case second(OuterCancellation.Action)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.first, action: \.first) { OuterCancellation() }
    Scope(state: \.second, action: \.second) { OuterCancellation() }
  }
}
