import StackNavigation

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
