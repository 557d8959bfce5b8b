import StackNavigation

// The coordinator of TCACoordinators' README; its screens are in DemoScreens.swift.

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
