import StackNavigation

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
