// The article's Testing section: a counter that dismisses itself at 5, pushed onto a stack of a
// `@Reducer struct Path` with a `Scope` per case.
import StackNavigation

@Reducer
struct CounterFeature {
  @ObservableState
  struct State: Equatable, Codable {
    var count = 0
  }
  enum Action: Codable {
    case decrementButtonTapped
    case incrementButtonTapped
    case factButtonTapped
    case response(String)
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

      case .factButtonTapped:
        let count = state.count
        return .run { send in await send(.response("\(count) is a number")) }

      case .response:
        return .none
      }
    }
  }
}

@Reducer
struct Feature {
  @ObservableState
  struct State: Equatable {
    var path = StackState<Path.State>()
  }
  enum Action {
    case path(StackActionOf<Path>)
  }

  @Reducer
  struct Path {
    enum State: Equatable { case counter(CounterFeature.State) }
    enum Action { case counter(CounterFeature.Action) }
    var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { CounterFeature() }
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
