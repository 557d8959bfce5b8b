import StackNavigation

/// Computes a fact about a number, locally (no network), after a short pause.
public struct NumberFactClient: Sendable {
  /// Returns a fact about a number.
  public var fetch: @Sendable (Int) async throws -> String

  /// Creates a client from a closure.
  public init(fetch: @escaping @Sendable (Int) async throws -> String) {
    self.fetch = fetch
  }

  /// The fact the live client gives for a number.
  public static func fact(about number: Int) -> String {
    let parity = number.isMultiple(of: 2) ? "even" : "odd"
    let digitSum = String(number.magnitude).compactMap(\.wholeNumberValue).reduce(0, +)
    let divisors = (1...max(1, Int(number.magnitude))).filter { number.isMultiple(of: $0) }.count
    return
      "\(number) is \(parity), its digits sum to \(digitSum), and it has \(divisors) positive divisor\(divisors == 1 ? "" : "s")."
  }
}

extension NumberFactClient: DependencyKey {
  public static let liveValue = NumberFactClient { number in
    try await Task.sleep(for: .milliseconds(5))
    return fact(about: number)
  }

  public static let testValue = NumberFactClient { number in fact(about: number) }
}

extension DependencyValues {
  /// Computes number facts.
  public var numberFact: NumberFactClient {
    get { self[NumberFactClient.self] }
    set { self[NumberFactClient.self] = newValue }
  }
}

/// A number whose fact comes from an effect and is shown as an alert, as the seed episode's
/// number-fact screen shows it.
public struct NumberFactFeature: Reducer, Sendable {
  /// The number and its fact.
  public struct State: Equatable, Codable, Sendable {
    /// The alert that shows the fact, while it is presented.
    @Presents public var alert: AlertState<Never>?
    /// The number.
    public var number: Int
    /// The fact about the number, once loaded.
    public var fact: String?
    /// Whether a fact is being loaded.
    public var isLoading: Bool

    /// Creates the state for a number.
    public init(
      number: Int = 0, fact: String? = nil, isLoading: Bool = false,
      alert: AlertState<Never>? = nil
    ) {
      self.number = number
      self.fact = fact
      self.isLoading = isLoading
      self.alert = alert
    }
  }

  /// The feature's actions.
  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case alert(PresentationAction<Never>)
    case decrementButtonTapped
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
  }

  @Dependency(\.numberFact) var numberFact

  /// Creates the feature.
  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.number -= 1
        state.fact = nil
        return .none

      case .incrementButtonTapped:
        state.number += 1
        state.fact = nil
        return .none

      case .factButtonTapped:
        state.isLoading = true
        state.fact = nil
        return .run { [number = state.number] send in
          await send(.factResponse(try await self.numberFact.fetch(number)))
        }

      case let .factResponse(fact):
        state.isLoading = false
        state.fact = fact
        state.alert = AlertState { TextState(fact) }
        return .none

      case .alert:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
  }
}
