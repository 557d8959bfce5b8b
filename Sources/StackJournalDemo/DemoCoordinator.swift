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

/// The coordinator of the README: routes kept in an array, screens identified by their index.
@Reducer
public struct Coordinator {
  /// Every screen of the flow.
  @Reducer
  public enum Screen {
    case home(Home)
    case numbersList(NumbersList)
    case numberDetail(NumberDetail)
  }

  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var routes: [Route<Screen.State>]
    public init(
      routes: [Route<Screen.State>] = [.root(.home(.init()), embedInNavigationView: true)]
    ) {
      self.routes = routes
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case router(IndexedRouterActionOf<Screen>)
  }

  let cancelEffectsOnDismiss: Bool

  /// The line of this coordinator's `forEachRoute`, which its reports name.
  public static let forEachRouteLine: UInt = #line + 35
  public init(cancelEffectsOnDismiss: Bool = true) {
    self.cancelEffectsOnDismiss = cancelEffectsOnDismiss
  }

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .router(.routeAction(_, .home(.startTapped))):
        state.routes.presentSheet(.numbersList(.init()), embedInNavigationView: true)

      case .router(.routeAction(_, .numbersList(.numberSelected(let number)))):
        state.routes.push(.numberDetail(.init(number: number)))

      case .router(.routeAction(_, .numberDetail(.showDouble(let number)))):
        state.routes.presentSheet(.numberDetail(.init(number: number * 2)))

      case .router(.routeAction(_, .numberDetail(.goBackTapped))):
        state.routes.goBack()

      case .router(.routeAction(_, .numberDetail(.goBackToNumbersList))):
        return .routeWithDelaysIfUnsupported(state.routes, action: \.router) {
          $0.goBackTo(\.numbersList)
        }

      case .router(.routeAction(_, .numberDetail(.goBackToRootTapped))):
        return .routeWithDelaysIfUnsupported(state.routes, action: \.router) {
          $0.goBackToRoot()
        }

      default:
        break
      }
      return .none
    }
    .forEachRoute(\.routes, action: \.router, cancelEffectsOnDismiss: cancelEffectsOnDismiss)
  }
}

extension Coordinator.Screen.State: Equatable, Codable, Sendable, Identifiable {
  /// The screen's own ID.
  public var id: Int {
    switch self {
    case let .home(state): return state.id
    case let .numbersList(state): return state.id
    case let .numberDetail(state): return state.id
    }
  }
}
extension Coordinator.Screen.Action: Equatable, Codable, Sendable {}

/// The same flow with routes kept in an identified array: screens are identified by their IDs,
/// which come from a counter in the state.
@Reducer
public struct IdentifiedCoordinator {
  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var routes: IdentifiedArrayOf<Route<Coordinator.Screen.State>>
    public var nextScreenID: Int
    public init(
      routes: IdentifiedArrayOf<Route<Coordinator.Screen.State>> = [
        .root(.home(.init(id: 0)), embedInNavigationView: true)
      ],
      nextScreenID: Int = 1
    ) {
      self.routes = routes
      self.nextScreenID = nextScreenID
    }

    mutating func newScreenID() -> Int {
      defer { nextScreenID += 1 }
      return nextScreenID
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case router(IdentifiedRouterActionOf<Coordinator.Screen>)
  }

  let cancelEffectsOnDismiss: Bool

  public init(cancelEffectsOnDismiss: Bool = true) {
    self.cancelEffectsOnDismiss = cancelEffectsOnDismiss
  }

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .router(.routeAction(_, .home(.startTapped))):
        let id = state.newScreenID()
        state.routes.presentSheet(.numbersList(.init(id: id)), embedInNavigationView: true)

      case .router(.routeAction(_, .numbersList(.numberSelected(let number)))):
        let id = state.newScreenID()
        state.routes.push(.numberDetail(.init(id: id, number: number)))

      case .router(.routeAction(_, .numberDetail(.goBackTapped))):
        state.routes.goBack()

      case .router(.routeAction(_, .numberDetail(.goBackToNumbersList))):
        return .routeWithDelaysIfUnsupported(state.routes, action: \.router) {
          $0.goBackTo(\.numbersList)
        }

      case .router(.routeAction(_, .numberDetail(.goBackToRootTapped))):
        return .routeWithDelaysIfUnsupported(state.routes, action: \.router) {
          $0.goBackToRoot()
        }

      default:
        break
      }
      return .none
    }
    .forEachRoute(\.routes, action: \.router, cancelEffectsOnDismiss: cancelEffectsOnDismiss)
  }
}

/// A child coordinator: the numbers part of the flow, with its own routes, pushed as one screen
/// of a parent coordinator.
@Reducer
public struct NumbersFlow {
  @Reducer
  public enum Screen {
    case numbersList(NumbersList)
    case numberDetail(NumberDetail)
  }

  @ObservableState
  public struct State: Equatable, Codable, Sendable, Identifiable {
    public var id: Int
    public var routes: [Route<Screen.State>]
    public init(id: Int = 0, routes: [Route<Screen.State>] = [.root(.numbersList(.init()))]) {
      self.id = id
      self.routes = routes
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case router(IndexedRouterActionOf<Screen>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .router(.routeAction(_, .numbersList(.numberSelected(let number)))):
        state.routes.push(.numberDetail(.init(number: number)))
      case .router(.routeAction(_, .numberDetail(.goBackTapped))):
        state.routes.goBack()
      default:
        break
      }
      return .none
    }
    .forEachRoute(\.routes, action: \.router)
  }
}

extension NumbersFlow.Screen.State: Equatable, Codable, Sendable {}
extension NumbersFlow.Screen.Action: Equatable, Codable, Sendable {}

/// A parent coordinator that pushes the numbers flow, a child coordinator, from its home screen.
@Reducer
public struct ParentCoordinator {
  @Reducer
  public enum Screen {
    case home(Home)
    case numbersFlow(NumbersFlow)
  }

  @ObservableState
  public struct State: Equatable, Codable, Sendable {
    public var routes: [Route<Screen.State>]
    public init(
      routes: [Route<Screen.State>] = [.root(.home(.init()), embedInNavigationView: true)]
    ) {
      self.routes = routes
    }
  }

  @CasePathable
  public enum Action: Equatable, Codable, Sendable {
    case router(IndexedRouterActionOf<Screen>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .router(.routeAction(_, .home(.startFlowTapped))):
        state.routes.push(.numbersFlow(.init()))
      default:
        break
      }
      return .none
    }
    .forEachRoute(\.routes, action: \.router)
  }
}

extension ParentCoordinator.Screen.State: Equatable, Codable, Sendable {}
extension ParentCoordinator.Screen.Action: Equatable, Codable, Sendable {}
