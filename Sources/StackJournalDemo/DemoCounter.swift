import StackNavigation

/// A counter that dismisses itself when its count reaches 5 (the seed's example).
public struct CounterFeature: Reducer, Sendable {
  /// The count.
  public struct State: Equatable, Codable, Sendable {
    /// The current count.
    public var count: Int

    /// Creates a counter at `count`.
    public init(count: Int = 0) {
      self.count = count
    }
  }

  /// The counter's buttons.
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case decrementButtonTapped
    case incrementButtonTapped
  }

  @Dependency(\.dismiss) var dismiss

  /// Creates the feature.
  public init() {}

  public var body: some ReducerOf<Self> {
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
