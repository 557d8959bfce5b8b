import StackNavigation

/// The root of the demo: a stack whose `Path` holds counters and number facts.
public struct RootFeature: Reducer {
  /// The stack and a count of the pops the root saw.
  public struct State: Equatable, Codable, Sendable {
    /// The navigation stack.
    public var path: StackState<Path.State>

    /// Creates the root with a stack.
    public init(path: StackState<Path.State> = []) {
      self.path = path
    }
  }

  /// The root's actions.
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case path(StackActionOf<Path>)
    case goBackToRootTapped
    case pushCounterTapped(count: Int)
    case pushNumberFactTapped(number: Int)
  }

  /// The features a stack element can be.
  public struct Path: Reducer {
    /// The state of one element.
    @CasePathable
    public enum State: Equatable, Codable, Sendable {
      case counter(CounterFeature.State)
      case numberFact(NumberFactFeature.State)
    }

    /// The actions of one element.
    @CasePathable
    public enum Action: Equatable, Codable, Sendable {
      case counter(CounterFeature.Action)
      case numberFact(NumberFactFeature.Action)
    }

    /// Creates the path reducer.
    public init() {}

    public var body: some ReducerOf<Self> {
      Scope(state: \.counter, action: \.counter) { CounterFeature() }
      Scope(state: \.numberFact, action: \.numberFact) { NumberFactFeature() }
    }
  }

  /// Creates the feature.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .goBackToRootTapped:
        state.path.goBackToRoot()
        return .none

      case let .pushCounterTapped(count):
        state.path.append(.counter(CounterFeature.State(count: count)))
        return .none

      case let .pushNumberFactTapped(number):
        state.path.append(.numberFact(NumberFactFeature.State(number: number)))
        return .none

      case .path:
        return .none
      }
    }
    .forEach(\.path, action: \.path) { Path() }
  }
}
