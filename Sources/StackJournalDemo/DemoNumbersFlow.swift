import StackNavigation

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
