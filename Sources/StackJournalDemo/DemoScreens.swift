import StackNavigation

// The flow of TCACoordinators' README, written in today's reducer style: a home screen, a list
// of numbers presented as a sheet with its own navigation, and a number's detail pushed from it,
// from which the user goes back one screen, back to the list or back to the root. The screens
// know nothing of the flow; the coordinator decides it.
//
// Screens carry an `id` so that the same screens can be kept in an identified array. IDs come
// from a counter in the coordinator's state, not from a UUID generator, so replaying the journal
// hands out the same IDs.

/// The first screen.
@Reducer
public struct Home {
  @ObservableState
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public var id: Int
    public init(id: Int = 0) { self.id = id }
  }
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case startTapped
    case startFlowTapped
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
  }
}

/// A list of numbers to pick from.
@Reducer
public struct NumbersList {
  @ObservableState
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public var id: Int
    public var numbers: [Int]
    public init(id: Int = 0, numbers: [Int] = Array(0..<4)) {
      self.id = id
      self.numbers = numbers
    }
  }
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case numberSelected(Int)
  }
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
  }
}

/// One number, with a fact about it fetched by an effect.
@Reducer
public struct NumberDetail: Sendable {
  @ObservableState
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public var id: Int
    public var number: Int
    public var fact: String?
    public init(id: Int = 0, number: Int, fact: String? = nil) {
      self.id = id
      self.number = number
      self.fact = fact
    }
  }
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case incrementTapped
    case factButtonTapped
    case factResponse(String)
    case showDouble(Int)
    case goBackTapped
    case goBackToNumbersList
    case goBackToRootTapped
  }
  @Dependency(\.numberFact) var numberFact
  public init() {}
  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementTapped:
        state.number += 1
        return .none
      case .factButtonTapped:
        return .run { [number = state.number] send in
          await send(.factResponse(try await numberFact.fetch(number)))
        }
      case let .factResponse(fact):
        state.fact = fact
        return .none
      case .showDouble, .goBackTapped, .goBackToNumbersList, .goBackToRootTapped:
        return .none
      }
    }
  }
}
